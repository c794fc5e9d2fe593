package posenc

import (
	"fmt"
	"testing"
)

// swapByPairs exchanges the members of every pair of x (see RoPE.Pair).
func swapByPairs(x []float64, r RoPE) []float64 {
	out := append([]float64(nil), x...)
	for i := range r.Rot() / 2 {
		a, b := r.Pair(i)
		out[a], out[b] = x[b], x[a]
	}
	return out
}

func TestRoPEPair(t *testing.T) {
	for _, tc := range []struct {
		r         RoPE
		i, wa, wb int
	}{
		{NewRoPE(8), 0, 0, 1},
		{NewRoPE(8), 3, 6, 7},
		{NewRoPE(8).WithLayout(Halves), 0, 0, 4},
		{NewRoPE(8).WithLayout(Halves), 3, 3, 7},
		{NewRoPE(12).WithRotaryDim(8).WithLayout(Halves), 1, 1, 5}, // pairs split the rotary part, not the head
		{NewRoPE(10).WithRotaryDim(4), 1, 2, 3},
	} {
		if a, b := tc.r.Pair(tc.i); a != tc.wa || b != tc.wb {
			t.Errorf("%s Pair(%d) = %d, %d; want %d, %d", ropeName(tc.r), tc.i, a, b, tc.wa, tc.wb)
		}
	}
}

// TestRoPETablesToRotates checks x⊙C + swap(x)⊙S against the reference
// rotations (Hugging Face's rotate_half, Meta's complex product; see
// referenceRoPE) and, for scaled frequencies and YaRN's attention factor,
// against RotateTo.
func TestRoPETablesToRotates(t *testing.T) {
	rng := newRand(31)
	configs := append([]RoPE{
		NewRoPE(16).WithScaling(YaRNScaling(4, 64)),
		NewRoPE(16).WithLayout(Halves).WithScaling(Llama3Scaling(8, 64)),
	}, ropeConfigs...)
	for _, r := range configs {
		for _, start := range []int{0, 1000} {
			const n = 5
			hd := r.HeadDim
			c, s := make([]float64, n*hd), make([]float64, n*hd)
			if err := RoPETablesTo(c, s, r, start); err != nil {
				t.Fatal(err)
			}
			for p := range n {
				x := randSlice[float64](rng, hd)
				sw := swapByPairs(x, r)
				got := make([]float64, hd)
				for j := range got {
					got[j] = x[j]*c[p*hd+j] + sw[j]*s[p*hd+j]
				}
				var want []float64
				if r.Scaling.Kind == ScalingNone {
					want = referenceRoPE(x, r, start+p)
				} else {
					want = make([]float64, hd)
					if err := RotateTo(want, x, r, start+p); err != nil {
						t.Fatal(err)
					}
				}
				assertClose(t, fmt.Sprintf("%s start %d row %d", ropeName(r), start, p), got, want, 1e-12)
				for j := r.Rot(); j < hd; j++ {
					if c[p*hd+j] != 1 || s[p*hd+j] != 0 {
						t.Errorf("%s: pass-through dim %d: C, S = %v, %v; want 1, 0", ropeName(r), j, c[p*hd+j], s[p*hd+j])
					}
				}
			}
		}
	}
}

func TestRoPETablesToBadInput(t *testing.T) {
	r := NewRoPE(4)
	for _, tc := range []struct {
		name, param, value string
		c, s               []float64
		r                  RoPE
		start              int
	}{
		{"empty", "len(c)", "0", nil, nil, r, 0},
		{"not a multiple", "len(c)", "6", make([]float64, 6), make([]float64, 6), r, 0},
		{"s shorter", "len(s)", "4", make([]float64, 8), make([]float64, 4), r, 0},
		{"negative start", "start", "-1", make([]float64, 8), make([]float64, 8), r, -1},
		{"past 2^40", "start", "1099511627775", make([]float64, 8), make([]float64, 8), r, 1<<40 - 1},
		{"odd head_dim", "head_dim", "3", make([]float64, 6), make([]float64, 6), NewRoPE(3), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantParamError(t, RoPETablesTo(tc.c, tc.s, tc.r, tc.start), tc.param, tc.value)
		})
	}
}
