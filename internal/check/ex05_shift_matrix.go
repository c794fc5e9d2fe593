package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 5, Slug: "shift_matrix", Title: "The shift matrix T_k", Test: "TestShiftMatrix",
			Funcs: []string{"ShiftMatrix"}, Lesson: 2, Section: "Shifting is a rotation", Difficulty: catalog.Medium},
		Blurb: "build $T_k$ from the angle-addition formulas.",
		Hints: Hints{
			Read: []Section{secShift},
			Idea: []string{
				"Moving a position by k turns every pair of the sinusoidal encoding by k·ω_i, a rotation that " +
					"does not depend on the position. Expand sin((p+k)ω) and cos((p+k)ω) with the angle-addition " +
					"formulas and read off the coefficients of sin(pω) and cos(pω).",
			},
			Formula: []string{
				"- With the pair ordered (sin, cos), the 2×2 block of pair i, at rows and columns 2i and 2i+1, " +
					"is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]]: the transpose of the rotation matrix you may " +
					"know by heart. Every other entry is 0, and ω_i = 10000^(−2i/d) as in exercise 3.",
				"- k may be negative; it enters only through the angle k·ω_i. Check yourself: T_k·PE(37) must " +
					"equal PE(37+k).",
			},
			Code: []string{
				"- `s, c := math.Sincos(float64(k) * omega)`, then `t[2*i][2*i], t[2*i][2*i+1] = c, s` and " +
					"`t[2*i+1][2*i], t[2*i+1][2*i+1] = -s, c`: no absolute value, and no loop that counts up to k.",
			},
		},
		Cases:  shiftMatrixCases(),
		Checks: func(cases any) *Exercise { return ShiftMatrix(nil, cases.(ShiftMatrixCases)) },
	})
}

var (
	hintShiftBackwards = newHint("shift matrix/transposed", secShift,
		"your matrix is T_(−k), the transpose: it moves positions backwards. With the pair ordered (sin, cos), "+
			"sin((p+k)ω) = sin(pω)·cos(kω) + cos(pω)·sin(kω), so the sin row of each block is [cos kω, sin kω] and the cos row "+
			"is [−sin kω, cos kω]")
	hintShiftOneStep = newHint("shift matrix/ignores k", secShift,
		"your matrix shifts by one position whatever k is: the block rotates by k·ω_i, not ω_i")
	hintShiftNegative = newHint("shift matrix/negative k", secShift,
		"your matrix is right for k ≥ 0 but not for negative k: T_k moves back when k < 0, by the angle k·ω_i, "+
			"which is negative. Use k as it is: no absolute value, and no loop that counts up to k")
	hintShiftExponent = newHint("shift matrix/exponent", secDeriving,
		"the blocks rotate at the wrong frequencies: pair i turns by k·ω_i with ω_i = 10000^(−2i/d), "+
			"the frequencies of exercise 3")
	hintShiftIntDiv = newHint("shift matrix/integer division", secDeriving,
		"every block turns by the same angle k: ω_i came out as 1 because 2i/d was computed with integer division. "+
			"Convert before dividing: float64(2*i)/float64(d)")
	hintShiftFallback = generic("shift matrix/fallback", secShift,
		"each 2×2 block is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]] at rows and columns 2i, 2i+1")
)

// refShiftMatrix is posenc's T_k as rows.
func refShiftMatrix(d, k int) [][]float64 {
	m, err := posenc.ShiftMatrix(posenc.NewSinusoidal(d), k)
	if err != nil {
		panic(err)
	}
	return posenc.Rows(m, d)
}

// shiftMatrixFreq builds T_k with pair i turning by k·freq(i).
func shiftMatrixFreq(d, k int, freq func(i int) float64) [][]float64 {
	t := make([][]float64, d)
	for r := range t {
		t[r] = make([]float64, d)
	}
	for i := range d / 2 {
		s, c := math.Sincos(float64(k) * freq(i))
		t[2*i][2*i], t[2*i][2*i+1] = c, s
		t[2*i+1][2*i], t[2*i+1][2*i+1] = -s, c
	}
	return t
}

// diagShiftMatrix names the idea behind a wrong T_k. fn is the learner's
// function: for a negative k, transposing every block, taking |k| and
// ignoring k all give T_(−k) or T_1, and only the learner's T_3 tells them
// apart.
func diagShiftMatrix(got [][]float64, d, k int, fn func(d, k int) [][]float64) *Hint {
	same := sameTable(1e-9)
	t3 := fn(d, 3)
	switch {
	case same(t3, refShiftMatrix(d, 1)), same(t3, refShiftMatrix(d, -1)):
		return hintShiftOneStep // T_3 is one step: k is ignored
	case k < 0 && same(t3, refShiftMatrix(d, 3)):
		return hintShiftNegative // right for positive k
	}
	type v = variant[[][]float64]
	return firstMatch(got, same,
		v{hintShiftBackwards, transpose(refShiftMatrix(d, k))},
		v{hintShiftIntDiv, shiftMatrixFreq(d, k, func(int) float64 { return 1 })},
		v{hintShiftExponent, shiftMatrixFreq(d, k, func(i int) float64 { return math.Pow(10000, -float64(i)/float64(d)) })},
		v{hintShiftExponent, shiftMatrixFreq(d, k, func(i int) float64 { return math.Pow(10000, -float64(4*i)/float64(d)) })},
	)
}

func matVec(m [][]float64, x []float64) []float64 {
	out := make([]float64, len(m))
	for i := range m {
		for j := range x {
			out[i] += m[i][j] * x[j]
		}
	}
	return out
}

// ShiftCase is one matrix: ShiftMatrix(D, K) must equal Want, to 1e-9.
type ShiftCase struct {
	Name string
	D, K int
	Want [][]float64
}

// ShiftPECase checks what T_k is for: ShiftMatrix(D, K)·PE must equal Want,
// where PE is the encoding of position Pos and Want that of Pos+K.
type ShiftPECase struct {
	Name      string
	D, K, Pos int
	PE, Want  []float64
}

// ShiftMatrixCases is exercise 5's case table.
type ShiftMatrixCases struct {
	Matrix []ShiftCase   `doc:"ShiftMatrix(D, K) must equal Want, to 1e-9: a 2×2 block [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]] at rows and columns 2i, 2i+1, and 0 elsewhere. K is negative in two rows."`
	Moves  []ShiftPECase `doc:"ShiftMatrix(D, K)·PE must equal Want, to 1e-9: T_k moves the encoding of position Pos to that of Pos+K."`
}

func shiftMatrixCases() ShiftMatrixCases {
	row := func(d, k int) ShiftCase {
		name := fmt.Sprintf("d=%d_k=%d", d, k)
		if k == 0 {
			name = "k=0_is_the_identity"
		}
		return ShiftCase{Name: name, D: d, K: k, Want: refShiftMatrix(d, k)}
	}
	return ShiftMatrixCases{
		Matrix: []ShiftCase{row(2, 1), row(8, 3), row(8, -4), row(6, -1), row(4, 0)},
		Moves: []ShiftPECase{{Name: "moves_PE(37)_to_PE(42)", D: 8, K: 5, Pos: 37,
			PE: refSinusoidal(37, 1, 8)[0], Want: refSinusoidal(42, 1, 8)[0]}},
	}
}

// ShiftMatrix returns exercise 5's checks of fn on cases.
func ShiftMatrix(fn func(d, k int) [][]float64, cases ShiftMatrixCases) *Exercise {
	var checks []Check
	for _, c := range cases.Matrix {
		call := fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", c.D, c.K)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			return compareTable(call, fn(c.D, c.K), c.Want, 1e-9, label("row"), label("column"),
				func(got [][]float64) *Hint { return diagShiftMatrix(got, c.D, c.K, fn) }, hintShiftFallback)
		}})
	}
	for _, c := range cases.Moves {
		matrixCall := fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", c.D, c.K)
		call := fmt.Sprintf("%s · PE(%d)", matrixCall, c.Pos)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			m := fn(c.D, c.K)
			if msg := shapeMsg(matrixCall, m, c.D, c.D); msg != "" {
				return fail(hintShiftFallback, msg)
			}
			got := matVec(m, c.PE)
			i := diffVec(got, c.Want, 1e-9)
			if i < 0 {
				return nil
			}
			hint := orElse(diagShiftMatrix(m, c.D, c.K, fn), hintShiftFallback)
			return fail(hint, append([]string{fmt.Sprintf("%s should be PE(%d):", call, c.Pos+c.K)}, vecDiffLines(got, c.Want, i, label("dimension"))...)...)
		}})
	}
	return newExercise(5, checks)
}
