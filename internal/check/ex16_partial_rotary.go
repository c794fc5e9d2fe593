package check

import (
	"fmt"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 16, Slug: "partial_rotary", Title: "Partial rotary: rotate only the first dimensions", Test: "TestPartialRotary",
			Funcs: []string{"RotatePartial"}, Lesson: 4, Section: "Positions are just indices", Difficulty: catalog.Easy, Uses: []int{7}},
		Blurb: "GPT-J's `rotary_dim`: the first dimensions are a head of their own, the others pass unchanged.",
		Hints: Hints{
			Read: []Section{secIndices, secRoPEFreqs},
			Idea: []string{
				"GPT-J rotates only the first rotary_dim dimensions of each head and passes the others through " +
					"unchanged: those first dimensions form a head of their own, with their own frequencies.",
			},
			Formula: []string{
				"- The first rotaryDim dimensions rotate as a head of rotaryDim dimensions, θ_i = " +
					"base^(−2i/rotaryDim); dimensions rotaryDim … d−1 are copied as they are.",
				"- An odd rotaryDim (a pair cut in half), a negative one, or one larger than the head is " +
					"refused: nil.",
			},
			Code: []string{
				"- `copy(out, RotateInterleaved(x[:rotaryDim], pos, base))` and `copy(out[rotaryDim:], " +
					"x[rotaryDim:])`, into a new slice, even when rotaryDim is 0.",
			},
		},
		Cases:  partialRotaryCases(),
		Checks: func(cases any) *Exercise { return PartialRotary(nil, cases.(PartialRotaryCases)) },
	})
}

var (
	hintPartialHeadDim = newHint("partial rotary/frequencies from d", secIndices,
		"the rotating dimensions form a head of their own: their frequencies are base^(−2i/rotaryDim), as if the "+
			"head had rotaryDim dimensions, not base^(−2i/d) with the whole head's size")
	hintPartialWhichDims = newHint("partial rotary/last dimensions", secIndices,
		"it is the first rotaryDim dimensions that rotate, x[0 : rotaryDim]; the others pass through")
	hintPartialTail = newHint("partial rotary/tail lost", secIndices,
		"dimensions rotaryDim … d−1 pass through unchanged: copy them into the result, which has all d dimensions")
	hintPartialAll = newHint("partial rotary/rotated everything", secIndices,
		"you rotated the whole head: only the first rotaryDim dimensions rotate")
	hintPartialHalves = newHint("partial rotary/half-split", secRoPELayouts,
		"you rotated the rotary part in the half-split layout (GPT-NeoX); GPT-J's rotary_dim, which this exercise "+
			"follows, pairs neighbours (x[2i], x[2i+1]) as in exercise 7")
	hintPartialInvalid = newHint("partial rotary/invalid rotaryDim", secIndices,
		"an odd rotaryDim (a pair cut in half), a negative one, or one larger than the head cannot be rotated: "+
			"return nil for it")
	hintPartialMutates = newHint("partial rotary/mutates input", Section{},
		"your function changed x, or returned x itself (when rotaryDim is 0, or is the whole head?): return a new "+
			"slice on every path, and leave x as it was")
	hintPartialFallback = generic("partial rotary/fallback", secIndices,
		"rotate x[:rotaryDim] as RotateInterleaved would rotate a head of that size, and copy the rest")
)

// refPartial is posenc's partial rotation.
func refPartial(x []float64, pos int, base float64, rot int) []float64 {
	out := make([]float64, len(x))
	r := posenc.NewRoPE(len(x)).WithBase(base).WithRotaryDim(rot)
	if rot == 0 {
		return cloneVec(x)
	}
	if err := posenc.RotateTo(out, x, r, pos); err != nil {
		panic(err)
	}
	return out
}

// partialWith rotates x[from : from+rot] with frequencies freq(i) in layout,
// copying the rest when keepTail (zeros otherwise).
func partialWith(x []float64, pos int, from, rot int, freq func(i int) float64, layout posenc.Layout, keepTail bool) []float64 {
	out := make([]float64, len(x))
	if keepTail {
		copy(out, x)
	}
	copy(out[from:], rotateWith(x[from:from+rot], pos, layout, 1, freq, false))
	return out
}

func diagPartial(got, x []float64, pos int, base float64, rot int) *Hint {
	d := len(x)
	own, whole, one := ropeFreq(rot, base), ropeFreq(d, base), func(int) float64 { return 1 }
	type v = variant[[]float64]
	vs := []v{
		{hintPartialHeadDim, partialWith(x, pos, 0, rot, whole, posenc.Interleaved, true)},
		{hintPartialTail, partialWith(x, pos, 0, rot, own, posenc.Interleaved, false)},
		{hintPartialTail, partialWith(x, pos, 0, rot, own, posenc.Interleaved, false)[:rot]},
		{hintPartialHalves, partialWith(x, pos, 0, rot, own, posenc.Halves, true)},
		{hintPartialAll, refRoPE(x, pos, base, posenc.Interleaved)},
		{hintRoPEIntDiv, partialWith(x, pos, 0, rot, one, posenc.Interleaved, true)}, // 2i/rotaryDim in integers
	}
	if rot < d {
		vs = append(vs, v{hintPartialWhichDims, partialWith(x, pos, d-rot, rot, own, posenc.Interleaved, true)},
			v{hintPartialWhichDims, partialWith(x, pos, d-rot, rot, whole, posenc.Interleaved, true)})
	}
	return firstMatch(got, sameVec(1e-9), vs...)
}

// PartialCase is one call: RotatePartial(X, Pos, Base, RotaryDim) must
// equal Want, to 1e-9; Want is nil for a RotaryDim that cannot be rotated.
type PartialCase struct {
	Name      string
	X         []float64
	Pos       int
	Base      float64
	RotaryDim int
	Want      []float64
}

// PartialRotaryCases is exercise 16's case table.
type PartialRotaryCases struct {
	Rotate []PartialCase `doc:"RotatePartial(X, Pos, Base, RotaryDim) must equal Want, to 1e-9: X[:RotaryDim] rotated as a head of RotaryDim dimensions, the rest copied; nil for an odd, negative or too large RotaryDim."`
}

func partialRotaryCases() PartialRotaryCases {
	row := func(name string, x []float64, pos int, base float64, rot int) PartialCase {
		return PartialCase{name, x, pos, base, rot, refPartial(x, pos, base, rot)}
	}
	invalid := func(name string, d, rot int) PartialCase {
		return PartialCase{name, randVec(d, 83), 3, 10000, rot, nil}
	}
	return PartialRotaryCases{Rotate: []PartialCase{
		row("rotary_pct_0.25_d=16", randVec(16, 81), 5, 10000, 4),
		row("rotary_dim_64_of_256", randVec(256, 82), 100, 10000, 64),
		row("three_pairs_of_ten_dims", randVec(10, 84), 7, 500000, 6),
		row("all_dims_rotate", randVec(8, 85), 3, 10000, 8),
		row("rotary_dim_0_rotates_nothing", randVec(6, 86), 9, 10000, 0),
		invalid("odd_rotary_dim_is_refused", 8, 5),
		invalid("rotary_dim_past_the_head_is_refused", 8, 12),
		invalid("negative_rotary_dim_is_refused", 8, -2),
	}}
}

var partialArgs = argHints{hintPartialMutates, hintPartialMutates}

// PartialRotary returns exercise 16's checks of fn on cases.
func PartialRotary(fn func(x []float64, pos int, base float64, rotaryDim int) []float64, cases PartialRotaryCases) *Exercise {
	var checks []Check
	for _, c := range cases.Rotate {
		call := fmt.Sprintf("RotatePartial(x of length %d, pos=%d, base=%g, rotaryDim=%d)", len(c.X), c.Pos, c.Base, c.RotaryDim)
		var panicHint *Hint
		if c.Want == nil {
			panicHint = hintPartialInvalid
		}
		checks = append(checks, Check{Name: c.Name, Call: call, PanicHint: panicHint, Run: func() *Failure {
			x := cloneVec(c.X)
			got := fn(x, c.Pos, c.Base, c.RotaryDim)
			if c.Want == nil {
				if f := wantNil(call, got, hintPartialInvalid); f != nil {
					return f
				}
			} else if f := compareVec(call, got, c.Want, 1e-9, label("dimension"),
				func(got []float64) *Hint { return diagPartial(got, c.X, c.Pos, c.Base, c.RotaryDim) }, hintPartialFallback); f != nil {
				return f
			}
			return partialArgs.check(call, got, arg{"x", x, c.X})
		}})
	}
	return newExercise(16, checks)
}
