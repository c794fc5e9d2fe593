package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exYaRN = exInfo{file: "exercises/10_yarn.go", funcs: "YaRNInvFreq and YaRNAttentionFactor", lesson: "lesson 5, context extension"}

func TestYaRN(t *testing.T) { runExercise(t, exYaRN, yarnCases(YaRNInvFreq, YaRNAttentionFactor)) }

var (
	hintYaRNReversed = newHint("yarn/ramp reversed",
		"your blend runs the wrong way: it interpolates the fast pairs and keeps the slow ones. Pairs below low "+
			"(more than beta_fast = 32 rotations over the trained context) keep θ_i; pairs above high (less than one "+
			"rotation) get θ_i/s; check the ramp and which beta gives low (lesson 5, “YaRN: decide per pair, by wavelength”).")
	hintYaRNTruncate = newHint("yarn/no floor and ceil",
		"your ramp ends are not rounded: Hugging Face floors low and ceils high (truncate=True) before clamping "+
			"them to [0, d−1] (lesson 5, “YaRN: decide per pair, by wavelength”).")
	hintYaRNTwoPi = newHint("yarn/rotations vs radians",
		"corr(β) counts full rotations: a pair of wavelength 2π/θ_i turns originalLen·θ_i/(2π) times, so "+
			"corr(β) = d·ln(originalLen/(2π·β))/(2·ln base); the 2π is missing (lesson 5, “YaRN: decide per pair, by wavelength”).")
	hintYaRNAllLinear = newHint("yarn/all interpolated",
		"you divided every frequency by s, which is linear interpolation: YaRN keeps the fast pairs (below low) "+
			"and blends towards θ_i/s only up to high (lesson 5, “YaRN: decide per pair, by wavelength”).")
	hintYaRNLog = newHint("yarn/attention factor log",
		"the attention factor uses the natural logarithm: 0.1·ln(s) + 1 (math.Log, not math.Log10 or math.Log2) "+
			"(lesson 5, “YaRN: decide per pair, by wavelength”).")
	hintYaRNPlusOne = newHint("yarn/attention factor +1",
		"the attention factor is 0.1·ln(s) + 1: without the +1, s = 1 would zero every score instead of leaving "+
			"attention unchanged (lesson 5, “YaRN: decide per pair, by wavelength”).")
)

// refYaRN computes YaRN frequencies with the ramp ends given by ends, and
// fast (kept) frequencies on the low side unless reversed.
func refYaRN(d int, base, s float64, ends func() (low, high float64), reversed bool) []float64 {
	low, high := ends()
	if low == high {
		high += 0.001
	}
	out := make([]float64, d/2)
	for i := range out {
		w := math.Pow(base, -float64(2*i)/float64(d))
		r := math.Min(math.Max((float64(i)-low)/(high-low), 0), 1)
		if reversed {
			r = 1 - r
		}
		out[i] = w/s*r + w*(1-r)
	}
	return out
}

func diagYaRN(got []float64, d int, base, s float64, l0 int) string {
	corr := func(rot, twoPi float64) float64 {
		return float64(d) * math.Log(float64(l0)/(twoPi*rot)) / (2 * math.Log(base))
	}
	hf := func(twoPi float64) func() (float64, float64) {
		return func() (float64, float64) {
			return math.Max(math.Floor(corr(32, twoPi)), 0), math.Min(math.Ceil(corr(1, twoPi)), float64(d-1))
		}
	}
	swapped := func() (float64, float64) {
		return math.Max(math.Floor(corr(1, 2*math.Pi)), 0), math.Min(math.Ceil(corr(32, 2*math.Pi)), float64(d-1))
	}
	raw := func() (float64, float64) {
		return math.Max(corr(32, 2*math.Pi), 0), math.Min(corr(1, 2*math.Pi), float64(d-1))
	}
	type v = exVariant[[]float64]
	return diagFirst(got, exSameVec(1e-9),
		v{hintYaRNReversed, refYaRN(d, base, s, hf(2*math.Pi), true)},
		v{hintYaRNReversed, refYaRN(d, base, s, swapped, false)},
		v{hintYaRNTruncate, refYaRN(d, base, s, raw, false)},
		v{hintYaRNTwoPi, refYaRN(d, base, s, hf(1), false)},
		v{hintYaRNAllLinear, refFreqWithBase(d, base, s)},
	)
}

func yarnCases(freq func(d int, base, factor float64, originalLen int) []float64, attn func(factor float64) float64) []exCase {
	const fallback = "compute corr(32) and corr(1), round them to low and high, then blend θ_i/s and θ_i with the ramp " +
		"(lesson 5, “YaRN: decide per pair, by wavelength”)."
	check := func(d int, base, s float64, l0 int) exCase {
		return exVecCheck{
			name: fmt.Sprintf("d=%d_base=%g_factor=%g", d, base, s),
			call: fmt.Sprintf("YaRNInvFreq(d=%d, base=%g, factor=%g, originalLen=%d)", d, base, s, l0),
			got:  func() []float64 { return freq(d, base, s, l0) },
			want: refScaledFreq(d, base, posenc.YaRNScaling(s, l0)), tol: 1e-9, label: exLabel("pair"),
			diag:     func(got []float64) string { return diagYaRN(got, d, base, s, l0) },
			fallback: fallback,
		}.exCase()
	}
	factor := func(s float64) exCase {
		call := fmt.Sprintf("YaRNAttentionFactor(%g)", s)
		want := posenc.NewRoPE(64).WithScaling(posenc.YaRNScaling(s, 4096)).AttentionFactor()
		return exCase{name: fmt.Sprintf("attention_factor_%g", s), call: call, run: func() string {
			got := attn(s)
			if exClose(got, want, 1e-12) {
				return ""
			}
			hint := ""
			switch {
			case exClose(got, 0.1*math.Log10(s)+1, 1e-12), exClose(got, 0.1*math.Log2(s)+1, 1e-12):
				hint = hintYaRNLog
			case exClose(got, 0.1*math.Log(s), 1e-12):
				hint = hintYaRNPlusOne
			}
			return exMsg(hint, "the factor is 0.1·ln(s) + 1 (lesson 5, “YaRN: decide per pair, by wavelength”).",
				fmt.Sprintf("%s = %s; want %s", call, exFmt(got), exFmt(want)))
		}}
	}
	return []exCase{
		check(128, 10000, 4, 4096),
		check(64, 500000, 8, 8192),
		check(32, 10000, 16, 2048),
		factor(4),
		factor(40),
		factor(1),
	}
}
