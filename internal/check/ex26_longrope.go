package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 26, Slug: "longrope", Title: "LongRoPE's switch", Test: "TestLongRoPE",
			Funcs: []string{"LongRoPEInvFreq"}, Lesson: 9, Section: secShipped.Title, Difficulty: catalog.Medium},
		Blurb: "Phi-3.5's per-pair factors, short up to the trained length and long past it, and its attention factor.",
		Hints: Hints{
			Read: []Section{secShipped},
			Idea: []string{
				"LongRoPE divides each pair's frequency by its own searched factor: one list while the sequence fits " +
					"the trained length, another once it is longer; and it scales cos and sin at every length.",
			},
			Formula: []string{
				"- ω_i = 1/(λ_i·base^(2i/headDim)), λ = short while seqLen ≤ originalLen, long when seqLen > " +
					"originalLen: a sequence of exactly originalLen tokens still uses the short factors.",
				"- The attention factor is √(1 + ln(factor)/ln(originalLen)), natural logarithms, and exactly 1 when " +
					"factor ≤ 1; not YaRN's 0.1·ln(factor) + 1. Phi-3.5: factor 32, originalLen 4096: √(17/12) ≈ 1.1902.",
			},
			Code: []string{
				"- Build the frequencies in a new slice; never scale short or long in place.",
			},
		},
		Cases:  longRoPECases(),
		Checks: func(cases any) *Exercise { return LongRoPE(nil, cases.(LongRoPECases)) },
	})
}

var secShipped = Section{9, "YaRN and LongRoPE as shipped"}

var (
	hintLongAtTrained = newHint("LongRoPE/switch at the trained length", secShipped,
		"the long factors start after the trained length: a sequence of exactly originalLen tokens still fits, so "+
			"it uses the short factors (switch when seqLen > originalLen)")
	hintLongSwapped = newHint("LongRoPE/factors swapped", secShipped,
		"short_factor is for sequences that fit the trained length, long_factor for longer ones, not the other way "+
			"round")
	hintLongMultiplies = newHint("LongRoPE/multiplies", secShipped,
		"λ_i divides the frequency, ω_i = 1/(λ_i·base^(2i/headDim)): the factors (mostly > 1) stretch the "+
			"wavelengths")
	hintLongIntExponent = newHint("LongRoPE/integer exponent", secShipped,
		"the exponent 2i/headDim was computed with integer division: convert to float64 before dividing")
	hintLongNoSqrt = newHint("LongRoPE/no square root", secShipped,
		"the attention factor is the square root of 1 + ln(factor)/ln(originalLen)")
	hintLongYaRN = newHint("LongRoPE/YaRN's factor", secShipped,
		"that is YaRN's attention factor, 0.1·ln(factor) + 1; LongRoPE's is √(1 + ln(factor)/ln(originalLen))")
	hintLongBelowOne = newHint("LongRoPE/factor at most 1", secShipped,
		"when factor ≤ 1 there is no extension and the attention factor is exactly 1; the formula would give less "+
			"than 1 for a factor below 1")
	hintLongLogRatio = newHint("LongRoPE/log ratio inverted", secShipped,
		"the ratio inside the root is ln(factor)/ln(originalLen), the extension's log over the trained length's")
	hintLongNoTwo = newHint("LongRoPE/exponent without 2", secShipped,
		"the exponent is 2i/headDim, as in RoPE itself: pair i's base frequency is base^(−2i/headDim), not "+
			"base^(−i/headDim)")
	hintLongAttnOnlyLong = newHint("LongRoPE/attention factor only when long", secShipped,
		"the attention factor depends on factor and originalLen only: transformers scales cos and sin by it at "+
			"every length, short sequences included")
	hintLongFactorFromLen = newHint("LongRoPE/factor from the length", secShipped,
		"the attention factor uses the config's factor, fixed for the model, not the current seqLen/originalLen")
	hintLongMutates = newHint("LongRoPE/mutates", Section{},
		"your function changed short or long (scaled them in place, most likely): build the frequencies in a new "+
			"slice and leave the factors as they were")
	hintLongFreqFallback = generic("LongRoPE/frequencies fallback", secShipped,
		"ω_i = 1/(λ_i·base^(2i/headDim)), with λ = short while seqLen ≤ originalLen and long after")
	hintLongAttnFallback = generic("LongRoPE/attention fallback", secShipped,
		"the attention factor is √(1 + ln(factor)/ln(originalLen)) for factor > 1, and 1 otherwise")
)

// refLongRoPE is posenc's LongRoPE; factors below 1, which posenc refuses,
// give the same frequencies and attention 1.
func refLongRoPE(d int, base float64, short, long []float64, factor float64, orig, seq int) ([]float64, float64) {
	sc := posenc.LongRoPEScaling(math.Max(factor, 1), orig, seq, short, long)
	r := posenc.NewRoPE(d).WithBase(base).WithScaling(sc)
	f, err := r.InvFreq()
	if err != nil {
		panic(err)
	}
	return f, r.AttentionFactor()
}

// longWith computes frequencies with a choice of factors and exponent.
func longWith(d int, base float64, lambda []float64, divide bool, exp func(i int) float64) []float64 {
	out := make([]float64, d/2)
	for i := range out {
		w := math.Pow(base, -exp(i))
		if divide {
			out[i] = w / lambda[i]
		} else {
			out[i] = w * lambda[i]
		}
	}
	return out
}

// diagLongFreq names the idea behind wrong frequencies. At exactly the
// trained length, the long factors are the answer of two mistakes; probe,
// which calls the learner's function at another length, tells them apart.
func diagLongFreq(got []float64, c LongRoPECase, probe func(seqLen int) []float64) *Hint {
	full := func(i int) float64 { return float64(2*i) / float64(c.HeadDim) }
	other := c.Short
	if c.SeqLen <= c.OriginalLen {
		other = c.Long
	}
	used := c.Long
	if c.SeqLen <= c.OriginalLen {
		used = c.Short
	}
	type v = variant[[]float64]
	vs := []v{
		{hintLongMultiplies, longWith(c.HeadDim, c.Base, used, false, full)},
		{hintLongIntExponent, longWith(c.HeadDim, c.Base, used, true, func(i int) float64 { return float64(2 * i / c.HeadDim) })},
		{hintLongNoTwo, longWith(c.HeadDim, c.Base, used, true, func(i int) float64 { return float64(i) / float64(c.HeadDim) })},
	}
	if c.SeqLen == c.OriginalLen {
		withLong := longWith(c.HeadDim, c.Base, c.Long, true, full)
		var short []float64
		if sameVec(1e-9)(got, withLong) && runProbe(func() { short = probe(1) }) && sameVec(1e-9)(short, withLong) {
			observe(got, sameVec(1e-9), []v{{hintLongSwapped, withLong}})
			return hintLongSwapped // long factors for a 1-token sequence too
		}
		vs = append(vs, v{hintLongAtTrained, withLong})
	} else {
		vs = append(vs, v{hintLongSwapped, longWith(c.HeadDim, c.Base, other, true, full)})
	}
	return firstMatch(got, sameVec(1e-9), vs...)
}

func diagLongAttn(got float64, c LongRoPECase) *Hint {
	s, l0 := c.Factor, float64(c.OriginalLen)
	type v = variant[float64]
	same := func(a, b float64) bool { return closeTo(a, b, 1e-9) }
	formula := func(f float64) float64 { // each mistake keeps the guard: 1 when factor ≤ 1
		if s <= 1 {
			return 1
		}
		return f
	}
	vs := []v{
		{hintLongNoSqrt, formula(1 + math.Log(s)/math.Log(l0))},
		{hintLongYaRN, formula(0.1*math.Log(s) + 1)},
		{hintLongLogRatio, formula(math.Sqrt(1 + math.Log(l0)/math.Log(s)))},
	}
	if s < 1 {
		vs = append(vs, v{hintLongBelowOne, math.Sqrt(1 + math.Log(s)/math.Log(l0))})
	}
	if s > 1 && c.SeqLen <= c.OriginalLen {
		vs = append(vs, v{hintLongAttnOnlyLong, 1})
	} else {
		vs = append(vs, v{hintLongAttnOnlyLong, c.WantAttention})
	}
	vs = append(vs, v{hintLongFactorFromLen, math.Sqrt(1 + math.Log(max(1, float64(c.SeqLen)/l0))/math.Log(l0))})
	return uniqueMatch(got, same, vs...)
}

// LongRoPECase is one call: LongRoPEInvFreq(HeadDim, Base, Short, Long,
// Factor, OriginalLen, SeqLen) must return WantFreq and WantAttention, to
// 1e-9.
type LongRoPECase struct {
	Name                string
	HeadDim             int
	Base                float64
	Short, Long         []float64
	Factor              float64
	OriginalLen, SeqLen int
	WantFreq            []float64
	WantAttention       float64
}

// LongRoPECases is exercise 26's case table.
type LongRoPECases struct {
	Calls []LongRoPECase `doc:"LongRoPEInvFreq(HeadDim, Base, Short, Long, Factor, OriginalLen, SeqLen) must return WantFreq and WantAttention, to 1e-9. The Phi-3.5 rows use microsoft/Phi-3.5-mini-instruct's own factors (pkg/posenc/modelconfigs)."`
}

// phi35Factors returns Phi-3.5-mini's short and long factors from the
// shipped config.
func phi35Factors() (short, long []float64) {
	data, err := modelconfigs.Config("phi-3.5-mini")
	if err != nil {
		panic(err)
	}
	m, err := posenc.ParseHFConfig(data)
	if err != nil {
		panic(err)
	}
	f := m.Layers[0].RoPE.Scaling.LongRoPE
	return slices.Clone(f.Short), slices.Clone(f.Long)
}

func longRoPECases() LongRoPECases {
	short, long := phi35Factors()
	row := func(name string, d int, base float64, short, long []float64, factor float64, orig, seq int) LongRoPECase {
		f, a := refLongRoPE(d, base, short, long, factor, orig, seq)
		return LongRoPECase{name, d, base, short, long, factor, orig, seq, f, a}
	}
	small := []float64{1, 1.5, 2.25, 3}
	smallLong := []float64{1.25, 4, 16, 40}
	return LongRoPECases{Calls: []LongRoPECase{
		row("phi35_short_at_100_tokens", 96, 10000, short, long, 32, 4096, 100),
		row("phi35_exactly_the_trained_4096_is_still_short", 96, 10000, short, long, 32, 4096, 4096),
		row("phi35_long_from_4097", 96, 10000, short, long, 32, 4096, 4097),
		row("phi35_long_at_128K", 96, 10000, short, long, 32, 4096, 131072),
		row("small_head_factor_4", 8, 500, small, smallLong, 4, 64, 65),
		row("no_extension_factor_1", 8, 500, small, smallLong, 1, 64, 10),
		row("factor_below_1_is_attention_1", 8, 500, small, smallLong, 0.5, 64, 10),
	}}
}

var longArgs = argHints{hintLongMutates, hintLongMutates}

// LongRoPE returns exercise 26's checks of fn on cases.
func LongRoPE(fn func(headDim int, base float64, short, long []float64, factor float64, originalLen, seqLen int) ([]float64, float64), cases LongRoPECases) *Exercise {
	var checks []Check
	for _, c := range cases.Calls {
		call := fmt.Sprintf("LongRoPEInvFreq(headDim=%d, base=%g, short, long, factor=%g, originalLen=%d, seqLen=%d)",
			c.HeadDim, c.Base, c.Factor, c.OriginalLen, c.SeqLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			short, long := cloneVec(c.Short), cloneVec(c.Long)
			freq, attn := fn(c.HeadDim, c.Base, short, long, c.Factor, c.OriginalLen, c.SeqLen)
			if f := compareVec(call, freq, c.WantFreq, 1e-9, label("pair"),
				func(got []float64) *Hint {
					return diagLongFreq(got, c, func(seqLen int) []float64 {
						f, _ := fn(c.HeadDim, c.Base, cloneVec(c.Short), cloneVec(c.Long), c.Factor, c.OriginalLen, seqLen)
						return f
					})
				}, hintLongFreqFallback); f != nil {
				return f
			}
			if closeTo(attn, c.WantAttention, 1e-9) {
				observePass(func(got float64) *Hint { return diagLongAttn(got, c) }, attn)
			} else {
				noteFallback(hintLongAttnFallback)
				return fail(orElse(diagLongAttn(attn, c), hintLongAttnFallback),
					fmt.Sprintf("%s: attention factor %s; want %s", call, fmtNum(attn), fmtNum(c.WantAttention)))
			}
			return longArgs.check(call, freq, arg{"short", short, c.Short}, arg{"long", long, c.Long})
		}})
	}
	return newExercise(26, checks)
}
