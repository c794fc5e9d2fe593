package check

import (
	"fmt"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 8, Slug: "rope_halves", Title: "RoPE, half-split, and the layout converter", Test: "TestRoPEHalves",
			Funcs: []string{"RotateHalves", "InterleavedToHalves"}, Lesson: 4, Section: "Two layouts, one rotation", Difficulty: catalog.Medium},
		Blurb: "the `rotate_half` layout, and the permutation that moves a checkpoint from one layout to the other.",
		Hints: Hints{
			Read: []Section{secRoPELayouts, secConverting},
			Idea: []string{
				"It is the same rotation with the pairs laid out differently: Hugging Face's `rotate_half` pairs " +
					"each dimension of the first half with the one d/2 further on. Moving a checkpoint from one " +
					"layout to the other is a permutation of the dimensions.",
			},
			Formula: []string{
				"- In the half-split layout, pair i is (x[i], x[i+d/2]), with the same θ_i as in exercise 7.",
				"- The converter moves the pair at (2i, 2i+1) to (i, i+d/2): out[i] = v[2i] and out[i+d/2] = " +
					"v[2i+1]. For d = 8 it maps [0 1 2 3 4 5 6 7] to [0 2 4 6 1 3 5 7].",
			},
			Code: []string{
				"- Exercise 7's loop with `a, b := i, i+d/2`.",
				"- `out := make([]float64, len(v))`, then `out[i], out[i+d/2] = v[2*i], v[2*i+1]` for each pair, " +
					"even for d = 2, where nothing moves.",
			},
		},
		Cases:  ropeHalvesCases(),
		Checks: func(cases any) *Exercise { return RoPEHalves(nil, nil, cases.(RoPEHalvesCases)) },
	})
}

var (
	hintRoPEInterleavedForHalves = newHint("rope/interleaved instead of halves", secRoPELayouts,
		"you rotated the interleaved pairs (x[2i], x[2i+1]); the half-split layout pairs x[i] with x[i+d/2], "+
			"as Hugging Face's rotate_half does")
	hintConvertInverse = newHint("rope/converter inverted", secConverting,
		"your converter goes the other way, from halves to interleaved: the pair at interleaved dimensions (2i, 2i+1) "+
			"must land at (i, i+d/2), so out[i] = v[2i] and out[i+d/2] = v[2i+1]")
	hintConvertMutates = newHint("rope/converter mutates input", Section{},
		"your converter changed v, or returned v itself (for d = 2, where nothing moves?): write the permuted "+
			"values into a new slice on every path")
	hintHalvesFallback = generic("rope/halves fallback", secRoPELayouts,
		"rotate each pair (x[i], x[i+d/2]) by pos·θ_i with θ_i = base^(−2i/d)")
	hintConvertFallback = generic("rope/converter fallback", secConverting,
		"out[i] = v[2i] and out[i+d/2] = v[2i+1]")
	hintCommuteFallback = generic("rope/convert then rotate fallback", secConverting,
		"both layouts rotate the same pairs by the same angles, so converting first and rotating in halves "+
			"must give the converted interleaved rotation")
)

// permuteLayout applies posenc's layout permutation to v.
func permuteLayout(v []float64, from, to posenc.Layout) []float64 {
	out := make([]float64, len(v))
	for j, p := range layoutPerm(len(v), from, to) {
		out[j] = v[p]
	}
	return out
}

var halvesRoPE = ropeLayout{
	fnName: "RotateHalves", layout: posenc.Halves, other: posenc.Interleaved,
	otherHint: hintRoPEInterleavedForHalves, fallback: hintHalvesFallback,
	args: argHints{hintRoPEMutates, hintRoPEMutates},
}

// ConvertCase is one call of the layout converter: InterleavedToHalves(V)
// must return Want exactly.
type ConvertCase struct {
	Name string
	V    []float64
	Want []float64
}

// RotateConvertedCase checks that the two layouts rotate the same pairs:
// RotateHalves(InterleavedToHalves(X), Pos, Base) must equal Want, the
// interleaved rotation of X, converted.
type RotateConvertedCase struct {
	Name string
	X    []float64
	Pos  int
	Base float64
	Want []float64
}

// RoPEHalvesCases is exercise 8's case table.
type RoPEHalvesCases struct {
	RoPECases
	Convert         []ConvertCase         `doc:"InterleavedToHalves(V) must equal Want: the pair at (2i, 2i+1) moves to (i, i+d/2)."`
	RotateConverted []RotateConvertedCase `doc:"RotateHalves(InterleavedToHalves(X), Pos, Base) must equal Want, the interleaved rotation of X converted: both layouts rotate the same pairs by the same angles."`
}

func ropeHalvesCases() RoPEHalvesCases {
	conv := func(d int) ConvertCase {
		v := make([]float64, d)
		for i := range v {
			v[i] = float64(i)
		}
		return ConvertCase{Name: fmt.Sprintf("convert_d=%d", d), V: v, Want: permuteLayout(v, posenc.Interleaved, posenc.Halves)}
	}
	x := randVec(8, 51)
	return RoPEHalvesCases{
		RoPECases: ropeCases(posenc.Halves),
		Convert:   []ConvertCase{conv(8), conv(6), conv(2)},
		RotateConverted: []RotateConvertedCase{{Name: "convert_then_rotate", X: x, Pos: 9, Base: 10000,
			Want: permuteLayout(refRoPE(x, 9, 10000, posenc.Interleaved), posenc.Interleaved, posenc.Halves)}},
	}
}

var convertArgs = argHints{hintConvertMutates, hintConvertMutates}

// convertCheck is a check of one conversion row.
func convertCheck(convert func(v []float64) []float64, c ConvertCase) Check {
	call := fmt.Sprintf("InterleavedToHalves(%s)", fmtVec(c.V, 0))
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		v := cloneVec(c.V)
		got := convert(v)
		if f := compareVec(call, got, c.Want, 0, label("dimension"), func(got []float64) *Hint { return diagConvert(got, c.V) }, hintConvertFallback); f != nil {
			return f
		}
		return convertArgs.check(call, got, arg{"v", v, c.V})
	}}
}

// diagConvert names the idea behind a wrong conversion.
func diagConvert(got, v []float64) *Hint {
	return firstMatch(got, sameVec(0), variant[[]float64]{hintConvertInverse, permuteLayout(v, posenc.Halves, posenc.Interleaved)})
}

// rotateConvertedCheck is a check that converting and rotating commute.
func rotateConvertedCheck(rotate func(x []float64, pos int, base float64) []float64, convert func(v []float64) []float64, c RotateConvertedCase) Check {
	call := fmt.Sprintf("RotateHalves(InterleavedToHalves(x), %d, %g)", c.Pos, c.Base)
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		return compareVec(call, rotate(convert(cloneVec(c.X)), c.Pos, c.Base), c.Want, 1e-9, label("dimension"), nil, hintCommuteFallback)
	}}
}

// RoPEHalves returns exercise 8's checks of rotate and convert on cases.
func RoPEHalves(rotate func(x []float64, pos int, base float64) []float64, convert func(v []float64) []float64, cases RoPEHalvesCases) *Exercise {
	checks := halvesRoPE.checks(rotate, cases.RoPECases)
	for _, c := range cases.Convert {
		checks = append(checks, convertCheck(convert, c))
	}
	for _, c := range cases.RotateConverted {
		checks = append(checks, rotateConvertedCheck(rotate, convert, c))
	}
	return newExercise(8, checks)
}
