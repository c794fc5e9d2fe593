package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 11, Slug: "llama3", Title: "Llama 3 frequencies", Test: "TestLlama3",
			Funcs: []string{"Llama3InvFreq"}, Lesson: 5, Section: "Llama 3: the same idea, in wavelengths", Difficulty: catalog.Medium},
		Blurb: "the three wavelength bands.",
		Hints: Hints{
			Read: []Section{secLlama3, secSeen},
			Idea: []string{
				"Llama 3 sorts the pairs into three bands by their wavelength, the number of positions one full " +
					"turn takes, measured against the trained length: short wavelengths keep their frequency, long " +
					"ones are interpolated, and the band between is blended.",
			},
			Formula: []string{
				"- λ_i = 2π/θ_i, and L = originalLen. λ < L/4 keeps θ_i; λ > L gives θ_i/s; in between, smooth = " +
					"(L/λ − 1)/(4 − 1) and θ' = (1 − smooth)·θ/s + smooth·θ.",
			},
			Code: []string{
				"- `lambda := 2 * math.Pi / theta`, compared with `float64(originalLen) / 4`: in integers, L/4 " +
					"for originalLen 4470 is 1117 instead of 1117.5, and one pair's wavelength is 1117.3.",
			},
		},
		Cases:  llama3Cases(),
		Checks: func(cases any) *Exercise { return Llama3(nil, cases.(Llama3Cases)) },
	})
}

var (
	hintLlama3Wavelength = newHint("llama3/wavelength", secLlama3,
		"the wavelength of pair i is 2π/θ_i positions (one full turn), not 1/θ_i: without the 2π every band "+
			"boundary moves")
	hintLlama3Bands = newHint("llama3/bands swapped", secLlama3,
		"your bands are swapped: short wavelengths (λ < L/4, fast pairs) keep θ_i, and long ones (λ > L) are "+
			"divided by the factor")
	hintLlama3Smooth = newHint("llama3/blend reversed", secLlama3,
		"the blend in the middle band is reversed: θ' = (1 − smooth)·θ/s + smooth·θ with smooth = (L/λ − 1)/3, so "+
			"smooth → 1 (keep θ) as the wavelength shrinks to L/4")
	hintLlama3Denominator = newHint("llama3/smooth denominator", secLlama3,
		"smooth has the wrong scale: smooth = (L/λ − low_freq_factor)/(high_freq_factor − low_freq_factor) = (L/λ − 1)/3, "+
			"which runs from 0 at λ = L to 1 at λ = L/4; yours does not reach those ends")
	hintLlama3IntDiv = newHint("llama3/integer division", secLlama3,
		"the band edge L/4 was computed with integer division: for originalLen 4470 it is 1117.5, not 1117, and pair 18, "+
			"whose wavelength is 1117.3, falls on the wrong side. Divide in float64")
	hintLlama3Linear = newHint("llama3/all interpolated", secLlama3,
		"you divided every frequency by the factor, which is linear interpolation: Llama 3 keeps the fast pairs "+
			"and blends in between")
	hintLlama3Fallback = generic("llama3/fallback", secLlama3,
		"compute each pair's wavelength 2π/θ_i and pick its band: keep, divide by the factor, or blend")
)

// llama3Opts selects known wrong variants of refLlama3.
type llama3Opts struct {
	twoPi        float64 // 2π, or 1
	swapBands    bool
	reverseBlend bool
	denominator  float64 // 3, or a wrong one
	minus        float64 // 1, or 0 when the learner forgot it
	quarter      func(l int) float64
}

// refLlama3 computes Llama 3's rule (Hugging Face's _compute_llama3_parameters
// with low_freq_factor 1 and high_freq_factor 4), with variants.
func refLlama3(d int, base, s float64, l0 int, o llama3Opts) []float64 {
	if o.twoPi == 0 {
		o.twoPi = 2 * math.Pi
	}
	if o.denominator == 0 {
		o.denominator = 3
	}
	if o.quarter == nil {
		o.quarter = func(l int) float64 { return float64(l) / 4 }
	}
	l := float64(l0)
	out := make([]float64, d/2)
	for i := range out {
		w := math.Pow(base, -float64(2*i)/float64(d))
		lam := o.twoPi / w
		fast, slow := lam < o.quarter(l0), lam > l
		if o.swapBands {
			fast, slow = slow, fast
		}
		switch {
		case fast:
			out[i] = w
		case slow:
			out[i] = w / s
		default:
			sm := (l/lam - 1 + o.minus) / o.denominator
			if o.reverseBlend {
				sm = 1 - sm
			}
			out[i] = (1-sm)*w/s + sm*w
		}
	}
	return out
}

// Llama3Cases is exercise 11's case table.
type Llama3Cases struct {
	Freq []ScaledFreqCase `doc:"Llama3InvFreq(D, Base, Factor, OriginalLen) must equal Want, to 1e-9: Hugging Face's _compute_llama3_parameters with low_freq_factor 1 and high_freq_factor 4. In the last row, OriginalLen/4 = 1117.5 lies just above pair 18's wavelength of 1117.3."`
}

func llama3Cases() Llama3Cases {
	row := func(d int, base, s float64, l0 int) ScaledFreqCase {
		want := refScaledFreq(d, base, posenc.Llama3Scaling(s, l0))
		if !sameVec(1e-12)(want, refLlama3(d, base, s, l0, llama3Opts{})) {
			panic("check: Llama 3 reference and posenc disagree")
		}
		return ScaledFreqCase{fmt.Sprintf("d=%d_base=%g_factor=%g_originalLen=%d", d, base, s, l0), d, base, s, l0, want}
	}
	return Llama3Cases{Freq: []ScaledFreqCase{
		row(128, 500000, 8, 8192),
		row(64, 10000, 4, 2048),
		row(32, 10000, 2, 512),
		row(64, 10000, 4, 4470),
	}}
}

// diagLlama3 names the idea behind a wrong Llama 3 scaling.
func diagLlama3(got []float64, c ScaledFreqCase) *Hint {
	d, base, s, l0 := c.D, c.Base, c.Factor, c.OriginalLen
	type v = variant[[]float64]
	intQuarter := func(l int) float64 { return float64(l / 4) }
	return firstMatch(got, sameVec(1e-9),
		v{hintScaledIntDiv, constFreq(d, 1)},
		v{hintLlama3Wavelength, refLlama3(d, base, s, l0, llama3Opts{twoPi: 1})},
		v{hintLlama3Bands, refLlama3(d, base, s, l0, llama3Opts{swapBands: true})},
		v{hintLlama3Smooth, refLlama3(d, base, s, l0, llama3Opts{reverseBlend: true})},
		v{hintLlama3Denominator, refLlama3(d, base, s, l0, llama3Opts{denominator: 4})},
		v{hintLlama3Denominator, refLlama3(d, base, s, l0, llama3Opts{denominator: 1})},
		v{hintLlama3Denominator, refLlama3(d, base, s, l0, llama3Opts{minus: 1})},
		v{hintLlama3IntDiv, refLlama3(d, base, s, l0, llama3Opts{quarter: intQuarter})},
		v{hintLlama3Linear, freqWithBase(d, base, s)})
}

// Llama3 returns exercise 11's checks of fn on cases.
func Llama3(fn func(d int, base, factor float64, originalLen int) []float64, cases Llama3Cases) *Exercise {
	var checks []Check
	for _, c := range cases.Freq {
		call := fmt.Sprintf("Llama3InvFreq(d=%d, base=%g, factor=%g, originalLen=%d)", c.D, c.Base, c.Factor, c.OriginalLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			return compareVec(call, fn(c.D, c.Base, c.Factor, c.OriginalLen), c.Want, 1e-9, label("pair"),
				func(got []float64) *Hint { return diagLlama3(got, c) }, hintLlama3Fallback)
		}})
	}
	return newExercise(11, checks)
}
