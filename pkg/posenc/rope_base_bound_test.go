package posenc

import (
	"math"
	"testing"
)

// decayDirect is B(m) = Σ_i cos(m·ω_i) written out, the definition of Men
// et al. 2024 (section 4, the long-term decay of RoPE).
func decayDirect(freq []float64, m int) float64 {
	b := 0.0
	for _, w := range freq {
		b += math.Cos(float64(m) * w)
	}
	return b
}

func TestMinLongTermDecay(t *testing.T) {
	for _, r := range []RoPE{NewRoPE(128), NewRoPE(64).WithBase(500), NewRoPE(128).WithScaling(ProportionalScaling(0.25))} {
		freq, _ := r.InvFreq()
		const L = 3000
		want, wantAt := float64(len(freq)), 0
		for m := 0; m <= L; m++ {
			if b := decayDirect(freq, m); b < want {
				want, wantAt = b, m
			}
		}
		got, at, err := MinLongTermDecay(r, L)
		if err != nil || math.Abs(got-want) > 1e-10 || at != wantAt {
			t.Errorf("%+v: MinLongTermDecay = %v at %d, %v; want %v at %d", r, got, at, err, want, wantAt)
		}
	}
	_, _, err := MinLongTermDecay(NewRoPE(8), -1)
	wantParamError(t, err, "max_dist", "-1")
}

// minDecayDirect is min over m in [0, L] of decayDirect.
func minDecayDirect(d int, base float64, L int) float64 {
	freq, _ := NewRoPE(d).WithBase(base).InvFreq()
	out := float64(d / 2)
	for m := 1; m <= L; m++ {
		out = min(out, decayDirect(freq, m))
	}
	return out
}

// TestRoPEBaseLowerBound checks the bound against the definition, written
// out: it holds at the base returned, and fails at every base of a grid
// below it (relative steps of 1e-4 over the octave below the bound, far
// finer than the 1% grid that missed narrow windows; 1e-2 further down).
func TestRoPEBaseLowerBound(t *testing.T) {
	for _, c := range []struct{ d, L int }{{16, 200}, {32, 300}, {64, 256}} {
		b, err := RoPEBaseLowerBound(c.d, c.L)
		if err != nil {
			t.Fatal(err)
		}
		if got := minDecayDirect(c.d, b, c.L); got < 0 {
			t.Errorf("d %d, L %d: bound %v gives min B %v; want ≥ 0", c.d, c.L, b, got)
		}
		for g := 2.0; g < b*(1-RoPEBaseBoundTol); {
			if below := minDecayDirect(c.d, g, c.L); below >= 0 {
				t.Fatalf("d %d, L %d: base %v < bound %v has min B %v ≥ 0", c.d, c.L, g, b, below)
			}
			if g < b/2 {
				g *= 1.01
			} else {
				g *= 1.0001
			}
		}
	}
	_, err := RoPEBaseLowerBound(7, 100)
	wantParamError(t, err, "head_dim", "7")
	_, err = RoPEBaseLowerBound(8, 0)
	wantParamError(t, err, "context_len", "0")
}

// TestRoPEBaseLowerBoundNotMonotone: the property is not monotone in the
// base. Above the smallest good base for heads of 64 and 4,096 tokens lie
// bases that fail again; the 1% grid this search replaced returned 1.05e5
// because it stepped over the window of good bases just above 1.0007e5.
func TestRoPEBaseLowerBoundNotMonotone(t *testing.T) {
	b, err := RoPEBaseLowerBound(64, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if b < 1.0006e5 || b > 1.0008e5 {
		t.Errorf("bound %v; want about 1.0007e5", b)
	}
	if got, _, _ := MinLongTermDecay(NewRoPE(64).WithBase(b), 4096); got < 0 {
		t.Errorf("min B at the bound %v = %v; want ≥ 0", b, got)
	}
	fails := 0
	for base := b * 1.001; base < 1.05e5; base *= 1.001 {
		if got, _, _ := MinLongTermDecay(NewRoPE(64).WithBase(base), 4096); got < 0 {
			fails++
		}
	}
	if fails == 0 {
		t.Error("every base between the bound and 1.05e5 holds; the non-monotonicity this test documents is gone")
	}
}
