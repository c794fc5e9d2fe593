package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 3, Slug: "sinusoidal", Title: "The sinusoidal table", Test: "TestSinusoidal",
			Funcs: []string{"Sinusoidal"}, Lesson: 2, Section: "Deriving the formula", Difficulty: catalog.Medium},
		Blurb: "write the table yourself, angles in float64.",
		Hints: Hints{
			Read: []Section{secDeriving, secWorked},
			Idea: []string{
				"Each pair of dimensions is one sine wave and its cosine at its own frequency, and the " +
					"frequencies fall geometrically from 1 to about 1/10000 across the pairs. Loop over pairs, not " +
					"over dimensions, and check yourself on the lesson's worked example.",
			},
			Formula: []string{
				"- Pair i = 0 … d/2−1 has ω_i = 10000^(−2i/d); PE(pos)[2i] = sin(pos·ω_i) and PE(pos)[2i+1] = " +
					"cos(pos·ω_i). At position 0 a row reads [0 1 0 1 …].",
				"- Row r of the table is the encoding of position start+r.",
				"- d = 4, position 1 gives [sin 1, cos 1, sin 0.01, cos 0.01] = [0.8415, 0.5403, 0.0100, " +
					"0.99995].",
			},
			Code: []string{
				"- Compute the exponent as `float64(2*i)/float64(d)`: `2*i/d` in integers is 0 for every pair.",
				"- Keep the angle in float64, `float64(start+r) * omega`: at position 1,000,000 float32 angles " +
					"are off by up to 0.03 rad.",
			},
		},
		Cases:  sinusoidalCases(),
		Checks: func(cases any) *Exercise { return Sinusoidal(nil, cases.(SinusoidalCases)) },
	})
}

var (
	hintSinusoidalSwapped = newHint("sinusoidal/sin and cos swapped", secDeriving,
		"sin and cos are swapped: even dimensions 2i hold sin(pos·ω_i) and odd dimensions 2i+1 hold cos(pos·ω_i); "+
			"at position 0 a row reads [0 1 0 1 …]")
	hintSinusoidalHalves = newHint("sinusoidal/[sin | cos] layout", secSinLayouts,
		"you wrote tensor2tensor's [sin | cos] layout, all sines in the first half and all cosines in the second. "+
			"The paper interleaves them: dimension 2i holds sin(pos·ω_i) and 2i+1 holds cos(pos·ω_i)")
	hintSinusoidalExponent = newHint("sinusoidal/exponent", secDeriving,
		"the frequency exponent is off: ω_i = 10000^(−2i/d) with i the pair index, the same for dimensions 2i and 2i+1. "+
			"You used the dimension index, or i/d instead of 2i/d")
	hintSinusoidalIntDiv = newHint("sinusoidal/integer division", secDeriving,
		"every pair turns at the same speed, ω_i = 1: the exponent 2i/d was computed with integer division, "+
			"which is 0 for every pair. Convert before dividing: float64(2*i)/float64(d)")
	hintSinusoidalStart = newHint("sinusoidal/start ignored", secDeriving,
		"your rows start at position 0: row r is the encoding of position start+r")
	hintSinusoidalFloat32 = newHint("sinusoidal/float32 angles", secFloat32Sin,
		"your values are right at small positions and drift at large ones: the angles are computed in float32. "+
			"A float32 holds about 7 digits, so pos·ω at position 1,000,000 is off by up to 0.03 rad; compute pos·ω in float64")
	hintSinusoidalFallback = generic("sinusoidal/fallback", secWorked,
		"work out row 1 of the d=4 table by hand: [sin 1, cos 1, sin 0.01, cos 0.01]")
)

// sinusoidalCells builds an n×d table from cell(pos, j).
func sinusoidalCells(start, n, d int, cell func(pos float64, j int) float64) [][]float64 {
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

// sinusoidalAngles returns the angle behind each entry of the table.
func sinusoidalAngles(start, n, d int) [][]float64 {
	return sinusoidalCells(start, n, d, func(pos float64, j int) float64 {
		return pos * math.Pow(10000, -float64(2*(j/2))/float64(d))
	})
}

// interleaved returns the interleaved table with pair i at frequency w(i).
func interleaved(start, n, d int, w func(i int) float64) [][]float64 {
	return sinusoidalCells(start, n, d, func(p float64, j int) float64 {
		if j%2 == 0 {
			return math.Sin(p * w(j/2))
		}
		return math.Cos(p * w(j/2))
	})
}

// diagSinusoidal names the idea behind a wrong table.
func diagSinusoidal(got [][]float64, start, n, d int) *Hint {
	pow := func(e float64) float64 { return math.Pow(10000, -e/float64(d)) }
	w := func(i int) float64 { return pow(float64(2 * i)) }
	t2t, err := posenc.SinusoidalTable[float64](posenc.NewSinusoidal(d).WithTensor2Tensor(), start, n)
	if err != nil {
		panic(err)
	}
	type v = variant[[][]float64]
	if hint := firstMatch(got, sameTable(1e-7),
		v{hintSinusoidalIntDiv, interleaved(start, n, d, func(int) float64 { return 1 })},
		v{hintSinusoidalSwapped, sinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j%2 == 0 {
				return math.Cos(p * w(j/2))
			}
			return math.Sin(p * w(j/2))
		})},
		v{hintSinusoidalHalves, sinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j < d/2 {
				return math.Sin(p * w(j))
			}
			return math.Cos(p * w(j-d/2))
		})},
		v{hintSinusoidalHalves, sinusoidalCells(start, n, d, func(p float64, j int) float64 {
			if j < d/2 {
				return math.Cos(p * w(j))
			}
			return math.Sin(p * w(j-d/2))
		})},
		v{hintSinusoidalHalves, posenc.Rows(t2t, d)},
		v{hintSinusoidalExponent, interleaved(start, n, d, func(i int) float64 { return pow(float64(i)) })},
		v{hintSinusoidalExponent, sinusoidalCells(start, n, d, func(p float64, j int) float64 { // j/d
			if j%2 == 0 {
				return math.Sin(p * pow(float64(j)))
			}
			return math.Cos(p * pow(float64(j)))
		})},
		v{hintSinusoidalExponent, interleaved(start, n, d, func(i int) float64 { return pow(float64(4 * i)) })},
		v{hintSinusoidalStart, refSinusoidal(0, n, d)},
	); hint != nil {
		return hint
	}
	if shapeMsg("", got, n, d) != "" {
		return nil
	}
	want, angles := refSinusoidal(start, n, d), sinusoidalAngles(start, n, d)
	for r := range got {
		if !looksFloat32(got[r], want[r], angles[r]) && diffVec(got[r], want[r], 1e-7) >= 0 {
			return nil
		}
	}
	return hintSinusoidalFloat32
}

// SinusoidalCase is one table: Sinusoidal(Start, N, D) must equal Want, to
// within Tol.
type SinusoidalCase struct {
	Name        string
	Start, N, D int
	Want        [][]float64
	Tol         float64
}

// SinusoidalCases is exercise 3's case table.
type SinusoidalCases struct {
	Table []SinusoidalCase `doc:"Sinusoidal(Start, N, D) must equal Want, to within Tol: row r is PE(Start+r), dimension 2i holding sin((Start+r)·ω_i) and 2i+1 cos((Start+r)·ω_i). The first row is lesson 2's worked example; the last starts at position 1,000,000, where float32 angles drift."`
}

func sinusoidalCases() SinusoidalCases {
	row := func(name string, start, n, d int, tol float64) SinusoidalCase {
		return SinusoidalCase{Name: name, Start: start, N: n, D: d, Want: refSinusoidal(start, n, d), Tol: tol}
	}
	return SinusoidalCases{Table: []SinusoidalCase{
		row("worked_example_d=4", 0, 3, 4, 1e-9),
		row("d=8_from_position_5", 5, 3, 8, 1e-9),
		row("d=6_three_pairs", 2, 4, 6, 1e-9),
		row("d=64_positions_40_to_43", 40, 4, 64, 1e-9),
		row("positions_near_1e6", 1_000_000, 3, 16, 1e-7),
	}}
}

// sinusoidalLabels label the rows and columns of a table in messages.
func sinusoidalLabels(start int) (row, col func(int) string) {
	row = func(r int) string { return fmt.Sprintf("row %d (position %d)", r, start+r) }
	col = func(j int) string {
		kind := "sin"
		if j%2 == 1 {
			kind = "cos"
		}
		return fmt.Sprintf("dimension %d (%s of pair %d)", j, kind, j/2)
	}
	return row, col
}

// Sinusoidal returns exercise 3's checks of fn on cases.
func Sinusoidal(fn func(start, n, d int) [][]float64, cases SinusoidalCases) *Exercise {
	var checks []Check
	for _, c := range cases.Table {
		call := fmt.Sprintf("Sinusoidal(start=%d, n=%d, d=%d)", c.Start, c.N, c.D)
		row, col := sinusoidalLabels(c.Start)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			return compareTable(call, fn(c.Start, c.N, c.D), c.Want, c.Tol, row, col,
				func(got [][]float64) *Hint { return diagSinusoidal(got, c.Start, c.N, c.D) }, hintSinusoidalFallback)
		}})
	}
	return newExercise(3, checks)
}
