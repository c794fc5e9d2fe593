package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exShiftMatrix = exInfo{file: "exercises/05_shift_matrix.go", funcs: "ShiftMatrix", lesson: "lesson 2, sinusoidal encodings"}

func TestShiftMatrix(t *testing.T) { runExercise(t, exShiftMatrix, shiftMatrixCases(ShiftMatrix)) }

var (
	hintShiftBackwards = newHint("shift matrix/transposed",
		"your matrix is T_(−k), the transpose: it moves positions backwards. With the pair ordered (sin, cos), "+
			"sin((p+k)ω) = sin(pω)·cos(kω) + cos(pω)·sin(kω), so the sin row of each block is [cos kω, sin kω] and the cos row "+
			"is [−sin kω, cos kω] (lesson 2, “Shifting is a rotation”).")
	hintShiftOneStep = newHint("shift matrix/ignores k",
		"your matrix shifts by one position whatever k is: the block rotates by k·ω_i, not ω_i "+
			"(lesson 2, “Shifting is a rotation”).")
	hintShiftExponent = newHint("shift matrix/exponent",
		"the blocks rotate at the wrong frequencies: pair i turns by k·ω_i with ω_i = 10000^(−2i/d), "+
			"the frequencies of exercise 3 (lesson 2, “Deriving the formula”).")
)

// refShiftMatrix is posenc's T_k as rows.
func refShiftMatrix(d, k int) [][]float64 {
	m, err := posenc.ShiftMatrix(posenc.NewSinusoidal(d), k)
	if err != nil {
		panic(err)
	}
	return posenc.Rows(m, d)
}

func refTranspose(m [][]float64) [][]float64 {
	t := exCloneTable(m)
	for i := range m {
		for j := range m[i] {
			t[i][j] = m[j][i]
		}
	}
	return t
}

// refShiftMatrixFreq builds T_k with pair i turning by k·freq(i).
func refShiftMatrixFreq(d, k int, freq func(i int) float64) [][]float64 {
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

func diagShiftMatrix(got [][]float64, d, k int) string {
	type v = exVariant[[][]float64]
	vs := []v{
		{hintShiftBackwards, refTranspose(refShiftMatrix(d, k))},
		{hintShiftExponent, refShiftMatrixFreq(d, k, func(i int) float64 { return math.Pow(10000, -float64(i)/float64(d)) })},
		{hintShiftExponent, refShiftMatrixFreq(d, k, func(i int) float64 { return math.Pow(10000, -float64(4*i)/float64(d)) })},
	}
	if k != 1 {
		vs = append(vs, v{hintShiftOneStep, refShiftMatrix(d, 1)}, v{hintShiftOneStep, refShiftMatrix(d, -1)})
	}
	return diagFirst(got, exSameTable(1e-9), vs...)
}

// refMatVec returns m·x.
func refMatVec(m [][]float64, x []float64) []float64 {
	out := make([]float64, len(m))
	for i := range m {
		for j := range x {
			out[i] += m[i][j] * x[j]
		}
	}
	return out
}

func shiftMatrixCases(fn func(d, k int) [][]float64) []exCase {
	const fallback = "each 2×2 block is [[cos kω_i, sin kω_i], [−sin kω_i, cos kω_i]] at rows and columns 2i, 2i+1 " +
		"(lesson 2, “Shifting is a rotation”)."
	check := func(name string, d, k int) exCase {
		return exTableCheck{
			name: name, call: fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", d, k),
			got:  func() [][]float64 { return fn(d, k) },
			want: refShiftMatrix(d, k), tol: 1e-9,
			row: exLabel("row"), col: exLabel("column"),
			diag:     func(got [][]float64) string { return diagShiftMatrix(got, d, k) },
			fallback: fallback,
		}.exCase()
	}
	const d, k, pos = 8, 5, 37
	call := fmt.Sprintf("ShiftMatrix(d=%d, k=%d) · PE(%d)", d, k, pos)
	return []exCase{
		check("d=2_k=1", 2, 1),
		check("d=8_k=3", 8, 3),
		check("d=8_k=-4", 8, -4),
		{name: "moves_PE(37)_to_PE(42)", call: call, run: func() string {
			m := fn(d, k)
			if msg := checkShape(fmt.Sprintf("ShiftMatrix(d=%d, k=%d)", d, k), m, d, d); msg != "" {
				return exMsg("", fallback, msg)
			}
			got, want := refMatVec(m, refSinusoidal(pos, 1, d)[0]), refSinusoidal(pos+k, 1, d)[0]
			i := exDiffVec(got, want, 1e-9)
			if i < 0 {
				return ""
			}
			hint := diagFirst(got, exSameVec(1e-9), exVariant[[]float64]{hintShiftBackwards, refSinusoidal(pos-k, 1, d)[0]})
			return exMsg(hint, fallback, append([]string{call + " should be PE(42):"},
				exVecDiffLines(got, want, i, exLabel("dimension"))...)...)
		}},
	}
}
