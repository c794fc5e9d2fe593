package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 24, Slug: "proportional_rope", Title: "p-RoPE's frequencies", Test: "TestProportionalRoPE",
			Funcs: []string{"ProportionalInvFreq"}, Lesson: 9, Section: secPRoPE.Title, Difficulty: catalog.Easy},
		Blurb: "Gemma 4's global layers: full RoPE's fastest frequencies for a fraction of the pairs, frequency 0 for " +
			"the rest.",
		Hints: Hints{
			Read: []Section{secPRoPE},
			Idea: []string{
				"p-RoPE rotates only the fastest fraction of a head's pairs, with exactly the frequencies full RoPE " +
					"gives them, and stops the rest: their frequency is 0, so they carry no position at all.",
			},
			Formula: []string{
				"- headDim/2 frequencies in all: base^(−2i/headDim) for i < ⌊proportion·headDim/2⌋, 0 for the " +
					"other pairs. The denominator is the whole head, not the rotating width.",
				"- Gemma 4's global layers: headDim 512, proportion 0.25, base 10⁶: 64 of 256 pairs rotate.",
			},
			Code: []string{
				"- `make([]float64, headDim/2)` already holds the zeros; `int(math.Floor(…))`, not `math.Round`; the " +
					"exponent in float64.",
			},
		},
		Cases:  proportionalCases(),
		Checks: func(cases any) *Exercise { return ProportionalRoPE(nil, cases.(ProportionalRoPECases)) },
	})
}

// The lesson section the exercise and its hints cite.
var secPRoPE = Section{9, "p-RoPE is not partial rotary"}

var (
	hintPropDenominator = newHint("p-RoPE/denominator", secPRoPE,
		"p-RoPE keeps full RoPE's frequencies, base^(−2i/headDim), with the whole head as the denominator; dividing "+
			"by the rotating width gives partial rotary's spectrum, which reaches much lower frequencies")
	hintPropRound = newHint("p-RoPE/round", secPRoPE,
		"the number of rotating pairs is rounded down, ⌊proportion·headDim/2⌋ (transformers' int(…)): 0.3 of 12 "+
			"dimensions is 1.8 pairs, so 1 rotates, not 2")
	hintPropLength = newHint("p-RoPE/only rotating", secPRoPE,
		"return a frequency for every pair, headDim/2 values: the pairs that do not rotate are there too, with "+
			"frequency 0")
	hintPropIntExponent = newHint("p-RoPE/integer exponent", secPRoPE,
		"the exponent 2i/headDim was computed with integer division, so it is 0 and every rotating pair got "+
			"frequency 1: convert to float64 before dividing")
	hintPropNoTwo = newHint("p-RoPE/exponent without 2", secPRoPE,
		"pair i's frequency is base^(−2i/headDim): the exponent counts dimensions, two per pair")
	hintPropOfDims = newHint("p-RoPE/fraction of dimensions as pairs", secPRoPE,
		"proportion is a fraction of the pairs (of headDim/2), or equally of the dimensions: ⌊proportion·headDim/2⌋ "+
			"pairs rotate, not ⌊proportion·headDim⌋")
	hintPropSlow = newHint("p-RoPE/keeps the slow pairs", secPRoPE,
		"p-RoPE keeps the fastest pairs, the first ones, and stops the slowest: the rotating pairs are 0 … k−1, "+
			"the zeros come after them")
	hintPropIntProportion = newHint("p-RoPE/proportion made an integer", secPRoPE,
		"int(proportion) is 0 for every proportion below 1: multiply first, then round down, "+
			"int(math.Floor(proportion * float64(headDim/2)))")
	hintPropExponentSign = newHint("p-RoPE/exponent sign", secPRoPE,
		"the exponent is negative, ω_i = base^(−2i/headDim): the frequencies fall from 1 at pair 0, they do not "+
			"grow")
	hintPropFallback = generic("p-RoPE/fallback", secPRoPE,
		"return headDim/2 frequencies: base^(−2i/headDim) for i < ⌊proportion·headDim/2⌋, 0 for the other pairs")
)

// refProportional is posenc's p-RoPE frequencies.
func refProportional(d int, p, base float64) []float64 {
	f, err := posenc.NewRoPE(d).WithBase(base).WithScaling(posenc.ProportionalScaling(p)).InvFreq()
	if err != nil {
		panic(err)
	}
	return f
}

// proportionalWith builds a p-RoPE-like answer: k pairs rotate, starting at
// pair from, with frequencies base^(−exp(i)) over a denominator den; the
// result has n values.
func proportionalWith(n, k, from int, base float64, exp func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := from; i < min(from+k, n); i++ {
		out[i] = math.Pow(base, -exp(i))
	}
	return out
}

func diagProportional(got []float64, d int, p, base float64) *Hint {
	half := d / 2
	k := int(math.Floor(p * float64(half)))
	full := func(i int) float64 { return float64(2*i) / float64(d) }
	type v = variant[[]float64]
	vs := []v{
		{hintPropRound, proportionalWith(half, int(math.Round(p*float64(half))), 0, base, full)},
		{hintPropOfDims, proportionalWith(half, int(math.Floor(p*float64(d))), 0, base, full)},
		{hintPropLength, proportionalWith(k, k, 0, base, full)},
		{hintPropSlow, proportionalWith(half, k, half-k, base, full)},
		{hintPropIntExponent, proportionalWith(half, k, 0, base, func(i int) float64 { return float64(2 * i / d) })},
		{hintPropNoTwo, proportionalWith(half, k, 0, base, func(i int) float64 { return float64(i) / float64(d) })},
		{hintPropIntProportion, proportionalWith(half, int(p)*half, 0, base, full)},
		{hintPropExponentSign, proportionalWith(half, k, 0, base, func(i int) float64 { return -full(i) })},
	}
	if k > 0 {
		vs = append(vs, v{hintPropDenominator, proportionalWith(half, k, 0, base, func(i int) float64 { return float64(2*i) / float64(2*k) })})
	}
	return uniqueMatch(got, sameVec(1e-9), vs...)
}

// ProportionalCase is one call: ProportionalInvFreq(HeadDim, Proportion,
// Base) must equal Want, to 1e-9.
type ProportionalCase struct {
	Name       string
	HeadDim    int
	Proportion float64
	Base       float64
	Want       []float64
}

// ProportionalRoPECases is exercise 24's case table.
type ProportionalRoPECases struct {
	Freqs []ProportionalCase `doc:"ProportionalInvFreq(HeadDim, Proportion, Base) must equal Want, to 1e-9: HeadDim/2 frequencies, Base^(−2i/HeadDim) for the first ⌊Proportion·HeadDim/2⌋ pairs and 0 for the rest."`
}

func proportionalCases() ProportionalRoPECases {
	row := func(name string, d int, p, base float64) ProportionalCase {
		return ProportionalCase{name, d, p, base, refProportional(d, p, base)}
	}
	return ProportionalRoPECases{Freqs: []ProportionalCase{
		row("gemma4_global_quarter_of_512_dims", 512, 0.25, 1e6),
		row("quarter_of_16_dims", 16, 0.25, 10000),
		row("0.3_of_12_dims_is_1.8_pairs_so_1", 12, 0.3, 10000),
		row("half_of_10_dims_is_2.5_pairs_so_2", 10, 0.5, 500),
		row("everything_rotates", 8, 1, 10000),
		row("nothing_rotates", 8, 0, 10000),
	}}
}

// ProportionalRoPE returns exercise 24's checks of fn on cases.
func ProportionalRoPE(fn func(headDim int, proportion, base float64) []float64, cases ProportionalRoPECases) *Exercise {
	var checks []Check
	for _, c := range cases.Freqs {
		call := fmt.Sprintf("ProportionalInvFreq(headDim=%d, proportion=%g, base=%g)", c.HeadDim, c.Proportion, c.Base)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := fn(c.HeadDim, c.Proportion, c.Base)
			return compareVec(call, got, c.Want, 1e-9, label("pair"),
				func(got []float64) *Hint { return diagProportional(got, c.HeadDim, c.Proportion, c.Base) }, hintPropFallback)
		}})
	}
	return newExercise(24, checks)
}
