package posenc

import (
	"math"
	"strings"
	"testing"
)

// The fixtures' layer-by-layer meaning is checked against transformers in
// golden_test.go; these tests cover the reader's rules one at a time.

func mustParse(t *testing.T, cfg string) *ModelPositions {
	t.Helper()
	m, err := ParseHFConfig([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseHFConfigForms(t *testing.T) {
	// The older rope_scaling form and the newer rope_parameters form of the
	// same Llama 3.1 settings give the same RoPE.
	old := mustParse(t, `{"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 256, "num_attention_heads": 2,
		"max_position_embeddings": 131072, "rope_theta": 500000.0, "vocab_size": 128256,
		"rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
		"original_max_position_embeddings": 8192, "rope_type": "llama3"}}`)
	neu := mustParse(t, `{"model_type": "llama", "num_hidden_layers": 2, "head_dim": 128,
		"max_position_embeddings": 131072, "rope_parameters": {"rope_theta": 500000.0, "factor": 8.0,
		"low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}}`)
	if *old.Layers[1].RoPE != *neu.Layers[1].RoPE {
		t.Errorf("rope_scaling %+v ≠ rope_parameters %+v", *old.Layers[1].RoPE, *neu.Layers[1].RoPE)
	}
	want := NewRoPE(128).WithBase(500000).WithLayout(Halves).WithScaling(Scaling{Kind: ScalingLlama3, Factor: 8,
		OriginalLen: 8192, LowFreqFactor: 1, HighFreqFactor: 4})
	if *old.Layers[0].RoPE != want || old.TrainedLen != 8192 || old.MaxPositions != 131072 {
		t.Errorf("got %+v, trained %d; want %+v, 8192", *old.Layers[0].RoPE, old.TrainedLen, want)
	}

	// Gemma 3's older form: rope_scaling applies to the global layers only,
	// rope_local_base_freq to the sliding ones.
	g := mustParse(t, `{"model_type": "gemma3_text", "num_hidden_layers": 2, "head_dim": 256, "max_position_embeddings": 131072,
		"layer_types": ["sliding_attention", "full_attention"], "sliding_window": 1024,
		"rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}`)
	if r := g.Layers[0].RoPE; r.Base != 1e4 || r.Scaling.Kind != ScalingNone || g.Layers[0].Window != 1024 {
		t.Errorf("sliding layer: %+v, window %d; want base 1e4, no scaling, 1024", *r, g.Layers[0].Window)
	}
	if r := g.Layers[1].RoPE; r.Base != 1e6 || r.Scaling != LinearScaling(8) || g.Layers[1].Window != 0 {
		t.Errorf("global layer: %+v; want base 1e6, linear ×8", *r)
	}

	// Nested rope_parameters with a null entry: that layer type has no RoPE.
	n := mustParse(t, `{"model_type": "x", "num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 4096,
		"layer_types": ["sliding_attention", "full_attention"], "sliding_window": 128,
		"rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}, "full_attention": null}}`)
	if n.Layers[0].RoPE == nil || n.Layers[1].RoPE != nil {
		t.Errorf("null entry: layers %+v", n.Layers)
	}

	// A multimodal config is read through its text_config.
	mm := mustParse(t, `{"model_type": "outer", "text_config": {"model_type": "inner", "num_hidden_layers": 1,
		"head_dim": 8, "max_position_embeddings": 16, "rope_theta": 100.0}}`)
	if mm.ModelType != "inner" || mm.Layers[0].RoPE.Base != 100 {
		t.Errorf("text_config: %+v", mm)
	}

	// Partial rotary (GPT-NeoX, Phi-2): the rotated width is the denominator.
	p := mustParse(t, `{"model_type": "phi", "num_hidden_layers": 1, "hidden_size": 2560, "num_attention_heads": 32,
		"max_position_embeddings": 2048, "rope_theta": 10000.0, "partial_rotary_factor": 0.4}`)
	if r := p.Layers[0].RoPE; r.HeadDim != 80 || r.Rot() != 32 || r.RotatedPairs() != 16 {
		t.Errorf("partial: %+v", *r)
	}
}

func TestParseHFConfigLlama4Temperature(t *testing.T) {
	m := mustParse(t, `{"model_type": "llama4_text", "num_hidden_layers": 4, "head_dim": 128, "max_position_embeddings": 131072,
		"rope_theta": 500000.0, "no_rope_layers": [1, 1, 1, 0], "no_rope_layer_interval": 4, "attention_chunk_size": 8192,
		"layer_types": ["chunked_attention", "chunked_attention", "chunked_attention", "full_attention"],
		"attn_temperature_tuning": true, "attn_scale": 0.1, "floor_scale": 8192}`)
	for i, l := range m.Layers {
		nope := i == 3
		if (l.RoPE == nil) != nope || (l.Temperature != nil) != nope {
			t.Errorf("layer %d: RoPE %v, temperature %v", i, l.RoPE, l.Temperature)
		}
	}
	if m.Layers[0].Window != 8192 {
		t.Errorf("chunk %d; want 8192", m.Layers[0].Window)
	}
	temp := *m.Layers[3].Temperature
	// log(⌊(p+1)/8192⌋ + 1)·0.1 + 1: 1 before position 8191, then log-growing.
	for _, c := range []struct {
		pos  int
		want float64
	}{{0, 1}, {8190, 1}, {8191, 0.1*math.Log(2) + 1}, {131071, 0.1*math.Log(17) + 1}} {
		if got := temp.At(c.pos); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("At(%d) = %v; want %v", c.pos, got, c.want)
		}
	}
}

func TestParseHFConfigErrors(t *testing.T) {
	const base = `"model_type": "llama", "num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 4096`
	cases := []struct {
		name, cfg    string
		param, value string
	}{
		{"not json", `{`, "config", "invalid JSON"},
		{"unknown rope_type", `{` + base + `, "rope_theta": 1e4, "rope_scaling": {"rope_type": "rope2", "factor": 2}}`, "rope_scaling.rope_type", "rope2"},
		{"missing factor", `{` + base + `, "rope_theta": 1e4, "rope_scaling": {"rope_type": "linear"}}`, "rope_scaling.factor", "missing"},
		{"unknown position field", `{` + base + `, "rope_theta": 1e4, "rope_magic": 3}`, "rope_magic", "3"},
		{"both forms", `{` + base + `, "rope_theta": 1e4, "rope_scaling": {"rope_type": "default"}, "rope_parameters": {"rope_type": "default"}}`, "rope_scaling", "map[rope_type:default]"},
		{"layer_types length", `{` + base + `, "rope_theta": 1e4, "layer_types": ["full_attention"]}`, "layer_types", "[full_attention]"},
		{"unknown layer type", `{` + base + `, "rope_theta": 1e4, "layer_types": ["full_attention", "fancy_attention"]}`, "layer_types[1]", "fancy_attention"},
		{"no_rope_layers value", `{` + base + `, "rope_theta": 1e4, "no_rope_layers": [1, 2]}`, "no_rope_layers[1]", "2"},
		{"no_rope interval disagrees", `{` + base + `, "rope_theta": 1e4, "no_rope_layers": [0, 1], "no_rope_layer_interval": 2}`, "no_rope_layers[0]", "0"},
		{"sliding without window", `{` + base + `, "rope_theta": 1e4, "layer_types": ["full_attention", "sliding_attention"]}`, "sliding_window", "<nil>"},
		{"partial factor", `{` + base + `, "rope_theta": 1e4, "partial_rotary_factor": 1.5}`, "partial_rotary_factor", "1.5"},
		{"longrope length", `{` + base + `, "rope_theta": 1e4, "original_max_position_embeddings": 1024,
			"rope_scaling": {"type": "longrope", "short_factor": [1, 1], "long_factor": [1, 1]}}`, "len(short_factor)", "2"},
		{"temperature without switch", `{` + base + `, "rope_theta": 1e4, "attn_scale": 0.1}`, "attn_scale", "0.1"},
		{"decoupled head_dim", `{` + base + `, "rope_theta": 1e4, "qk_rope_head_dim": 32, "qk_nope_head_dim": 128}`, "head_dim", "64"},
		{"gemma4 two global heads", `{"model_type": "gemma4_text", "num_hidden_layers": 2, "head_dim": 256, "max_position_embeddings": 4096,
			"layer_types": ["full_attention", "full_attention"], "per_layer_config": {"00": {"head_dim": 512}, "01": {"head_dim": 384}},
			"rope_parameters": {"full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6}}}`, "per_layer_config", "384 512"},
		{"per-layer head elsewhere", `{` + base + `, "rope_theta": 1e4, "per_layer_config": {"0": {"head_dim": 32}}}`, "per_layer_config.0.head_dim", "32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseHFConfig([]byte(c.cfg))
			if err == nil {
				t.Fatalf("no error; want one naming %s", c.param)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.param+" ") || !strings.HasSuffix(msg, "got "+c.value) {
				t.Errorf("error %q; want it to name %s and end with got %s", msg, c.param, c.value)
			}
		})
	}
}
