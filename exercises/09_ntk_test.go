package exercises

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exNTK = exInfo{file: "exercises/09_ntk.go", funcs: "LinearInvFreq, NTKInvFreq and DynamicNTKInvFreq",
	lesson: "lesson 5, context extension"}

func TestNTK(t *testing.T) {
	runExercise(t, exNTK, ntkCases(LinearInvFreq, NTKInvFreq, DynamicNTKInvFreq))
}

var (
	hintLinearMultiplied = newHint("linear/multiplied",
		"you multiplied the frequencies by the factor: interpolation divides them, θ_i/s, so that the longer context "+
			"turns through the angles the model was trained on (lesson 5, “Position interpolation: divide every frequency by s”).")
	hintNTKExponent = newHint("ntk/exponent dropped",
		"the NTK exponent d/(d−2) is missing: the base becomes base·s^(d/(d−2)), not base·s. With it, the lowest "+
			"frequency is divided by exactly s while the highest stays 1 (lesson 5, “NTK-aware scaling: change the base, not the positions”).")
	hintNTKIsLinear = newHint("ntk/interpolated every frequency",
		"you divided every frequency by s, which is linear interpolation: NTK-aware scaling changes the base instead, "+
			"so high frequencies are kept and only low ones shrink (lesson 5, “NTK-aware scaling: change the base, not the positions”).")
	hintDynamicMax = newHint("dynamic/no max",
		"for sequences shorter than originalLen the frequencies must be the unscaled ones: use "+
			"L = max(seqLen, originalLen), so that the factor s·L/L₀ − (s−1) never drops below 1 (lesson 5, “Dynamic NTK: let the base grow with the input”).")
	hintDynamicStatic = newHint("dynamic/static factor",
		"you used the static NTK factor s: dynamic NTK grows the factor with the sequence, "+
			"s·L/L₀ − (s−1) with L = max(seqLen, originalLen) (lesson 5, “Dynamic NTK: let the base grow with the input”).")
	hintDynamicOffset = newHint("dynamic/missing −(s−1)",
		"the dynamic factor is s·L/L₀ − (s−1): without the −(s−1) it starts at s instead of 1 when L = L₀ "+
			"(lesson 5, “Dynamic NTK: let the base grow with the input”).")
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

// refFreqWithBase returns b^(−2i/d), divided by div.
func refFreqWithBase(d int, b, div float64) []float64 {
	f := make([]float64, d/2)
	for i := range f {
		f[i] = math.Pow(b, -float64(2*i)/float64(d)) / div
	}
	return f
}

func ntkCases(linear, ntk func(d int, base, factor float64) []float64,
	dynamic func(d int, base, factor float64, originalLen, seqLen int) []float64) []exCase {
	const fallback = "compute the frequencies base^(−2i/d) first, then apply the scaling (lesson 5, “What a pair has seen”)."
	type v = exVariant[[]float64]
	vecCase := func(name, call string, got func() []float64, want []float64, diag func([]float64) string) exCase {
		return exVecCheck{name: name, call: call, got: got, want: want, tol: 1e-9,
			label: exLabel("pair"), diag: diag, fallback: fallback}.exCase()
	}
	linCase := func(d int, base, s float64) exCase {
		return vecCase(fmt.Sprintf("linear_d=%d_factor=%g", d, s), fmt.Sprintf("LinearInvFreq(d=%d, base=%g, factor=%g)", d, base, s),
			func() []float64 { return linear(d, base, s) }, refScaledFreq(d, base, posenc.LinearScaling(s)),
			func(got []float64) string {
				return diagFirst(got, exSameVec(1e-9), v{hintLinearMultiplied, refFreqWithBase(d, base, 1/s)})
			})
	}
	ntkCase := func(d int, base, s float64) exCase {
		return vecCase(fmt.Sprintf("ntk_d=%d_factor=%g", d, s), fmt.Sprintf("NTKInvFreq(d=%d, base=%g, factor=%g)", d, base, s),
			func() []float64 { return ntk(d, base, s) }, refScaledFreq(d, base, posenc.NTKScaling(s)),
			func(got []float64) string {
				e := float64(d) / float64(d-2)
				return diagFirst(got, exSameVec(1e-9),
					v{hintNTKExponent, refFreqWithBase(d, base*s, 1)},
					v{hintNTKExponent, refFreqWithBase(d, base*math.Pow(s, 1/e), 1)},
					v{hintNTKIsLinear, refFreqWithBase(d, base, s)})
			})
	}
	dynCase := func(d int, base, s float64, l0, seq int) exCase {
		return vecCase(fmt.Sprintf("dynamic_d=%d_seq=%d", d, seq),
			fmt.Sprintf("DynamicNTKInvFreq(d=%d, base=%g, factor=%g, originalLen=%d, seqLen=%d)", d, base, s, l0, seq),
			func() []float64 { return dynamic(d, base, s, l0, seq) },
			refScaledFreq(d, base, posenc.DynamicNTKScaling(s, l0, seq)),
			func(got []float64) string {
				e := float64(d) / float64(d-2)
				ratio := float64(seq) / float64(l0)
				if seq < l0 && slices.ContainsFunc(got, math.IsNaN) {
					// s·L/L₀ − (s−1) < 0 without the max, and a negative base gives NaN.
					return hintDynamicMax
				}
				return diagFirst(got, exSameVec(1e-9),
					v{hintDynamicMax, refFreqWithBase(d, base*math.Pow(s*ratio-(s-1), e), 1)},
					v{hintDynamicStatic, refFreqWithBase(d, base*math.Pow(s, e), 1)},
					v{hintDynamicOffset, refFreqWithBase(d, base*math.Pow(s*math.Max(ratio, 1), e), 1)},
					v{hintNTKExponent, refFreqWithBase(d, base*(s*math.Max(ratio, 1)-(s-1)), 1)})
			})
	}
	return []exCase{
		linCase(16, 10000, 4),
		ntkCase(16, 10000, 4),
		ntkCase(128, 500000, 8),
		{name: "ntk_keeps_the_highest_divides_the_lowest", call: "NTKInvFreq(d=64, base=10000, factor=4)", run: func() string {
			got, plain := ntk(64, 10000, 4), refFreqWithBase(64, 10000, 1)
			if msg := checkLen("NTKInvFreq(d=64, base=10000, factor=4)", got, 32); msg != "" {
				return exMsg("", fallback, msg)
			}
			if exClose(got[0], 1, 1e-12) && exClose(got[31], plain[31]/4, 1e-9) {
				return ""
			}
			return exMsg(diagFirst(got, exSameVec(1e-9), v{hintNTKExponent, refFreqWithBase(64, 40000, 1)},
				v{hintNTKIsLinear, refFreqWithBase(64, 10000, 4)}), fallback,
				fmt.Sprintf("NTKInvFreq(d=64, base=10000, factor=4): θ_0 = %s (want 1: the fastest pair is kept) and "+
					"θ_31 = %s (want %s: the slowest pair is interpolated by exactly 4).", exFmt(got[0]), exFmt(got[31]), exFmt(plain[31]/4)))
		}},
		dynCase(64, 10000, 2, 2048, 8192),
		dynCase(64, 10000, 2, 2048, 1000),
		dynCase(32, 10000, 4, 4096, 4096),
	}
}
