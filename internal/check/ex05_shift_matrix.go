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
		Hints: []string{
			"- Expand sin((p+k)ω) and cos((p+k)ω) with the angle-addition formulas and read off the coefficients " +
				"of sin(pω) and cos(pω): those are the two rows of the 2×2 block of pair i, at rows and columns 2i, " +
				"2i+1.",
			"- With the pair ordered (sin, cos), the block is [[cos kω, sin kω], [−sin kω, cos kω]], the " +
				"transpose of the rotation matrix you may know by heart. Every other entry is 0.",
			"- Use k as it is, negative or not: no absolute value, no loop that counts up to k. Check yourself: " +
				"T_k·PE(37) must equal PE(37+k).",
		},
		Checks: func() *Exercise { return ShiftMatrix(nil) },
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

// ShiftMatrix returns exercise 5's checks of fn.
func ShiftMatrix(fn func(d, k int) [][]float64) *Exercise {
	check := func(name string, d, k int) Case {
		return tableCheck{
			name: name, call: fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", d, k),
			got:  func() [][]float64 { return fn(d, k) },
			want: refShiftMatrix(d, k), tol: 1e-9,
			row: label("row"), col: label("column"),
			diag:     func(got [][]float64) *Hint { return diagShiftMatrix(got, d, k, fn) },
			fallback: hintShiftFallback,
		}.check()
	}
	const d, k, pos = 8, 5, 37
	call := fmt.Sprintf("ShiftMatrix(d=%d, k=%d) · PE(%d)", d, k, pos)
	return newExercise(5, []Case{
		check("d=2_k=1", 2, 1),
		check("d=8_k=3", 8, 3),
		check("d=8_k=-4", 8, -4),
		check("d=6_k=-1", 6, -1),
		check("k=0_is_the_identity", 4, 0),
		{Name: "moves_PE(37)_to_PE(42)", Call: call, Run: func() *Failure {
			m := fn(d, k)
			if msg := shapeMsg(fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", d, k), m, d, d); msg != "" {
				return fail(hintShiftFallback, msg)
			}
			got, want := matVec(m, refSinusoidal(pos, 1, d)[0]), refSinusoidal(pos+k, 1, d)[0]
			i := diffVec(got, want, 1e-9)
			if i < 0 {
				return nil
			}
			hint := orElse(diagShiftMatrix(m, d, k, fn), hintShiftFallback)
			return fail(hint, append([]string{call + " should be PE(42):"}, vecDiffLines(got, want, i, label("dimension"))...)...)
		}},
	})
}
