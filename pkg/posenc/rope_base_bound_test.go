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

func TestRoPEBaseLowerBound(t *testing.T) {
	prev := 0.0
	for _, L := range []int{256, 1024, 4096} {
		b, err := RoPEBaseLowerBound(128, L)
		if err != nil {
			t.Fatal(err)
		}
		// The property holds at the bound and fails at every base of the
		// grid below it.
		at, _, _ := MinLongTermDecay(NewRoPE(128).WithBase(b), L)
		if at < 0 {
			t.Errorf("L %d: bound %v gives min B %v; want ≥ 0", L, b, at)
		}
		for g := 2.0; g < b/1.01; g *= 1.01 {
			if below, _, _ := MinLongTermDecay(NewRoPE(128).WithBase(g), L); below >= 0 {
				t.Fatalf("L %d: base %v < bound %v already has min B %v ≥ 0", L, g, b, below)
			}
		}
		if b <= prev {
			t.Errorf("L %d: bound %v not above the shorter context's %v", L, b, prev)
		}
		prev = b
	}
	_, err := RoPEBaseLowerBound(7, 100)
	wantParamError(t, err, "head_dim", "7")
	_, err = RoPEBaseLowerBound(8, 0)
	wantParamError(t, err, "context_len", "0")
}
