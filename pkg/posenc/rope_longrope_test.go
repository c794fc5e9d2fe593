package posenc

import (
	"math"
	"testing"
)

// phi35Short and phi35Long are the first and last four of the 48 factors of
// microsoft/Phi-3.5-mini-instruct's config.json (testdata/configs), enough
// for a head of 16 dimensions with the middle filled from the same lists.
var (
	phi35Short = []float64{1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705,
		2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533}
	phi35Long = []float64{1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
		64.51000213623047, 64.52999877929688, 64.83999633789062, 64.83999633789062}
)

// hfLongRoPE is a float64 transcription of Hugging Face transformers'
// _compute_longrope_parameters (modeling_rope_utils.py, v5.24.0):
//
//	if attention_factor is None:
//	    attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))
//	ext_factors = long_factor if seq_len and seq_len > original_max_position_embeddings else short_factor
//	inv_freq_shape = torch.arange(0, dim, 2).float() / dim
//	inv_freq = 1.0 / (ext_factors * base**inv_freq_shape)
func hfLongRoPE(dim int, base, factor float64, orig, seqLen int, short, long []float64) ([]float64, float64) {
	af := 1.0
	if factor > 1 {
		af = math.Sqrt(1 + math.Log(factor)/math.Log(float64(orig)))
	}
	ext := short
	if seqLen != 0 && seqLen > orig {
		ext = long
	}
	inv := make([]float64, dim/2)
	for i := range inv {
		inv[i] = 1.0 / (ext[i] * math.Pow(base, float64(2*i)/float64(dim)))
	}
	return inv, af
}

func TestLongRoPEMatchesHuggingFace(t *testing.T) {
	for _, seqLen := range []int{0, 1, 4096, 4097, 131072} {
		sc := LongRoPEScaling(32, 4096, seqLen, phi35Short, phi35Long)
		r := NewRoPE(16).WithLayout(Halves).WithScaling(sc)
		got, err := r.InvFreq()
		if err != nil {
			t.Fatal(err)
		}
		want, wantAF := hfLongRoPE(16, 10000, 32, 4096, seqLen, phi35Short, phi35Long)
		for i := range want {
			if !relClose(got[i], want[i], 1e-15) {
				t.Errorf("seq %d: ω[%d] = %v; want %v", seqLen, i, got[i], want[i])
			}
		}
		if af := r.AttentionFactor(); !relClose(af, wantAF, 1e-15) {
			t.Errorf("seq %d: AttentionFactor() = %v; want %v", seqLen, af, wantAF)
		}
		if sc.UsesLongFactor() != (seqLen > 4096) {
			t.Errorf("seq %d: UsesLongFactor() = %v", seqLen, sc.UsesLongFactor())
		}
	}
	// Phi-3.5's attention factor: √(1 + ln 32 / ln 4096) = √(1 + 5/12).
	if af := NewRoPE(16).WithScaling(LongRoPEScaling(32, 4096, 0, phi35Short, phi35Long)).AttentionFactor(); !relClose(af, math.Sqrt(17.0/12), 1e-15) {
		t.Errorf("AttentionFactor() = %v; want √(17/12)", af)
	}
	sc := LongRoPEScaling(1, 4096, 0, phi35Short, phi35Long)
	if af := NewRoPE(16).WithScaling(sc).AttentionFactor(); af != 1 {
		t.Errorf("factor 1: AttentionFactor() = %v; want 1", af)
	}
	sc.AttentionFactor = 1.5
	if af := NewRoPE(16).WithScaling(sc).AttentionFactor(); af != 1.5 {
		t.Errorf("explicit: AttentionFactor() = %v; want 1.5", af)
	}
}

func TestLongRoPEBadInput(t *testing.T) {
	bad := append([]float64(nil), phi35Long...)
	bad[3] = 0
	for _, c := range []struct {
		sc           Scaling
		param, value string
	}{
		{LongRoPEScaling(32, 4096, 0, phi35Short[:7], phi35Long), "len(short_factor)", "7"},
		{LongRoPEScaling(32, 4096, 0, phi35Short, bad), "long_factor[3]", "0"},
		{LongRoPEScaling(32, 1, 0, phi35Short, phi35Long), "original_len", "1"},
		{LongRoPEScaling(0.5, 4096, 0, phi35Short, phi35Long), "factor", "0.5"},
		{LongRoPEScaling(32, 4096, -1, phi35Short, phi35Long), "seq_len", "-1"},
		{Scaling{Kind: ScalingLongRoPE, Factor: 32, OriginalLen: 4096}, "long_rope", "nil"},
	} {
		_, err := NewRoPE(16).WithScaling(c.sc).InvFreq()
		wantParamError(t, err, c.param, c.value)
	}
}

// hfYaRN is a float64 transcription of _compute_yarn_parameters
// (modeling_rope_utils.py, v5.24.0) with every option that shipped models
// set: attention_factor, mscale and mscale_all_dim, beta_fast and
// beta_slow, truncate.
func hfYaRN(dim int, base, factor float64, orig int, attn, mscale, mscaleAllDim, betaFast, betaSlow float64, truncate bool) ([]float64, float64) {
	getMScale := func(scale, m float64) float64 {
		if scale <= 1 {
			return 1
		}
		return 0.1*m*math.Log(scale) + 1
	}
	af := attn
	if af == 0 {
		if mscale != 0 && mscaleAllDim != 0 {
			af = getMScale(factor, mscale) / getMScale(factor, mscaleAllDim)
		} else {
			af = getMScale(factor, 1)
		}
	}
	corr := func(rot float64) float64 {
		return float64(dim) * math.Log(float64(orig)/(rot*2*math.Pi)) / (2 * math.Log(base))
	}
	low, high := corr(betaFast), corr(betaSlow)
	if truncate {
		low, high = math.Floor(low), math.Ceil(high)
	}
	low, high = math.Max(low, 0), math.Min(high, float64(dim-1))
	if low == high {
		high += 0.001
	}
	inv := make([]float64, dim/2)
	for i := range inv {
		pos := math.Pow(base, float64(2*i)/float64(dim))
		extra, inter := 1/pos, 1/(factor*pos)
		ramp := math.Min(math.Max((float64(i)-low)/(high-low), 0), 1)
		keep := 1 - ramp
		inv[i] = inter*(1-keep) + extra*keep
	}
	return inv, af
}

func TestYaRNAsShipped(t *testing.T) {
	cases := []struct {
		name     string
		dim      int
		base     float64
		sc       Scaling
		attn     float64
		truncate bool
		softmax  float64
	}{
		// DeepSeek-V3: qk_rope_head_dim 64, factor 40, mscale = mscale_all_dim = 1.
		{"deepseek-v3", 64, 10000, Scaling{Kind: ScalingYaRN, Factor: 40, OriginalLen: 4096, BetaFast: 32, BetaSlow: 1,
			MScale: 1, MScaleAllDim: 1}, 0, true, math.Pow(0.1*math.Log(40)+1, 2)},
		// DeepSeek-V2-style unequal mscales: the ratio goes on cos and sin.
		{"mscale-ratio", 64, 10000, Scaling{Kind: ScalingYaRN, Factor: 40, OriginalLen: 4096, MScale: 0.707, MScaleAllDim: 0.707 * 1.2},
			0, true, math.Pow(0.1*0.707*1.2*math.Log(40)+1, 2)},
		// gpt-oss: head_dim 64, base 150000, factor 32, truncate false.
		{"gpt-oss", 64, 150000, Scaling{Kind: ScalingYaRN, Factor: 32, OriginalLen: 4096, BetaFast: 32, BetaSlow: 1, NoTruncate: true},
			0, false, 1},
		{"explicit-attention", 128, 1e6, Scaling{Kind: ScalingYaRN, Factor: 4, OriginalLen: 32768, AttentionFactor: 1.25},
			1.25, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRoPE(c.dim).WithBase(c.base).WithScaling(c.sc)
			got, err := r.InvFreq()
			if err != nil {
				t.Fatal(err)
			}
			fast, slow := c.sc.betas()
			want, wantAF := hfYaRN(c.dim, c.base, c.sc.Factor, c.sc.OriginalLen, c.attn, c.sc.MScale, c.sc.MScaleAllDim, fast, slow, c.truncate)
			for i := range want {
				if !relClose(got[i], want[i], 1e-14) {
					t.Errorf("ω[%d] = %v; want %v", i, got[i], want[i])
				}
			}
			if af := r.AttentionFactor(); !relClose(af, wantAF, 1e-15) {
				t.Errorf("AttentionFactor() = %v; want %v", af, wantAF)
			}
			if s := r.SoftmaxScale(); !relClose(s, c.softmax, 1e-15) {
				t.Errorf("SoftmaxScale() = %v; want %v", s, c.softmax)
			}
		})
	}
	// Truncation changes the ramp: gpt-oss's frequencies differ with it.
	sc := Scaling{Kind: ScalingYaRN, Factor: 32, OriginalLen: 4096}
	a, _ := NewRoPE(64).WithBase(150000).WithScaling(sc).InvFreq()
	sc.NoTruncate = true
	b, _ := NewRoPE(64).WithBase(150000).WithScaling(sc).InvFreq()
	differ := 0
	for i := range a {
		if a[i] != b[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("truncate false changed no frequency")
	}
	_, err := NewRoPE(64).WithScaling(Scaling{Kind: ScalingYaRN, Factor: 4, OriginalLen: 64, MScale: -1}).InvFreq()
	wantParamError(t, err, "mscale", "-1")
}
