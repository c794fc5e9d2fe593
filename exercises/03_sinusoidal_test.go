package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exSinusoidal = exInfo{file: "exercises/03_sinusoidal.go", funcs: "Sinusoidal", lesson: "lesson 2, sinusoidal encodings"}

func TestSinusoidal(t *testing.T) { runExercise(t, exSinusoidal, sinusoidalCases(Sinusoidal)) }

var (
	hintSinusoidalSwapped = newHint("sinusoidal/sin and cos swapped",
		"sin and cos are swapped: even dimensions 2i hold sin(pos·ω_i) and odd dimensions 2i+1 hold cos(pos·ω_i); "+
			"at position 0 a row reads [0 1 0 1 …] (lesson 2, “Deriving the formula”).")
	hintSinusoidalHalves = newHint("sinusoidal/[sin | cos] layout",
		"you wrote tensor2tensor's [sin | cos] layout, all sines in the first half and all cosines in the second. "+
			"The paper interleaves them: dimension 2i holds sin(pos·ω_i) and 2i+1 holds cos(pos·ω_i) (lesson 2, “Two layouts: interleaved and [sin | cos]”).")
	hintSinusoidalExponent = newHint("sinusoidal/exponent",
		"the frequency exponent is off: ω_i = 10000^(−2i/d) with i the pair index, the same for dimensions 2i and 2i+1. "+
			"You used the dimension index, or i/d instead of 2i/d (lesson 2, “Deriving the formula”).")
	hintSinusoidalStart = newHint("sinusoidal/start ignored",
		"your rows start at position 0: row r is the encoding of position start+r (lesson 2, “Deriving the formula”).")
)

// refSinusoidalCells builds an n×d table from cell(pos, j).
func refSinusoidalCells(start, n, d int, cell func(pos float64, j int) float64) [][]float64 {
	t := make([][]float64, n)
	for r := range t {
		t[r] = make([]float64, d)
		for j := range d {
			t[r][j] = cell(float64(start+r), j)
		}
	}
	return t
}

// refSinusoidal is posenc's table, in float64, as rows.
func refSinusoidal(start, n, d int) [][]float64 {
	flat, err := posenc.SinusoidalTable[float64](posenc.NewSinusoidal(d), start, n)
	if err != nil {
		panic(err)
	}
	return posenc.Rows(flat, d)
}

// refSinusoidalAngles returns the angle behind each entry of the table.
func refSinusoidalAngles(start, n, d int) [][]float64 {
	return refSinusoidalCells(start, n, d, func(pos float64, j int) float64 {
		return pos * math.Pow(10000, -float64(2*(j/2))/float64(d))
	})
}

// diagSinusoidal names the idea behind a wrong table.
func diagSinusoidal(got [][]float64, start, n, d int) string {
	pow := func(e float64) float64 { return math.Pow(10000, -e/float64(d)) }
	w := func(i int) float64 { return pow(float64(2 * i)) }
	t2t, err := posenc.SinusoidalTable[float64](posenc.NewSinusoidal(d).WithTensor2Tensor(), start, n)
	if err != nil {
		panic(err)
	}
	type v = exVariant[[][]float64]
	if hint := diagFirst(got, exSameTable(1e-7),
		v{hintSinusoidalSwapped, refSinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j%2 == 0 {
				return math.Cos(p * w(j/2))
			}
			return math.Sin(p * w(j/2))
		})},
		v{hintSinusoidalHalves, refSinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j < d/2 {
				return math.Sin(p * w(j))
			}
			return math.Cos(p * w(j-d/2))
		})},
		v{hintSinusoidalHalves, refSinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j < d/2 {
				return math.Cos(p * w(j))
			}
			return math.Sin(p * w(j-d/2))
		})},
		v{hintSinusoidalHalves, posenc.Rows(t2t, d)},
		v{hintSinusoidalExponent, refSinusoidalCells(start, n, d, func(p float64, j int) float64 { // i/d
			if j%2 == 0 {
				return math.Sin(p * pow(float64(j/2)))
			}
			return math.Cos(p * pow(float64(j/2)))
		})},
		v{hintSinusoidalExponent, refSinusoidalCells(start, n, d, func(p float64, j int) float64 { // j/d
			if j%2 == 0 {
				return math.Sin(p * pow(float64(j)))
			}
			return math.Cos(p * pow(float64(j)))
		})},
		v{hintSinusoidalExponent, refSinusoidalCells(start, n, d, func(p float64, j int) float64 { // 2j/d
			if j%2 == 0 {
				return math.Sin(p * pow(float64(2*j)))
			}
			return math.Cos(p * pow(float64(2*j)))
		})},
		v{hintSinusoidalStart, refSinusoidal(0, n, d)},
	); hint != "" {
		return hint
	}
	if checkShape("", got, n, d) != "" {
		return ""
	}
	want, angles := refSinusoidal(start, n, d), refSinusoidalAngles(start, n, d)
	for r := range got {
		if !diagFloat32(got[r], want[r], angles[r]) && exDiffVec(got[r], want[r], 1e-7) >= 0 {
			return ""
		}
	}
	return hintFloat32
}

func sinusoidalCases(fn func(start, n, d int) [][]float64) []exCase {
	check := func(name string, start, n, d int, tol float64) exCase {
		return exTableCheck{
			name: name, call: fmt.Sprintf("Sinusoidal(start=%d, n=%d, d=%d)", start, n, d),
			got:  func() [][]float64 { return fn(start, n, d) },
			want: refSinusoidal(start, n, d), tol: tol,
			row: func(r int) string { return fmt.Sprintf("row %d (position %d)", r, start+r) },
			col: func(j int) string {
				kind := "sin"
				if j%2 == 1 {
					kind = "cos"
				}
				return fmt.Sprintf("dimension %d (%s of pair %d)", j, kind, j/2)
			},
			diag:     func(got [][]float64) string { return diagSinusoidal(got, start, n, d) },
			fallback: "work out row 1 of the d=4 table by hand: [sin 1, cos 1, sin 0.01, cos 0.01] (lesson 2, “Worked examples, by hand and by posenc”).",
		}.exCase()
	}
	return []exCase{
		check("worked_example_d=4", 0, 3, 4, 1e-9),
		check("d=8_from_position_5", 5, 3, 8, 1e-9),
		check("d=64_first_50_positions", 0, 50, 64, 1e-9),
		check("positions_near_1e6", 1_000_000, 3, 16, 1e-7),
	}
}
