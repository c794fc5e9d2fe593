package exercises

import (
	"fmt"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

var exLlama3 = exInfo{file: "exercises/11_llama3.go", funcs: "Llama3InvFreq", lesson: "lesson 5, context extension"}

func TestLlama3(t *testing.T) { runExercise(t, exLlama3, llama3Cases(Llama3InvFreq)) }

var (
	hintLlama3Wavelength = newHint("llama3/wavelength",
		"the wavelength of pair i is 2π/θ_i positions (one full turn), not 1/θ_i: without the 2π every band "+
			"boundary moves (lesson 5, “Llama 3: the same idea, in wavelengths”).")
	hintLlama3Bands = newHint("llama3/bands swapped",
		"your bands are swapped: short wavelengths (λ < L/4, fast pairs) keep θ_i, and long ones (λ > L) are "+
			"divided by the factor (lesson 5, “Llama 3: the same idea, in wavelengths”).")
	hintLlama3Smooth = newHint("llama3/blend reversed",
		"the blend in the middle band is reversed: θ' = (1 − smooth)·θ/s + smooth·θ with smooth = (L/λ − 1)/3, so "+
			"smooth → 1 (keep θ) as the wavelength shrinks to L/4 (lesson 5, “Llama 3: the same idea, in wavelengths”).")
	hintLlama3Linear = newHint("llama3/all interpolated",
		"you divided every frequency by the factor, which is linear interpolation: Llama 3 keeps the fast pairs "+
			"and blends in between (lesson 5, “Llama 3: the same idea, in wavelengths”).")
)

// refLlama3 computes the Llama 3 rule with variants.
func refLlama3(d int, base, s float64, l0 int, twoPi float64, swapBands, swapSmooth bool) []float64 {
	l := float64(l0)
	out := make([]float64, d/2)
	for i := range out {
		w := math.Pow(base, -float64(2*i)/float64(d))
		lam := twoPi / w
		fast, slow := lam < l/4, lam > l
		if swapBands {
			fast, slow = slow, fast
		}
		switch {
		case fast:
			out[i] = w
		case slow:
			out[i] = w / s
		default:
			sm := (l/lam - 1) / 3
			if swapSmooth {
				sm = 1 - sm
			}
			out[i] = (1-sm)*w/s + sm*w
		}
	}
	return out
}

func llama3Cases(fn func(d int, base, factor float64, originalLen int) []float64) []exCase {
	check := func(d int, base, s float64, l0 int) exCase {
		type v = exVariant[[]float64]
		return exVecCheck{
			name: fmt.Sprintf("d=%d_base=%g_factor=%g", d, base, s),
			call: fmt.Sprintf("Llama3InvFreq(d=%d, base=%g, factor=%g, originalLen=%d)", d, base, s, l0),
			got:  func() []float64 { return fn(d, base, s, l0) },
			want: refScaledFreq(d, base, posenc.Llama3Scaling(s, l0)), tol: 1e-9, label: exLabel("pair"),
			diag: func(got []float64) string {
				return diagFirst(got, exSameVec(1e-9),
					v{hintLlama3Wavelength, refLlama3(d, base, s, l0, 1, false, false)},
					v{hintLlama3Bands, refLlama3(d, base, s, l0, 2*math.Pi, true, false)},
					v{hintLlama3Smooth, refLlama3(d, base, s, l0, 2*math.Pi, false, true)},
					v{hintLlama3Linear, refFreqWithBase(d, base, s)})
			},
			fallback: "compute each pair's wavelength 2π/θ_i and pick its band: keep, divide by the factor, or blend " +
				"(lesson 5, “Llama 3: the same idea, in wavelengths”).",
		}.exCase()
	}
	return []exCase{
		check(128, 500000, 8, 8192),
		check(64, 10000, 4, 2048),
		check(32, 10000, 2, 512),
	}
}
