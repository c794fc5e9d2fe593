package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 10, Slug: "yarn", Title: "YaRN frequencies and attention factor", Test: "TestYaRN",
			Funcs: []string{"YaRNInvFreq", "YaRNAttentionFactor"}, Lesson: 5, Section: "YaRN: decide per pair, by wavelength", Difficulty: catalog.Advanced},
		Blurb: "the ramp between the two betas, and the temperature.",
		Hints: Hints{
			Read: []Section{secYaRN},
			Idea: []string{
				"YaRN decides per pair, by how many turns it made over the trained context: pairs that turned " +
					"many times keep their frequency, pairs that never finished a turn are interpolated, and a ramp " +
					"blends the pairs in between. Hugging Face's `_compute_yarn_parameters` is the reference, and " +
					"the lesson follows it.",
			},
			Formula: []string{
				"1. θ_i = base^(−2i/d) for i = 0 … d/2−1.",
				"2. corr(β) = d·ln(originalLen/(2π·β)) / (2·ln base): the pair index that turns β times over the " +
					"trained context.",
				"3. low = max(⌊corr(32)⌋, 0) and high = min(⌈corr(1)⌉, d−1). If low == high, add 0.001 to high. " +
					"For d = 128, base 10000, originalLen 4096 they are 20 and 46.",
				"4. ramp_i = clamp((i − low)/(high − low), 0, 1), and θ'_i = (θ_i/s)·ramp_i + θ_i·(1 − ramp_i).",
				"5. The attention factor is 0.1·ln(s) + 1 for s > 1, and 1 otherwise.",
				"Each safeguard matters somewhere: low's clamp for a tiny originalLen (64), high's clamp for a " +
					"small base (20), the 0.001 for originalLen 4, where both ends clamp to 0. The range uses " +
					"originalLen, not originalLen·s.",
			},
			Code: []string{
				"- `low := math.Max(math.Floor(corr(32)), 0)`, `high := math.Min(math.Ceil(corr(1)), " +
					"float64(d-1))` and `if low == high { high += 0.001 }`.",
				"- The logarithm is `math.Log` (natural, not `math.Log10`), and every ratio is in float64.",
			},
		},
		Cases:  yarnCases(),
		Checks: func(cases any) *Exercise { return YaRN(nil, nil, cases.(YaRNCases)) },
	})
}

var (
	hintYaRNReversed = newHint("yarn/ramp reversed", secYaRN,
		"your blend runs the wrong way: it interpolates the fast pairs and keeps the slow ones. Pairs below low "+
			"(more than beta_fast = 32 rotations over the trained context) keep θ_i; pairs above high (less than one "+
			"rotation) get θ_i/s; check the ramp and which beta gives low")
	hintYaRNTruncate = newHint("yarn/no floor and ceil", secYaRN,
		"the ends of your ramp are not rounded as Hugging Face rounds them: low = floor(corr(32)) and "+
			"high = ceil(corr(1)), before clamping them to [0, d−1]")
	hintYaRNTwoPi = newHint("yarn/rotations vs radians", secYaRN,
		"corr(β) counts full rotations: a pair of wavelength 2π/θ_i turns originalLen·θ_i/(2π) times, so "+
			"corr(β) = d·ln(originalLen/(2π·β))/(2·ln base); the 2π is missing")
	hintYaRNExtended = newHint("yarn/range from the extended length", secYaRN,
		"your correction range is computed from the extended length originalLen·s: YaRN decides per pair by how many "+
			"turns it made during training, so corr(β) uses the original length, originalLen")
	hintYaRNLowClamp = newHint("yarn/low not clamped", secYaRN,
		"low must be clamped at 0: with a short originalLen, floor(corr(32)) is negative, and Hugging Face uses "+
			"max(floor(corr(32)), 0)")
	hintYaRNHighClamp = newHint("yarn/high clamp", secYaRN,
		"high is clamped to d−1, as Hugging Face clamps it to dim − 1 (not to the number of pairs, and not left "+
			"unclamped): with a small base, ceil(corr(1)) goes past d−1")
	hintYaRNGuard = newHint("yarn/low equals high", secYaRN,
		"when low == high the ramp (i − low)/(high − low) divides by zero and gives NaN: Hugging Face adds 0.001 to "+
			"high in that case. It happens when originalLen is tiny and both ends clamp to 0")
	hintYaRNAllLinear = newHint("yarn/all interpolated", secYaRN,
		"you divided every frequency by s, which is linear interpolation: YaRN keeps the fast pairs (below low) "+
			"and blends towards θ_i/s only up to high")
	hintYaRNLog = newHint("yarn/attention factor log", secYaRN,
		"the attention factor uses the natural logarithm: 0.1·ln(s) + 1 (math.Log, not math.Log10 or math.Log2)")
	hintYaRNPlusOne = newHint("yarn/attention factor +1", secYaRN,
		"the attention factor is 0.1·ln(s) + 1: without the +1, s = 1 would zero every score instead of leaving "+
			"attention unchanged")
	hintYaRNSmallFactor = newHint("yarn/attention factor below 1", secYaRN,
		"for a factor ≤ 1 there is nothing to extend and the attention factor is 1; 0.1·ln(s) + 1 applies only to s > 1")
	hintYaRNFallback = generic("yarn/fallback", secYaRN,
		"compute corr(32) and corr(1), round them to low and high, clamp them, then blend θ_i/s and θ_i with the ramp")
	hintYaRNFactorFallback = generic("yarn/factor fallback", secYaRN,
		"the factor is 0.1·ln(s) + 1 for s > 1, and 1 otherwise")
)

// yarnOpts selects known wrong variants of refYaRN.
type yarnOpts struct {
	twoPi        float64 // 2π, or 1 when the learner forgot it
	lengthMul    float64 // 1, or s when corr uses the extended length
	round        func(low, high float64) (float64, float64)
	noLowClamp   bool
	highCap      func(d int) float64 // d−1 by default
	noGuard      bool
	reversed     bool
	betasSwapped bool
	unitFreqs    bool // θ_i = 1: 2i/d in integers
}

// refYaRN computes YaRN frequencies from Hugging Face's recipe, with variants.
func refYaRN(d int, base, s float64, l0 int, o yarnOpts) []float64 {
	if o.twoPi == 0 {
		o.twoPi = 2 * math.Pi
	}
	if o.lengthMul == 0 {
		o.lengthMul = 1
	}
	corr := func(rot float64) float64 {
		return float64(d) * math.Log(float64(l0)*o.lengthMul/(o.twoPi*rot)) / (2 * math.Log(base))
	}
	fast, slow := 32.0, 1.0
	if o.betasSwapped {
		fast, slow = slow, fast
	}
	low, high := math.Floor(corr(fast)), math.Ceil(corr(slow))
	if o.round != nil {
		low, high = o.round(corr(fast), corr(slow))
	}
	if !o.noLowClamp {
		low = math.Max(low, 0)
	}
	cap := float64(d - 1)
	if o.highCap != nil {
		cap = o.highCap(d)
	}
	high = math.Min(high, cap)
	if low == high && !o.noGuard {
		high += 0.001
	}
	out := make([]float64, d/2)
	for i := range out {
		w := math.Pow(base, -float64(2*i)/float64(d))
		if o.unitFreqs {
			w = 1
		}
		r := math.Min(math.Max((float64(i)-low)/(high-low), 0), 1)
		if o.reversed {
			r = 1 - r
		}
		out[i] = w/s*r + w*(1-r)
	}
	return out
}

// yarnVariants are the known wrong answers for one configuration.
func yarnVariants(d int, base, s float64, l0 int) []variant[[]float64] {
	unbounded := func(int) float64 { return math.Inf(1) }
	type v = variant[[]float64]
	return []v{
		{hintScaledIntDiv, refYaRN(d, base, s, l0, yarnOpts{unitFreqs: true})},
		{hintYaRNReversed, refYaRN(d, base, s, l0, yarnOpts{reversed: true})},
		{hintYaRNReversed, refYaRN(d, base, s, l0, yarnOpts{betasSwapped: true})},
		{hintYaRNExtended, refYaRN(d, base, s, l0, yarnOpts{lengthMul: s})},
		{hintYaRNTruncate, refYaRN(d, base, s, l0, yarnOpts{round: func(a, b float64) (float64, float64) { return a, b }})},
		{hintYaRNTruncate, refYaRN(d, base, s, l0, yarnOpts{round: func(a, b float64) (float64, float64) { return math.Round(a), math.Round(b) }})},
		{hintYaRNTruncate, refYaRN(d, base, s, l0, yarnOpts{round: func(a, b float64) (float64, float64) { return math.Ceil(a), math.Floor(b) }})},
		{hintYaRNTwoPi, refYaRN(d, base, s, l0, yarnOpts{twoPi: 1})},
		{hintYaRNLowClamp, refYaRN(d, base, s, l0, yarnOpts{noLowClamp: true})},
		{hintYaRNHighClamp, refYaRN(d, base, s, l0, yarnOpts{highCap: unbounded})},
		{hintYaRNHighClamp, refYaRN(d, base, s, l0, yarnOpts{highCap: func(d int) float64 { return float64(d/2 - 1) }})},
		{hintYaRNHighClamp, refYaRN(d, base, s, l0, yarnOpts{highCap: func(d int) float64 { return float64(d / 2) }})},
		{hintYaRNAllLinear, freqWithBase(d, base, s)},
	}
}

// diagYaRN names the idea behind a wrong answer. In the configurations that
// exercise one safeguard, several mistakes can give the same numbers; the
// learner's answer for Llama 2's configuration, where they all differ, says
// which one was made.
func diagYaRN(got []float64, d int, base, s float64, l0 int, freq func(d int, base, factor float64, originalLen int) []float64) *Hint {
	if slices.ContainsFunc(got, math.IsNaN) && slices.ContainsFunc(refYaRN(d, base, s, l0, yarnOpts{noGuard: true}), math.IsNaN) {
		return hintYaRNGuard
	}
	return narrow(matchAll(got, sameVec(1e-9), yarnVariants(d, base, s, l0)...), func() []*Hint {
		return matchAll(freq(128, 10000, 4, 4096), sameVec(1e-9), yarnVariants(128, 10000, 4, 4096)...)
	})
}

// yarnBounds says which of Hugging Face's safeguards change the result for a
// configuration: the clamp of low at 0, the clamp of high at d−1, and the
// guard for low == high.
func yarnBounds(d int, base, s float64, l0 int) (lowClamp, highClamp, guard bool) {
	want := refYaRN(d, base, s, l0, yarnOpts{})
	differs := func(o yarnOpts) bool { return !sameVec(1e-9)(refYaRN(d, base, s, l0, o), want) }
	return differs(yarnOpts{noLowClamp: true}), differs(yarnOpts{highCap: func(int) float64 { return math.Inf(1) }}),
		differs(yarnOpts{noGuard: true})
}

// ScaledFreqCase is one call of a scaling that depends on the trained
// length: F(D, Base, Factor, OriginalLen) must equal Want, to 1e-9.
type ScaledFreqCase struct {
	Name         string
	D            int
	Base, Factor float64
	OriginalLen  int
	Want         []float64
}

// FactorCase is one call: YaRNAttentionFactor(Factor) must equal Want, to
// 1e-12.
type FactorCase struct {
	Name         string
	Factor, Want float64
}

// YaRNCases is exercise 10's case table.
type YaRNCases struct {
	Freq            []ScaledFreqCase `doc:"YaRNInvFreq(D, Base, Factor, OriginalLen) must equal Want, to 1e-9: Hugging Face's _compute_yarn_parameters, as pkg/posenc computes it. Rows 4 to 6 each need one of its safeguards: low clamped at 0, high clamped at D−1, and 0.001 added when low == high."`
	AttentionFactor []FactorCase     `doc:"YaRNAttentionFactor(Factor) must equal Want, to 1e-12: 0.1·ln(Factor) + 1 for a factor above 1, else 1."`
}

func yarnCases() YaRNCases {
	row := func(name string, d int, base, s float64, l0 int) ScaledFreqCase {
		want := refScaledFreq(d, base, posenc.YaRNScaling(s, l0))
		if !sameVec(1e-12)(want, refYaRN(d, base, s, l0, yarnOpts{})) {
			panic(fmt.Sprintf("check: YaRN reference and posenc disagree for %s", name))
		}
		return ScaledFreqCase{name, d, base, s, l0, want}
	}
	// Each safeguard of Hugging Face's recipe changes the result of one
	// configuration below; mustBound keeps it that way.
	mustBound := func(name string, d int, base, s float64, l0 int, which int) ScaledFreqCase {
		b := [3]bool{}
		b[0], b[1], b[2] = yarnBounds(d, base, s, l0)
		if !b[which] {
			panic("check: the YaRN case " + name + " no longer exercises its bound")
		}
		return row(name, d, base, s, l0)
	}
	factor := func(s float64) FactorCase {
		return FactorCase{fmt.Sprintf("attention_factor_%g", s), s, posenc.NewRoPE(64).WithScaling(posenc.YaRNScaling(s, 4096)).AttentionFactor()}
	}
	return YaRNCases{
		Freq: []ScaledFreqCase{
			row("d=128_base=10000_factor=4", 128, 10000, 4, 4096),
			row("d=64_base=500000_factor=8", 64, 500000, 8, 8192),
			row("d=32_base=10000_factor=16", 32, 10000, 16, 2048),
			mustBound("tiny_originalLen_low_clamps_at_0", 32, 10000, 4, 64, 0),
			mustBound("small_base_high_clamps_at_d-1", 16, 20, 4, 2000, 1),
			mustBound("originalLen_4_low_equals_high", 8, 10000, 2, 4, 2),
			row("long_originalLen_both_ends_clamp_at_d-1", 4, 10, 2, 10000),
		},
		AttentionFactor: []FactorCase{factor(4), factor(40), factor(1), factor(0.5)},
	}
}

// diagYaRNFactor names the idea behind a wrong attention factor.
func diagYaRNFactor(got, s float64) *Hint {
	switch {
	case s <= 1 && closeTo(got, 0.1*math.Log(s)+1, 1e-12):
		return hintYaRNSmallFactor
	case closeTo(got, 0.1*math.Log10(s)+1, 1e-12), closeTo(got, 0.1*math.Log2(s)+1, 1e-12):
		return hintYaRNLog
	case closeTo(got, 0.1*math.Log(s), 1e-12):
		return hintYaRNPlusOne
	}
	return nil
}

// YaRN returns exercise 10's checks of freq and attn on cases.
func YaRN(freq func(d int, base, factor float64, originalLen int) []float64, attn func(factor float64) float64, cases YaRNCases) *Exercise {
	var checks []Check
	for _, c := range cases.Freq {
		call := fmt.Sprintf("YaRNInvFreq(d=%d, base=%g, factor=%g, originalLen=%d)", c.D, c.Base, c.Factor, c.OriginalLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			return compareVec(call, freq(c.D, c.Base, c.Factor, c.OriginalLen), c.Want, 1e-9, label("pair"),
				func(got []float64) *Hint { return diagYaRN(got, c.D, c.Base, c.Factor, c.OriginalLen, freq) }, hintYaRNFallback)
		}})
	}
	for _, c := range cases.AttentionFactor {
		call := fmt.Sprintf("YaRNAttentionFactor(%g)", c.Factor)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := attn(c.Factor)
			if closeTo(got, c.Want, 1e-12) {
				return nil
			}
			return fail(orElse(diagYaRNFactor(got, c.Factor), hintYaRNFactorFallback), fmt.Sprintf("%s = %s; want %s", call, fmtNum(got), fmtNum(c.Want)))
		}})
	}
	return newExercise(10, checks)
}
