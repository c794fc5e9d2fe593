package posenc

import (
	"math"
	"testing"
)

// TestBadInput checks that every host entry point answers bad sizes,
// configurations and positions with a *ParamError reading
// "posenc: <param> <reason>, got <value>", and never panics.
func TestBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	s8 := NewSinusoidal(8)
	r8 := NewRoPE(8)
	cache10, err := NewRoPECache(r8, 10)
	if err != nil {
		t.Fatal(err)
	}
	f32 := func(n int) []float32 { return make([]float32, n) }
	f64 := func(n int) []float64 { return make([]float64, n) }
	rotate := func(r RoPE) error { n := max(r.HeadDim, 0); return RotateTo(f64(n), f64(n), r, 0) }
	withScaling := func(sc Scaling) error { return rotate(NewRoPE(8).WithScaling(sc)) }
	slopes4, _ := ALiBiSlopes(4)
	bucket := func(tb T5Buckets) error { _, err := tb.Bucket(0); return err }

	for _, tc := range []struct {
		name, param, value string
		call               func() error
	}{
		// Sinusoidal tables.
		{"odd dim", "dim", "7", func() error { return SinusoidalTo(f32(14), NewSinusoidal(7), 0) }},
		{"zero dim", "dim", "0", func() error { return SinusoidalTo(f32(8), NewSinusoidal(0), 0) }},
		{"negative dim", "dim", "-4", func() error { return SinusoidalTo(f32(8), NewSinusoidal(-4), 0) }},
		{"base 1", "base", "1", func() error { return SinusoidalTo(f32(8), s8.WithBase(1), 0) }},
		{"base below 1", "base", "0.5", func() error { return SinusoidalTo(f32(8), s8.WithBase(0.5), 0) }},
		{"base NaN", "base", "NaN", func() error { return SinusoidalTo(f32(8), s8.WithBase(nan), 0) }},
		{"base +Inf", "base", "+Inf", func() error { return SinusoidalTo(f64(8), s8.WithBase(inf), 0) }},
		{"zero base (zero value)", "base", "0", func() error { return SinusoidalTo(f32(8), Sinusoidal{Dim: 8}, 0) }},
		{"unknown layout", "layout", "5", func() error { return SinusoidalTo(f32(8), s8.WithLayout(Layout(5)), 0) }},
		{"unknown spacing", "spacing", "9", func() error { return SinusoidalTo(f32(8), Sinusoidal{Dim: 8, Base: 10, Spacing: 9}, 0) }},
		{"negative start", "start", "-1", func() error { return SinusoidalTo(f32(8), s8, -1) }},
		{"start past 2^40", "start", "1099511627777", func() error { return SinusoidalTo(f32(8), s8, 1<<40+1) }},
		{"last row past 2^40", "start", "1099511627775", func() error { return SinusoidalTo(f32(16), s8, 1<<40-1) }},
		{"empty dst", "len(dst)", "0", func() error { return SinusoidalTo(f32(0), s8, 0) }},
		{"dst not a multiple of dim", "len(dst)", "12", func() error { return SinusoidalTo(f64(12), s8, 0) }},
		{"table n 0", "n", "0", func() error { _, err := SinusoidalTable[float32](s8, 0, 0); return err }},
		{"table n -3", "n", "-3", func() error { _, err := SinusoidalTable[float32](s8, 0, -3); return err }},
		{"table too big", "n×dim", "[1073741824 8]", func() error { _, err := SinusoidalTable[float32](s8, 0, 1<<30); return err }},
		{"table odd dim", "dim", "3", func() error { _, err := SinusoidalTable[float64](NewSinusoidal(3), 0, 2); return err }},
		{"add: dst and emb lengths", "len(dst)", "8", func() error { return AddSinusoidalTo(f32(8), f32(16), s8, 0, true) }},
		{"add: nil emb", "len(dst)", "8", func() error { return AddSinusoidalTo(f32(8), nil, s8, 0, false) }},
		{"add: empty", "len(dst)", "0", func() error { return AddSinusoidalTo(f32(0), f32(0), s8, 0, false) }},
		{"add: odd dim", "dim", "5", func() error { return AddSinusoidalTo(f32(10), f32(10), NewSinusoidal(5), 0, true) }},
		{"add: negative start", "start", "-2", func() error { return AddSinusoidalTo(f32(8), f32(8), s8, -2, false) }},
		{"shift: odd dim", "dim", "9", func() error { _, err := ShiftMatrix(NewSinusoidal(9), 1); return err }},
		{"shift: huge k", "k", "-1099511627777", func() error { _, err := ShiftMatrix(s8, -(1<<40)-1); return err }},
		{"frequencies: absurd dim", "dim", "1099511627776", func() error { _, err := NewSinusoidal(1 << 40).Frequencies(); return err }},
		{"shift: absurd dim", "dim×dim", "[1048576 1048576]", func() error { _, err := ShiftMatrix(NewSinusoidal(1<<20), 1); return err }},
		{"frequencies: base NaN", "base", "NaN", func() error { _, err := s8.WithBase(nan).Frequencies(); return err }},

		// RoPE configuration.
		{"rope head_dim 0", "head_dim", "0", func() error { return rotate(NewRoPE(0)) }},
		{"rope head_dim -8", "head_dim", "-8", func() error { return rotate(RoPE{HeadDim: -8, Base: 10000}) }},
		{"rope odd head_dim", "head_dim", "7", func() error { return rotate(NewRoPE(7)) }},
		{"rope rotary_dim > head_dim", "rotary_dim", "10", func() error { return rotate(r8.WithRotaryDim(10)) }},
		{"rope negative rotary_dim", "rotary_dim", "-2", func() error { return rotate(r8.WithRotaryDim(-2)) }},
		{"rope odd rotary_dim", "rotary_dim", "3", func() error { return rotate(r8.WithRotaryDim(3)) }},
		{"rope base 1", "base", "1", func() error { return rotate(r8.WithBase(1)) }},
		{"rope base 0", "base", "0", func() error { return rotate(RoPE{HeadDim: 8}) }},
		{"rope base NaN", "base", "NaN", func() error { return rotate(r8.WithBase(nan)) }},
		{"rope base -Inf", "base", "-Inf", func() error { return rotate(r8.WithBase(-inf)) }},
		{"rope layout", "layout", "2", func() error { return rotate(r8.WithLayout(2)) }},
		{"unknown scaling", "scaling", "9", func() error { return withScaling(Scaling{Kind: 9, Factor: 2}) }},
		{"factor NaN", "factor", "NaN", func() error { return withScaling(LinearScaling(nan)) }},
		{"factor +Inf", "factor", "+Inf", func() error { return withScaling(NTKScaling(inf)) }},
		{"factor < 1", "factor", "0.5", func() error { return withScaling(LinearScaling(0.5)) }},
		{"factor 0", "factor", "0", func() error { return withScaling(Scaling{Kind: ScalingYaRN, OriginalLen: 10}) }},
		{"ntk on 2 dims", "rotary_dim", "2", func() error { return rotate(NewRoPE(2).WithScaling(NTKScaling(2))) }},
		{"dynamic original_len 0", "original_len", "0", func() error { return withScaling(DynamicNTKScaling(2, 0, 10)) }},
		{"dynamic original_len huge", "original_len", "1099511627777", func() error { return withScaling(DynamicNTKScaling(2, 1<<40+1, 10)) }},
		{"dynamic negative seq_len", "seq_len", "-1", func() error { return withScaling(DynamicNTKScaling(2, 100, -1)) }},
		{"yarn original_len -5", "original_len", "-5", func() error { return withScaling(YaRNScaling(2, -5)) }},
		{"yarn beta_fast NaN", "beta_fast", "NaN", func() error {
			return withScaling(Scaling{Kind: ScalingYaRN, Factor: 2, OriginalLen: 64, BetaFast: nan})
		}},
		{"yarn negative beta_slow", "beta_slow", "-1", func() error {
			return withScaling(Scaling{Kind: ScalingYaRN, Factor: 2, OriginalLen: 64, BetaSlow: -1})
		}},
		{"yarn beta_fast <= beta_slow", "beta_fast", "2", func() error {
			return withScaling(Scaling{Kind: ScalingYaRN, Factor: 2, OriginalLen: 64, BetaFast: 2, BetaSlow: 4})
		}},
		{"yarn attention_factor +Inf", "attention_factor", "+Inf", func() error {
			return withScaling(Scaling{Kind: ScalingYaRN, Factor: 2, OriginalLen: 64, AttentionFactor: inf})
		}},
		{"llama3 original_len 0", "original_len", "0", func() error { return withScaling(Llama3Scaling(8, 0)) }},
		{"llama3 high <= low", "high_freq_factor", "2", func() error {
			return withScaling(Scaling{Kind: ScalingLlama3, Factor: 8, OriginalLen: 8192, LowFreqFactor: 2, HighFreqFactor: 2})
		}},
		{"llama3 low NaN", "low_freq_factor", "NaN", func() error {
			return withScaling(Scaling{Kind: ScalingLlama3, Factor: 8, OriginalLen: 8192, LowFreqFactor: nan})
		}},
		{"llama3 negative high", "high_freq_factor", "-4", func() error {
			return withScaling(Scaling{Kind: ScalingLlama3, Factor: 8, OriginalLen: 8192, HighFreqFactor: -4})
		}},
		{"invfreq absurd head_dim", "head_dim", "1099511627776", func() error { _, err := NewRoPE(1 << 40).InvFreq(); return err }},
		{"perm absurd head_dim", "head_dim", "4611686018427387904", func() error { _, err := LayoutPermutation(1<<62, 0, Interleaved, Halves); return err }},
		{"invfreq odd head_dim", "head_dim", "5", func() error { _, err := NewRoPE(5).InvFreq(); return err }},

		// RotateTo sizes and positions.
		{"rotate negative pos", "pos", "-1", func() error { return RotateTo(f64(8), f64(8), r8, -1) }},
		{"rotate pos past 2^40", "pos", "1099511627777", func() error { return RotateTo(f64(8), f64(8), r8, 1<<40+1) }},
		{"rotate len(x)", "len(x)", "7", func() error { return RotateTo(f64(8), f64(7), r8, 0) }},
		{"rotate len(dst)", "len(dst)", "16", func() error { return RotateTo(f32(16), f32(8), r8, 0) }},

		// RoPE caches.
		{"cache max_len 0", "max_len", "0", func() error { _, err := NewRoPECache(r8, 0); return err }},
		{"cache max_len past 2^40", "max_len", "1099511627777", func() error { _, err := NewRoPECache(r8, 1<<40+1); return err }},
		{"cache too big", "max_len×rotary_dim/2", "[1073741824 32]", func() error { _, err := NewRoPECache(NewRoPE(64), 1<<30); return err }},
		{"cache bad rope", "factor", "0.5", func() error { _, err := NewRoPECache(r8.WithScaling(LinearScaling(0.5)), 4); return err }},
		{"apply nil cache", "cache", "nil", func() error { return ApplyRoPETo(f32(8), f32(8), nil, 1, 0) }},
		{"apply seq_len 0", "seq_len", "0", func() error { return ApplyRoPETo(f32(8), f32(8), cache10, 0, 0) }},
		{"apply negative start", "start", "-1", func() error { return ApplyRoPETo(f32(8), f32(8), cache10, 1, -1) }},
		{"apply past the cache", "start+seq_len", "11", func() error { return ApplyRoPETo(f32(16), f32(16), cache10, 2, 9) }},
		{"apply len(x)", "len(x)", "24", func() error { return ApplyRoPETo(f32(24), f32(24), cache10, 2, 0) }},
		{"apply empty x", "len(x)", "0", func() error { return ApplyRoPETo(f32(0), f32(0), cache10, 1, 0) }},
		{"apply len(dst)", "len(dst)", "8", func() error { return ApplyRoPETo(f32(8), f32(16), cache10, 2, 0) }},
		{"at nil cache", "cache", "nil", func() error { return ApplyRoPEAtTo(f64(8), f64(8), nil, []int{0}) }},
		{"at no positions", "len(positions)", "0", func() error { return ApplyRoPEAtTo(f64(8), f64(8), cache10, nil) }},
		{"at position past the cache", "positions[1]", "10", func() error { return ApplyRoPEAtTo(f64(16), f64(16), cache10, []int{0, 10}) }},
		{"at negative position", "positions[0]", "-1", func() error { return ApplyRoPEAtTo(f64(16), f64(16), cache10, []int{-1, 0}) }},
		{"at len(x)", "len(x)", "8", func() error { return ApplyRoPEAtTo(f64(8), f64(8), cache10, []int{0, 1}) }},
		{"at len(dst)", "len(dst)", "15", func() error { return ApplyRoPEAtTo(f64(15), f64(16), cache10, []int{0, 1}) }},

		// Layout conversion.
		{"perm odd head_dim", "head_dim", "7", func() error { _, err := LayoutPermutation(7, 0, Interleaved, Halves); return err }},
		{"perm rotary_dim > head_dim", "rotary_dim", "12", func() error { _, err := LayoutPermutation(8, 12, Interleaved, Halves); return err }},
		{"perm bad from", "layout", "4", func() error { _, err := LayoutPermutation(8, 0, 4, Halves); return err }},
		{"perm bad to", "to", "3", func() error { _, err := LayoutPermutation(8, 0, Interleaved, 3); return err }},
		{"convert num_heads 0", "num_heads", "0", func() error { return ConvertQKWeightsTo(f32(8), f32(8), r8, Halves, 0, 1, 0) }},
		{"convert in_dim -1", "in_dim", "-1", func() error { return ConvertQKWeightsTo(f32(8), f32(8), r8, Halves, 1, -1, 0) }},
		{"convert out_axis 2", "out_axis", "2", func() error { return ConvertQKWeightsTo(f32(8), f32(8), r8, Halves, 1, 1, 2) }},
		{"convert len(w)", "len(w)", "8", func() error { return ConvertQKWeightsTo(f32(16), f32(8), r8, Halves, 1, 2, 0) }},
		{"convert len(dst)", "len(dst)", "15", func() error { return ConvertQKWeightsTo(f32(15), f32(16), r8, Halves, 1, 2, 1) }},
		{"convert too big", "num_heads×head_dim×in_dim", "[1048576 8 4096]", func() error {
			return ConvertQKWeightsTo(f32(8), f32(8), r8, Halves, 1<<20, 4096, 0)
		}},

		// ALiBi.
		{"slopes heads 0", "heads", "0", func() error { _, err := ALiBiSlopes(0); return err }},
		{"slopes heads -3", "heads", "-3", func() error { _, err := ALiBiSlopes(-3); return err }},
		{"slopes too many heads", "heads", "65537", func() error { _, err := ALiBiSlopes(65537); return err }},
		{"bias no slopes", "len(slopes)", "0", func() error { return ALiBiBiasTo(f32(4), nil, 2, 2, true) }},
		{"bias NaN slope", "slopes[1]", "NaN", func() error { return ALiBiBiasTo(f32(8), []float64{1, nan}, 2, 2, true) }},
		{"bias Inf slope", "slopes[0]", "+Inf", func() error { return ALiBiBiasTo(f32(4), []float64{inf}, 2, 2, true) }},
		{"bias q_len 0", "q_len", "0", func() error { return ALiBiBiasTo(f32(4), slopes4, 0, 2, false) }},
		{"bias k_len -1", "k_len", "-1", func() error { return ALiBiBiasTo(f32(4), slopes4, 1, -1, false) }},
		{"bias q_len > k_len", "q_len", "5", func() error { return ALiBiBiasTo(f32(80), slopes4, 5, 4, false) }},
		{"bias len(dst)", "len(dst)", "15", func() error { return ALiBiBiasTo(f64(15), slopes4, 2, 2, true) }},
		{"bias too big", "heads×q_len×k_len", "[4 65536 65536]", func() error { return ALiBiBiasTo(f32(4), slopes4, 1<<16, 1<<16, true) }},
		{"ALiBiBias heads 0", "heads", "0", func() error { _, err := ALiBiBias[float32](0, 4, true); return err }},
		{"ALiBiBias n 0", "n", "0", func() error { _, err := ALiBiBias[float32](4, 0, true); return err }},
		{"ALiBiBias too big", "heads×n×n", "[8 65536 65536]", func() error { _, err := ALiBiBias[float32](8, 1<<16, true); return err }},

		// T5 buckets.
		{"t5 num_buckets 3 bidirectional", "num_buckets", "3", func() error { return bucket(T5Buckets{NumBuckets: 3, MaxDistance: 10, Bidirectional: true}) }},
		{"t5 num_buckets 1 causal", "num_buckets", "1", func() error { return bucket(T5Buckets{NumBuckets: 1, MaxDistance: 10}) }},
		{"t5 num_buckets 0", "num_buckets", "0", func() error { return bucket(T5Buckets{MaxDistance: 10}) }},
		{"t5 too many buckets", "num_buckets", "1048577", func() error { return bucket(T5Buckets{NumBuckets: 1<<20 + 1, MaxDistance: 1 << 21}) }},
		{"t5 max_distance within exact range", "max_distance", "8", func() error { return bucket(T5Buckets{NumBuckets: 32, MaxDistance: 8, Bidirectional: true}) }},
		{"t5 max_distance past 2^40", "max_distance", "1099511627777", func() error { return bucket(T5Buckets{NumBuckets: 32, MaxDistance: 1<<40 + 1}) }},
		{"t5 rel past 2^40", "rel", "-1099511627777", func() error { _, err := NewT5Buckets().Bucket(-(1 << 40) - 1); return err }},
		{"t5 q_len 0", "q_len", "0", func() error { return NewT5Buckets().BucketsTo(make([]int32, 4), 0, 4) }},
		{"t5 k_len -2", "k_len", "-2", func() error { return NewT5Buckets().BucketsTo(make([]int32, 4), 2, -2) }},
		{"t5 len(dst)", "len(dst)", "5", func() error { return NewT5Buckets().BucketsTo(make([]int32, 5), 2, 2) }},
		{"t5 too big", "q_len×k_len", "[65536 65536]", func() error { return NewT5Buckets().BucketsTo(nil, 1<<16, 1<<16) }},
		{"t5 sides past 2^40", "q_len×k_len", "[1 1099511627777]", func() error { return NewT5Buckets().BucketsTo(nil, 1, 1<<40+1) }},

		// Learned tables.
		{"learned max_len 0", "max_len", "0", func() error { return NewLearned(0, 8).Validate() }},
		{"learned dim -1", "dim", "-1", func() error { return NewLearned(8, -1).Validate() }},
		{"learned too big", "max_len×dim", "[1048576 4096]", func() error { return NewLearned(1<<20, 4096).Validate() }},
		{"learned position past the table", "positions[2]", "512", func() error { return NewLearned(512, 8).CheckPositions([]int{0, 1, 512}) }},
		{"learned negative position", "positions[0]", "-1", func() error { return NewLearned(512, 8).CheckPositions([]int{-1}) }},
		{"lookup past the table", "positions[0]", "4", func() error { return LearnedLookupTo(f32(3), f32(12), NewLearned(4, 3), []int{4}) }},
		{"lookup len(table)", "len(table)", "11", func() error { return LearnedLookupTo(f32(3), f32(11), NewLearned(4, 3), []int{1}) }},
		{"lookup len(dst)", "len(dst)", "4", func() error { return LearnedLookupTo(f32(4), f32(12), NewLearned(4, 3), []int{1}) }},
		{"lookup bad table config", "dim", "0", func() error { return LearnedLookupTo(f32(0), f32(0), NewLearned(4, 0), nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v; want a *ParamError", r)
					}
				}()
				err = tc.call()
			}()
			wantParamError(t, err, tc.param, tc.value)
		})
	}
}

// TestBadInputLeavesDstAlone: entry points validate everything before
// writing, so a rejected call leaves dst as it was.
func TestBadInputLeavesDstAlone(t *testing.T) {
	dst := []float32{7, 7, 7, 7, 7, 7, 7, 7}
	cache, _ := NewRoPECache(NewRoPE(4), 4)
	for i, err := range []error{
		SinusoidalTo(dst, NewSinusoidal(8).WithBase(math.NaN()), 0),
		AddSinusoidalTo(dst, dst, NewSinusoidal(8), -1, true),
		ApplyRoPETo(dst, dst, cache, 2, 3),
		ApplyRoPEAtTo(dst, dst, cache, []int{0, 4}),
		ALiBiBiasTo(dst, []float64{1, 2}, 3, 2, false),
		RotateTo(dst, dst, NewRoPE(8), -1),
	} {
		if err == nil {
			t.Fatalf("call %d: err = nil; want a *ParamError", i)
		}
	}
	for i, v := range dst {
		if v != 7 {
			t.Fatalf("dst[%d] = %v after rejected calls; want 7", i, v)
		}
	}
}
