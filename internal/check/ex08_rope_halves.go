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
		Hints: []string{
			"- In the half-split layout, pair i is (x[i], x[i+d/2]), with the same θ_i as in exercise 7.",
			"- The converter moves the pair at (2i, 2i+1) to (i, i+d/2): out[i] = v[2i], out[i+d/2] = v[2i+1]. " +
				"For d = 8 it maps [0 1 2 3 4 5 6 7] to [0 2 4 6 1 3 5 7].",
		},
		Checks: func() *Exercise { return RoPEHalves(nil, nil) },
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
		"your converter changed v: write the permuted values into a new slice")
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
}

// RoPEHalves returns exercise 8's checks of rotate and convert.
func RoPEHalves(rotate func(x []float64, pos int, base float64) []float64, convert func(v []float64) []float64) *Exercise {
	cases := halvesRoPE.cases(rotate)
	conv := func(d int) Case {
		v := make([]float64, d)
		for i := range v {
			v[i] = float64(i)
		}
		call := fmt.Sprintf("InterleavedToHalves(%s)", fmtVec(v, 0))
		return vecCheck{
			name: fmt.Sprintf("convert_d=%d", d), call: call,
			got:  func() []float64 { return convert(cloneVec(v)) },
			want: permuteLayout(v, posenc.Interleaved, posenc.Halves), tol: 0, label: label("dimension"),
			diag: func(got []float64) *Hint {
				return firstMatch(got, sameVec(0),
					variant[[]float64]{hintConvertInverse, permuteLayout(v, posenc.Halves, posenc.Interleaved)})
			},
			fallback: hintConvertFallback,
		}.check()
	}
	x := randVec(8, 51)
	const pos, base = 9, 10000.0
	commute := vecCheck{
		name: "convert_then_rotate", call: "RotateHalves(InterleavedToHalves(x), 9, 10000)",
		got:  func() []float64 { return rotate(convert(cloneVec(x)), pos, base) },
		want: permuteLayout(refRoPE(x, pos, base, posenc.Interleaved), posenc.Interleaved, posenc.Halves),
		tol:  1e-9, label: label("dimension"), fallback: hintCommuteFallback,
	}.check()
	return newExercise(8, append(cases, conv(8), conv(6), conv(2),
		unchangedVec("converter_leaves_v_alone", "InterleavedToHalves(v)", x, func(in []float64) { convert(in) }, hintConvertMutates),
		commute))
}
