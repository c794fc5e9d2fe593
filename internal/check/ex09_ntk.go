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
		Exercise: catalog.Exercise{Num: 9, Slug: "ntk", Title: "Linear, NTK-aware and dynamic NTK frequencies", Test: "TestNTK",
			Funcs: []string{"LinearInvFreq", "NTKInvFreq", "DynamicNTKInvFreq"}, Lesson: 5,
			Section: "NTK-aware scaling: change the base, not the positions", Difficulty: catalog.Medium},
		Blurb: "the first three scalings of this lesson, from the formula for $\\omega_i$.",
		Hints: []string{
			"- Write one helper for base^(−2i/d) (exponent in float64) and reuse it. Linear interpolation divides " +
				"its result by s.",
			"- NTK-aware scaling calls it with the base base·s^(d/(d−2)); compute the exponent as " +
				"`float64(d)/float64(d-2)`. Check it on its two ends: θ_0 stays 1 and the last frequency is divided " +
				"by exactly s.",
			"- Dynamic NTK uses the factor s·L/L₀ − (s−1) with L = max(seqLen, originalLen), in float64: it is 1 " +
				"up to originalLen, and for seqLen 5000 over 2048 the ratio is 2.44…, not 2.",
		},
		Checks: func() *Exercise { return NTK(nil, nil, nil) },
	})
}

var (
	hintLinearMultiplied = newHint("linear/multiplied", secPI,
		"you multiplied the frequencies by the factor: interpolation divides them, θ_i/s, so that the longer context "+
			"turns through the angles the model was trained on")
	hintScaledIntDiv = newHint("scaled frequencies/integer division", secSeen,
		"before any scaling, your frequencies are all 1: the exponent 2i/d was computed with integer division, "+
			"which is 0 for every pair. Convert before dividing: float64(2*i)/float64(d)")
	hintNTKExponent = newHint("ntk/exponent is 1", secNTK,
		"the base became base·s instead of base·s^(d/(d−2)): either the exponent d/(d−2) is missing, or it was "+
			"computed with integer division, where it is 1 for every d > 4 (write float64(d)/float64(d−2)). With it, the "+
			"lowest frequency is divided by exactly s while the highest stays 1")
	hintNTKInverseExponent = newHint("ntk/exponent inverted", secNTK,
		"the exponent is upside down: the base becomes base·s^(d/(d−2)), not base·s^((d−2)/d)")
	hintNTKIsLinear = newHint("ntk/interpolated every frequency", secNTK,
		"you divided every frequency by s, which is linear interpolation: NTK-aware scaling changes the base instead, "+
			"so high frequencies are kept and only low ones shrink")
	hintDynamicMax = newHint("dynamic/no max", secDynamic,
		"for sequences shorter than originalLen the frequencies must be the unscaled ones: use "+
			"L = max(seqLen, originalLen), so that the factor s·L/L₀ − (s−1) never drops below 1")
	hintDynamicStatic = newHint("dynamic/static factor", secDynamic,
		"you used the static NTK factor s: dynamic NTK grows the factor with the sequence, "+
			"s·L/L₀ − (s−1) with L = max(seqLen, originalLen)")
	hintDynamicOffset = newHint("dynamic/missing −(s−1)", secDynamic,
		"the dynamic factor is s·L/L₀ − (s−1): without the −(s−1) it starts at s instead of 1 when L = L₀")
	hintDynamicIntDiv = newHint("dynamic/integer division", secDynamic,
		"L/L₀ was computed with integer division: for seqLen 5000 and originalLen 2048 it is 2.44…, not 2. "+
			"Convert both lengths to float64 before dividing")
	hintNTKFallback = generic("ntk/fallback", secSeen,
		"compute the frequencies base^(−2i/d) first, then apply the scaling")
)

// refScaledFreq is posenc's inverse frequencies of NewRoPE(d) with base and
// scaling sc.
func refScaledFreq(d int, base float64, sc posenc.Scaling) []float64 {
	f, err := posenc.NewRoPE(d).WithBase(base).WithScaling(sc).InvFreq()
	if err != nil {
		panic(err)
	}
	return f
}

// freqWithBase returns b^(−2i/d), divided by div.
func freqWithBase(d int, b, div float64) []float64 {
	f := make([]float64, d/2)
	for i := range f {
		f[i] = math.Pow(b, -float64(2*i)/float64(d)) / div
	}
	return f
}

// constFreq returns d/2 copies of w: the frequencies when 2i/d is 0.
func constFreq(d int, w float64) []float64 {
	f := make([]float64, d/2)
	for i := range f {
		f[i] = w
	}
	return f
}

// NTK returns exercise 9's checks of linear, ntk and dynamic.
func NTK(linear, ntk func(d int, base, factor float64) []float64,
	dynamic func(d int, base, factor float64, originalLen, seqLen int) []float64) *Exercise {
	type v = variant[[]float64]
	vecCase := func(name, call string, got func() []float64, want []float64, diag func([]float64) *Hint) Case {
		return vecCheck{name: name, call: call, got: got, want: want, tol: 1e-9,
			label: label("pair"), diag: diag, fallback: hintNTKFallback}.check()
	}
	linCase := func(d int, base, s float64) Case {
		return vecCase(fmt.Sprintf("linear_d=%d_factor=%g", d, s), fmt.Sprintf("LinearInvFreq(d=%d, base=%g, factor=%g)", d, base, s),
			func() []float64 { return linear(d, base, s) }, refScaledFreq(d, base, posenc.LinearScaling(s)),
			func(got []float64) *Hint {
				return firstMatch(got, sameVec(1e-9),
					v{hintLinearMultiplied, freqWithBase(d, base, 1/s)},
					v{hintScaledIntDiv, constFreq(d, 1/s)},
					v{hintScaledIntDiv, constFreq(d, s)})
			})
	}
	ntkCase := func(d int, base, s float64) Case {
		return vecCase(fmt.Sprintf("ntk_d=%d_factor=%g", d, s), fmt.Sprintf("NTKInvFreq(d=%d, base=%g, factor=%g)", d, base, s),
			func() []float64 { return ntk(d, base, s) }, refScaledFreq(d, base, posenc.NTKScaling(s)),
			func(got []float64) *Hint {
				e := float64(d) / float64(d-2)
				return firstMatch(got, sameVec(1e-9),
					v{hintScaledIntDiv, constFreq(d, 1)},
					v{hintNTKExponent, freqWithBase(d, base*s, 1)},
					v{hintNTKInverseExponent, freqWithBase(d, base*math.Pow(s, 1/e), 1)},
					v{hintNTKIsLinear, freqWithBase(d, base, s)})
			})
	}
	dynCase := func(d int, base, s float64, l0, seq int) Case {
		return vecCase(fmt.Sprintf("dynamic_d=%d_seq=%d", d, seq),
			fmt.Sprintf("DynamicNTKInvFreq(d=%d, base=%g, factor=%g, originalLen=%d, seqLen=%d)", d, base, s, l0, seq),
			func() []float64 { return dynamic(d, base, s, l0, seq) },
			refScaledFreq(d, base, posenc.DynamicNTKScaling(s, l0, seq)),
			func(got []float64) *Hint {
				e := float64(d) / float64(d-2)
				grown := func(r float64) float64 { return s*math.Max(r, 1) - (s - 1) }
				if seq < l0 && slices.ContainsFunc(got, math.IsNaN) {
					// s·L/L₀ − (s−1) < 0 without the max, and a negative base gives NaN.
					return hintDynamicMax
				}
				variants := func(seq int) []v {
					ratio := float64(seq) / float64(l0)
					return []v{
						{hintScaledIntDiv, constFreq(d, 1)},
						{hintDynamicMax, freqWithBase(d, base*math.Pow(s*ratio-(s-1), e), 1)},
						{hintDynamicIntDiv, freqWithBase(d, base*math.Pow(grown(float64(max(seq, l0)/l0)), e), 1)},
						{hintDynamicStatic, freqWithBase(d, base*math.Pow(s, e), 1)},
						{hintDynamicOffset, freqWithBase(d, base*math.Pow(s*math.Max(ratio, 1), e), 1)},
						{hintNTKExponent, freqWithBase(d, base*grown(ratio), 1)},
					}
				}
				// Up to originalLen the static factor and the one without −(s−1)
				// coincide: twice originalLen tells them apart.
				return narrow(matchAll(got, sameVec(1e-9), variants(seq)...), func() []*Hint {
					return matchAll(dynamic(d, base, s, l0, 2*l0), sameVec(1e-9), variants(2*l0)...)
				})
			})
	}
	return newExercise(9, []Case{
		linCase(16, 10000, 4),
		linCase(10, 500000, 2.5),
		ntkCase(16, 10000, 4),
		ntkCase(128, 500000, 8),
		ntkCase(6, 10000, 3),
		{Name: "ntk_keeps_the_highest_divides_the_lowest", Call: "NTKInvFreq(d=64, base=10000, factor=4)", Run: func() *Failure {
			got, plain := ntk(64, 10000, 4), freqWithBase(64, 10000, 1)
			if msg := lenMsg("NTKInvFreq(d=64, base=10000, factor=4)", got, 32); msg != "" {
				return fail(hintNTKFallback, msg)
			}
			if closeTo(got[0], 1, 1e-12) && closeTo(got[31], plain[31]/4, 1e-9) {
				return nil
			}
			hint := firstMatch(got, sameVec(1e-9), v{hintScaledIntDiv, constFreq(64, 1)}, v{hintNTKExponent, freqWithBase(64, 40000, 1)},
				v{hintNTKIsLinear, freqWithBase(64, 10000, 4)})
			return fail(orElse(hint, hintNTKFallback),
				fmt.Sprintf("NTKInvFreq(d=64, base=10000, factor=4): θ_0 = %s (want 1: the fastest pair is kept) and "+
					"θ_31 = %s (want %s: the slowest pair is interpolated by exactly 4).", fmtNum(got[0]), fmtNum(got[31]), fmtNum(plain[31]/4)))
		}},
		dynCase(64, 10000, 2, 2048, 8192),
		dynCase(64, 10000, 2, 2048, 5000),
		dynCase(64, 10000, 2, 2048, 1000),
		dynCase(32, 10000, 4, 4096, 4096),
	})
}
