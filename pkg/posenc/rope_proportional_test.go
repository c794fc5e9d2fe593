package posenc

import (
	"math"
	"testing"
)

// hfProportionalInvFreq is a float64 transcription of Hugging Face
// transformers' _compute_proportional_rope_parameters
// (src/transformers/models/../modeling_rope_utils.py, v5.24.0):
//
//	rope_angles = int(rope_proportion * head_dim // 2)
//	inv_freq_rotated = 1.0 / (base ** (torch.arange(0, 2 * rope_angles, 2) / head_dim))
//	nope_angles = head_dim // 2 - rope_angles
//	inv_freq = torch.cat((inv_freq_rotated, torch.zeros(nope_angles)))
//	inv_freq /= factor
func hfProportionalInvFreq(headDim int, proportion, base, factor float64) []float64 {
	ropeAngles := int(math.Floor(proportion * float64(headDim) / 2))
	out := make([]float64, 0, headDim/2)
	for i := 0; i < 2*ropeAngles; i += 2 {
		out = append(out, 1.0/math.Pow(base, float64(i)/float64(headDim)))
	}
	for range headDim/2 - ropeAngles {
		out = append(out, 0)
	}
	for i := range out {
		out[i] /= factor
	}
	return out
}

func TestProportionalMatchesHuggingFace(t *testing.T) {
	cases := []struct {
		name              string
		headDim           int
		proportion, base  float64
		factor            float64
		wantRotated       int
		wantLastRotatedOm float64 // ω of the last rotating pair, for the eye
	}{
		// Gemma 4's global layers: head_dim 512, partial_rotary_factor 0.25.
		{"gemma4-global", 512, 0.25, 1e6, 1, 64, math.Pow(1e6, -126.0/512)},
		{"quarter-128", 128, 0.25, 10000, 1, 16, math.Pow(1e4, -30.0/128)},
		{"half-with-factor", 64, 0.5, 10000, 4, 16, math.Pow(1e4, -30.0/64) / 4},
		{"all", 16, 1, 10000, 1, 8, math.Pow(1e4, -14.0/16)},
		{"none", 16, 0, 10000, 1, 0, 0},
		{"floor", 12, 0.3, 10000, 1, 1, 1}, // 0.3·12/2 = 1.8 → 1 pair
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := ProportionalScaling(c.proportion)
			sc.Factor = c.factor
			r := NewRoPE(c.headDim).WithBase(c.base).WithScaling(sc)
			got, err := r.InvFreq()
			if err != nil {
				t.Fatal(err)
			}
			want := hfProportionalInvFreq(c.headDim, c.proportion, c.base, c.factor)
			if len(got) != len(want) {
				t.Fatalf("len = %d; want %d", len(got), len(want))
			}
			for i := range want {
				if !relClose(got[i], want[i], 1e-14) {
					t.Errorf("inv_freq[%d] = %v; want %v", i, got[i], want[i])
				}
			}
			if n := r.RotatedPairs(); n != c.wantRotated {
				t.Errorf("RotatedPairs() = %d; want %d", n, c.wantRotated)
			}
			if c.wantRotated > 0 && !relClose(got[c.wantRotated-1], c.wantLastRotatedOm, 1e-14) {
				t.Errorf("last rotating ω = %v; want %v", got[c.wantRotated-1], c.wantLastRotatedOm)
			}
		})
	}
}

// p-RoPE keeps full RoPE's highest frequencies; partial rotary over the same
// number of pairs spreads its frequencies down to base^(−(d'−2)/d'), as slow
// as full RoPE's slowest pair. Only the first pair coincides.
func TestProportionalIsNotPartialRotary(t *testing.T) {
	full, _ := NewRoPE(128).InvFreq()
	prope, _ := NewRoPE(128).WithScaling(ProportionalScaling(0.25)).InvFreq()
	partial, _ := NewRoPE(128).WithRotaryDim(32).InvFreq()
	for i := range 16 {
		if !relClose(prope[i], full[i], 1e-15) {
			t.Errorf("p-RoPE ω[%d] = %v; want full RoPE's %v", i, prope[i], full[i])
		}
	}
	if !relClose(partial[15], math.Pow(1e4, -30.0/32), 1e-14) || partial[15] >= prope[15]/100 {
		t.Errorf("partial ω[15] = %v, p-RoPE ω[15] = %v: partial's slowest pair should be far slower", partial[15], prope[15])
	}
}

// Pairs past RotatedPairs pass through RotateTo unchanged at any position;
// the others rotate exactly as full RoPE's.
func TestProportionalRotation(t *testing.T) {
	for _, layout := range []Layout{Interleaved, Halves} {
		p := NewRoPE(16).WithLayout(layout).WithScaling(ProportionalScaling(0.25))
		full := NewRoPE(16).WithLayout(layout)
		x := make([]float64, 16)
		for i := range x {
			x[i] = float64(i) - 7.5
		}
		gotP, gotF := make([]float64, 16), make([]float64, 16)
		for _, pos := range []int{0, 1, 37, 100000} {
			if err := RotateTo(gotP, x, p, pos); err != nil {
				t.Fatal(err)
			}
			if err := RotateTo(gotF, x, full, pos); err != nil {
				t.Fatal(err)
			}
			for i := range 8 {
				a, b := p.Pair(i)
				wa, wb := x[a], x[b]
				if i < p.RotatedPairs() {
					wa, wb = gotF[a], gotF[b]
				}
				if gotP[a] != wa || gotP[b] != wb {
					t.Errorf("%v pos %d pair %d = (%v, %v); want (%v, %v)", layout, pos, i, gotP[a], gotP[b], wa, wb)
				}
			}
		}
	}
}

func TestProportionalBadInput(t *testing.T) {
	for _, c := range []struct {
		sc           Scaling
		param, value string
	}{
		{ProportionalScaling(1.5), "proportion", "1.5"},
		{ProportionalScaling(-0.25), "proportion", "-0.25"},
		{ProportionalScaling(math.NaN()), "proportion", "NaN"},
		{Scaling{Kind: ScalingProportional, Proportion: 0.5, Factor: 0.5}, "factor", "0.5"},
	} {
		_, err := NewRoPE(8).WithScaling(c.sc).InvFreq()
		wantParamError(t, err, c.param, c.value)
	}
	// A zero Factor means 1, as HF's rope_parameters.get("factor", 1.0).
	got, err := NewRoPE(8).WithScaling(Scaling{Kind: ScalingProportional, Proportion: 0.5}).InvFreq()
	if err != nil || got[0] != 1 || got[2] != 0 {
		t.Errorf("factor 0: %v, %v; want [1 0.01 0 0]", got, err)
	}
}
