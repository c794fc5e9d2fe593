package posenc

import (
	"math"
	"testing"
)

// hfRopeConfig holds what Hugging Face's rope-parameter functions read
// from a model config: rope_theta, the rotary dim (head_dim ×
// partial_rotary_factor), max_position_embeddings and the rope_scaling
// dictionary. Pointers are optional keys (None when nil).
type hfRopeConfig struct {
	ropeType              string
	base                  float64
	dim                   int
	maxPositionEmbeddings int // the trained length: posenc's OriginalLen
	factor                float64
	seqLen                int // dynamic only; 0 means None
	attentionFactor       *float64
	betaFast, betaSlow    *float64
	lowFreqFactor         float64
	highFreqFactor        float64
}

// hfRopeParameters is a float64 transcription of the
// _compute_{default,linear_scaling,ntk,dynamic_ntk,yarn,llama3}_parameters
// functions of Hugging Face transformers, src/transformers/modeling_rope_utils.py,
// statement by statement (torch.arange → loops, torch.where → if).
func hfRopeParameters(c hfRopeConfig) (invFreq []float64, attentionFactor float64) {
	arangeOver := func(dim int) []float64 { // torch.arange(0, dim, 2).float() / dim
		out := make([]float64, 0, dim/2)
		for i := 0; i < dim; i += 2 {
			out = append(out, float64(i)/float64(dim))
		}
		return out
	}
	defaultParams := func(base float64, dim int) []float64 {
		// inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2) / dim))
		exps := arangeOver(dim)
		inv := make([]float64, len(exps))
		for i, e := range exps {
			inv[i] = 1.0 / math.Pow(base, e)
		}
		return inv
	}
	base, dim, factor := c.base, c.dim, c.factor
	switch c.ropeType {
	case "default":
		return defaultParams(base, dim), 1.0
	case "linear":
		inv := defaultParams(base, dim)
		for i := range inv {
			inv[i] /= factor // inv_freq /= factor
		}
		return inv, 1.0
	case "ntk":
		// base = base * factor ** (dim / (dim - 2))
		base = base * math.Pow(factor, float64(dim)/float64(dim-2))
		return defaultParams(base, dim), 1.0
	case "dynamic":
		maxPos := c.maxPositionEmbeddings
		// seq_len = seq_len if seq_len is not None and seq_len > max_position_embeddings else max_position_embeddings
		seqLen := maxPos
		if c.seqLen != 0 && c.seqLen > maxPos {
			seqLen = c.seqLen
		}
		// base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
		base = base * math.Pow(factor*float64(seqLen)/float64(maxPos)-(factor-1), float64(dim)/float64(dim-2))
		return defaultParams(base, dim), 1.0
	case "yarn":
		maxPos := float64(c.maxPositionEmbeddings)
		var af float64
		if c.attentionFactor == nil {
			af = 0.1*math.Log(factor) + 1.0
		} else {
			af = *c.attentionFactor
		}
		betaFast, betaSlow := 32.0, 1.0 // rope_scaling.get("beta_fast") or 32, … or 1
		if c.betaFast != nil && *c.betaFast != 0 {
			betaFast = *c.betaFast
		}
		if c.betaSlow != nil && *c.betaSlow != 0 {
			betaSlow = *c.betaSlow
		}
		findCorrectionDim := func(numRotations float64) float64 {
			return (float64(dim) * math.Log(maxPos/(numRotations*2*math.Pi))) / (2 * math.Log(base))
		}
		low := math.Max(math.Floor(findCorrectionDim(betaFast)), 0)
		high := math.Min(math.Ceil(findCorrectionDim(betaSlow)), float64(dim-1))
		linearRampFactor := func(lo, hi float64, n int) []float64 {
			if lo == hi {
				hi += 0.001 // Prevent singularity
			}
			ramp := make([]float64, n)
			for i := range ramp {
				ramp[i] = math.Min(math.Max((float64(i)-lo)/(hi-lo), 0), 1) // torch.clamp(…, 0, 1)
			}
			return ramp
		}
		exps := arangeOver(dim)
		ramp := linearRampFactor(low, high, dim/2)
		inv := make([]float64, len(exps))
		for i, e := range exps {
			posFreq := math.Pow(base, e)
			invExtrapolation := 1.0 / posFreq
			invInterpolation := 1.0 / (factor * posFreq)
			extrapolationFactor := 1 - ramp[i]
			inv[i] = invInterpolation*(1-extrapolationFactor) + invExtrapolation*extrapolationFactor
		}
		return inv, af
	case "llama3":
		inv := defaultParams(base, dim)
		oldContextLen := float64(c.maxPositionEmbeddings)
		lowFreqWavelen := oldContextLen / c.lowFreqFactor
		highFreqWavelen := oldContextLen / c.highFreqFactor
		out := make([]float64, len(inv))
		for i, f := range inv {
			wavelen := 2 * math.Pi / f
			// inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
			llama := f
			if wavelen > lowFreqWavelen {
				llama = f / factor
			}
			smoothFactor := (oldContextLen/wavelen - c.lowFreqFactor) / (c.highFreqFactor - c.lowFreqFactor)
			smoothed := (1-smoothFactor)*llama/factor + smoothFactor*llama
			isMediumFreq := !(wavelen < highFreqWavelen) && !(wavelen > lowFreqWavelen)
			if isMediumFreq {
				llama = smoothed
			}
			out[i] = llama
		}
		return out, 1.0
	}
	panic("unknown rope type " + c.ropeType)
}

func ptr(v float64) *float64 { return &v }

func TestInvFreqMatchesHuggingFace(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    RoPE
		hf   hfRopeConfig
	}{
		{"default d128", NewRoPE(128),
			hfRopeConfig{ropeType: "default", base: 10000, dim: 128}},
		{"default partial 128→64 base 1e6", NewRoPE(128).WithRotaryDim(64).WithBase(1e6),
			hfRopeConfig{ropeType: "default", base: 1e6, dim: 64}},
		{"linear d128 factor 4", NewRoPE(128).WithScaling(LinearScaling(4)),
			hfRopeConfig{ropeType: "linear", base: 10000, dim: 128, factor: 4}},
		{"linear partial 80→32 factor 2.5", NewRoPE(80).WithRotaryDim(32).WithScaling(LinearScaling(2.5)),
			hfRopeConfig{ropeType: "linear", base: 10000, dim: 32, factor: 2.5}},
		{"ntk d128 factor 4", NewRoPE(128).WithScaling(NTKScaling(4)),
			hfRopeConfig{ropeType: "ntk", base: 10000, dim: 128, factor: 4}},
		{"ntk partial 96→24 factor 8", NewRoPE(96).WithRotaryDim(24).WithScaling(NTKScaling(8)),
			hfRopeConfig{ropeType: "ntk", base: 10000, dim: 24, factor: 8}},
		{"dynamic d128 factor 4 orig 4096 at 16384", NewRoPE(128).WithScaling(DynamicNTKScaling(4, 4096, 16384)),
			hfRopeConfig{ropeType: "dynamic", base: 10000, dim: 128, factor: 4, maxPositionEmbeddings: 4096, seqLen: 16384}},
		{"dynamic d128 factor 4 orig 4096 at 1000", NewRoPE(128).WithScaling(DynamicNTKScaling(4, 4096, 1000)),
			hfRopeConfig{ropeType: "dynamic", base: 10000, dim: 128, factor: 4, maxPositionEmbeddings: 4096, seqLen: 1000}},
		{"dynamic partial 64→32 at 5000", NewRoPE(64).WithRotaryDim(32).WithScaling(DynamicNTKScaling(2, 2048, 5000)),
			hfRopeConfig{ropeType: "dynamic", base: 10000, dim: 32, factor: 2, maxPositionEmbeddings: 2048, seqLen: 5000}},
		{"yarn d128 factor 4 orig 4096", NewRoPE(128).WithScaling(YaRNScaling(4, 4096)),
			hfRopeConfig{ropeType: "yarn", base: 10000, dim: 128, factor: 4, maxPositionEmbeddings: 4096}},
		{"yarn zero betas mean defaults", NewRoPE(128).WithScaling(Scaling{Kind: ScalingYaRN, Factor: 4, OriginalLen: 4096}),
			hfRopeConfig{ropeType: "yarn", base: 10000, dim: 128, factor: 4, maxPositionEmbeddings: 4096}},
		{"yarn custom betas 16/2 and attention factor", NewRoPE(128).WithBase(500000).WithScaling(
			Scaling{Kind: ScalingYaRN, Factor: 16, OriginalLen: 8192, BetaFast: 16, BetaSlow: 2, AttentionFactor: 1.25}),
			hfRopeConfig{ropeType: "yarn", base: 500000, dim: 128, factor: 16, maxPositionEmbeddings: 8192,
				betaFast: ptr(16), betaSlow: ptr(2), attentionFactor: ptr(1.25)}},
		{"yarn partial 128→64 factor 8 orig 2048", NewRoPE(128).WithRotaryDim(64).WithScaling(YaRNScaling(8, 2048)),
			hfRopeConfig{ropeType: "yarn", base: 10000, dim: 64, factor: 8, maxPositionEmbeddings: 2048}},
		{"yarn zero-width ramp (orig 6)", NewRoPE(32).WithScaling(YaRNScaling(2, 6)),
			hfRopeConfig{ropeType: "yarn", base: 10000, dim: 32, factor: 2, maxPositionEmbeddings: 6}},
		{"llama3 factor 8 orig 8192 low 1 high 4", NewRoPE(128).WithBase(500000).WithScaling(Llama3Scaling(8, 8192)),
			hfRopeConfig{ropeType: "llama3", base: 500000, dim: 128, factor: 8, maxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4}},
		{"llama3 zero bands mean defaults", NewRoPE(128).WithBase(500000).WithScaling(Scaling{Kind: ScalingLlama3, Factor: 8, OriginalLen: 8192}),
			hfRopeConfig{ropeType: "llama3", base: 500000, dim: 128, factor: 8, maxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4}},
		{"llama3 factor 32 orig 8192 low 2 high 8 partial", NewRoPE(128).WithRotaryDim(64).WithBase(500000).WithScaling(
			Scaling{Kind: ScalingLlama3, Factor: 32, OriginalLen: 8192, LowFreqFactor: 2, HighFreqFactor: 8}),
			hfRopeConfig{ropeType: "llama3", base: 500000, dim: 64, factor: 32, maxPositionEmbeddings: 8192, lowFreqFactor: 2, highFreqFactor: 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantAF := hfRopeParameters(tc.hf)
			got, err := tc.r.InvFreq()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("len(InvFreq()) = %d; want %d", len(got), len(want))
			}
			for i := range got {
				if !relClose(got[i], want[i], 1e-13) {
					t.Errorf("InvFreq()[%d] = %.17g; want %.17g (HF)", i, got[i], want[i])
				}
			}
			if gotAF := tc.r.AttentionFactor(); !relClose(gotAF, wantAF, 1e-15) {
				t.Errorf("AttentionFactor() = %v; want %v (HF)", gotAF, wantAF)
			}
		})
	}
}

// TestScalingProperties checks what each scaling is for, independently of
// HF's code.
func TestScalingProperties(t *testing.T) {
	base, _ := NewRoPE(128).InvFreq()
	last := len(base) - 1
	get := func(sc Scaling) []float64 {
		f, err := NewRoPE(128).WithScaling(sc).InvFreq()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// Linear: every frequency divided by s.
	for i, f := range get(LinearScaling(4)) {
		if !relClose(f, base[i]/4, 1e-15) {
			t.Errorf("linear[%d] = %v; want %v", i, f, base[i]/4)
		}
	}
	// NTK-aware: the highest frequency kept, the lowest divided by exactly s.
	ntk := get(NTKScaling(4))
	if ntk[0] != 1 || !relClose(ntk[last], base[last]/4, 1e-13) {
		t.Errorf("ntk: first %v, last %v; want 1 and %v", ntk[0], ntk[last], base[last]/4)
	}
	// Dynamic at or below the trained length is no scaling; at s·L₀ it is
	// the static NTK base of factor s·s − (s − 1).
	for i, f := range get(DynamicNTKScaling(4, 4096, 4096)) {
		if !relClose(f, base[i], 1e-15) {
			t.Errorf("dynamic at L₀ [%d] = %v; want %v", i, f, base[i])
		}
	}
	dyn, ntk13 := get(DynamicNTKScaling(4, 4096, 4*4096)), get(NTKScaling(13))
	for i := range dyn {
		if !relClose(dyn[i], ntk13[i], 1e-13) {
			t.Errorf("dynamic at 4·L₀ [%d] = %v; want NTK(13) %v", i, dyn[i], ntk13[i])
		}
	}
	// YaRN and Llama 3: high frequencies kept, low ones interpolated.
	for _, sc := range []Scaling{YaRNScaling(8, 4096), Llama3Scaling(8, 4096)} {
		f := get(sc)
		if f[0] != base[0] || !relClose(f[last], base[last]/8, 1e-13) {
			t.Errorf("%v: first %v, last %v; want %v and %v", sc.Kind, f[0], f[last], base[0], base[last]/8)
		}
		for i := range f {
			if f[i] > base[i]*(1+1e-15) || f[i] < base[i]/8*(1-1e-15) {
				t.Errorf("%v[%d] = %v outside [ω/8, ω] = [%v, %v]", sc.Kind, i, f[i], base[i]/8, base[i])
			}
		}
	}
	// YaRN's factor multiplies both cos and sin.
	r := NewRoPE(16).WithScaling(YaRNScaling(4, 64))
	cache, _ := NewRoPECache(r, 50)
	af := 0.1*math.Log(4) + 1
	for i := range cache.Cos() {
		c, s := cache.Cos()[i], cache.Sin()[i]
		if !relClose(c*c+s*s, af*af, 1e-14) {
			t.Fatalf("cos² + sin² = %v; want (0.1·ln 4 + 1)² = %v", c*c+s*s, af*af)
		}
	}
	for _, sc := range []Scaling{{}, LinearScaling(4), NTKScaling(4), Llama3Scaling(8, 8192)} {
		if got := NewRoPE(16).WithScaling(sc).AttentionFactor(); got != 1 {
			t.Errorf("%v: AttentionFactor() = %v; want 1", sc.Kind, got)
		}
	}
	if got := NewRoPE(16).WithScaling(YaRNScaling(1, 64)).AttentionFactor(); got != 1 {
		t.Errorf("YaRN factor 1: AttentionFactor() = %v; want 1", got)
	}
}

func TestScalingKindNames(t *testing.T) {
	for k := ScalingNone; k <= ScalingProportional; k++ {
		got, err := ParseScalingKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseScalingKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if got := ScalingKind(42).String(); got != "ScalingKind(42)" {
		t.Errorf("ScalingKind(42).String() = %q", got)
	}
	_, err := ParseScalingKind("rope2")
	wantParamError(t, err, "scaling", "rope2")
}
