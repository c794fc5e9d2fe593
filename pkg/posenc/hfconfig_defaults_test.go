package posenc

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// Line numbers below are those of transformers 5.25.0, the version the
// golden file is written with (scripts/golden/requirements.in).

// TestParseHFConfigPairLayout: the pair layout each model type is rotated
// with in transformers, with or without rope_interleave in its config.
func TestParseHFConfigPairLayout(t *testing.T) {
	const mla = `"num_hidden_layers": 1, "hidden_size": 2048, "num_attention_heads": 16, "max_position_embeddings": 4096,
		"qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "rope_theta": 10000.0`
	cases := []struct {
		name, cfg string
		want      Layout
		warns     bool
	}{
		// models/deepseek_v2/modeling_deepseek_v2.py:263, apply_rotary_emb:
		// torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2)),
		// adjacent pairs, and DeepseekV2Attention never reads rope_interleave.
		{"deepseek_v2", `{"model_type": "deepseek_v2", ` + mla + `}`, Interleaved, false},
		{"deepseek_v2 ignores rope_interleave", `{"model_type": "deepseek_v2", ` + mla + `, "rope_interleave": false}`, Interleaved, true},
		// models/deepseek_v3/configuration_deepseek_v3.py:115,
		// rope_interleave: bool | None = True; modeling_deepseek_v3.py:437,
		// if self.config.rope_interleave: apply_rotary_pos_emb_interleave.
		{"deepseek_v3 default", `{"model_type": "deepseek_v3", ` + mla + `}`, Interleaved, false},
		{"deepseek_v3 false", `{"model_type": "deepseek_v3", ` + mla + `, "rope_interleave": false}`, Halves, false},
		// models/llama4/modeling_llama4.py:233, apply_rotary_emb: view_as_complex.
		{"llama4", `{"model_type": "llama4_text", "num_hidden_layers": 1, "head_dim": 128, "max_position_embeddings": 4096, "rope_theta": 5e5}`, Interleaved, false},
		// models/cohere2/modeling_cohere2.py:144, rotate_half: x[..., ::2], x[..., 1::2].
		{"cohere2", `{"model_type": "cohere2", "num_hidden_layers": 1, "head_dim": 128, "max_position_embeddings": 4096,
			"rope_theta": 5e4, "layer_types": ["sliding_attention"], "sliding_window": 4096}`, Interleaved, false},
		// models/glm4/modeling_glm4.py:153, rotate_half: x[..., 0::2].
		{"glm4", `{"model_type": "glm4", "num_hidden_layers": 1, "head_dim": 128, "max_position_embeddings": 4096, "rope_theta": 1e4}`, Interleaved, false},
		// models/llama/modeling_llama.py rotate_half: halves; a rope_interleave
		// there is ignored by transformers, so here too, with a warning.
		{"llama", `{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 128, "max_position_embeddings": 4096, "rope_theta": 5e5}`, Halves, false},
		{"llama ignores rope_interleave", `{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 128, "max_position_embeddings": 4096,
			"rope_theta": 5e5, "rope_interleave": true}`, Halves, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustParse(t, c.cfg)
			if got := m.Layers[0].RoPE.Layout; got != c.want {
				t.Errorf("layout %v; transformers rotates %v", got, c.want)
			}
			if (len(m.Warnings) > 0) != c.warns || (c.warns && !strings.Contains(m.Warnings[0], "rope_interleave")) {
				t.Errorf("warnings %q; want a rope_interleave warning: %v", m.Warnings, c.warns)
			}
		})
	}
}

// TestParseHFConfigRequired: what transformers raises on is an error here,
// named by the field and where it was written; what it only warns about is
// a warning.
func TestParseHFConfigRequired(t *testing.T) {
	const base = `"model_type": "llama", "num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 4096`
	cases := []struct {
		name, cfg    string
		param, value string
	}{
		// modeling_rope_utils.py:982, _validate_yarn_rope_parameters:
		// required_keys = {"rope_type", "factor", ...}; :1170 raises
		// KeyError("Missing required keys in `rope_parameters` ...").
		{"yarn without factor", `{` + base + `, "rope_theta": 1e4, "rope_parameters": {"rope_type": "yarn", "original_max_position_embeddings": 1024}}`,
			"rope_parameters.factor", "missing"},
		{"yarn without factor, older form", `{` + base + `, "rope_theta": 1e4, "rope_scaling": {"type": "yarn"}}`, "rope_scaling.factor", "missing"},
		// HF's dim = int(head_dim * partial_rotary_factor)
		// (modeling_rope_utils.py:181, models/phi/modeling_phi.py:64) is 0
		// here: an empty inv_freq that rotates nothing.
		{"no rotated pair", `{` + base + `, "rope_theta": 1e4, "partial_rotary_factor": 0.001}`, "partial_rotary_factor", "0.001"},
		{"no rotated pair in dict", `{` + base + `, "rope_parameters": {"rope_theta": 1e4, "partial_rotary_factor": 0.01}}`,
			"rope_parameters.partial_rotary_factor", "0.01"},
		// The field and where it was written.
		{"negative top-level theta", `{` + base + `, "rope_theta": -5}`, "rope_theta", "-5"},
		{"negative theta in dict", `{` + base + `, "rope_parameters": {"rope_type": "default", "rope_theta": -5}}`, "rope_parameters.rope_theta", "-5"},
		{"theta 1 in older form", `{` + base + `, "rope_scaling": {"rope_type": "linear", "factor": 2, "rope_theta": 1}}`, "rope_scaling.rope_theta", "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFieldError(t, c.cfg, c.param, c.value) })
	}

	// LongRoPE without factor: transformers takes max / original and warns
	// (modeling_rope_utils.py:577, if factor is None: factor =
	// config.max_position_embeddings / original_max_position_embeddings).
	m := mustParse(t, `{`+base+`, "rope_theta": 1e4, "original_max_position_embeddings": 1024,
		"rope_scaling": {"type": "longrope", "short_factor": [`+strings.Repeat("1, ", 31)+`1], "long_factor": [`+strings.Repeat("2, ", 31)+`2]}}`)
	if f := m.Layers[0].RoPE.Scaling.Factor; f != 4 || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], "rope_scaling.factor") {
		t.Errorf("longrope without factor: factor %v, warnings %q; want 4 and one warning naming rope_scaling.factor", f, m.Warnings)
	}
}

// TestParseHFConfigWholeFile: a config as Python's json writes it (NaN,
// Infinity) and as released (fields with no bearing on positions) reads;
// an unknown field that could change positions is an error naming it.
func TestParseHFConfigWholeFile(t *testing.T) {
	m := mustParse(t, `{"model_type": "qwen2", "num_hidden_layers": 2, "hidden_size": 256, "num_attention_heads": 2,
		"max_position_embeddings": 32768, "rope_theta": 1000000.0, "vocab_size": 151936, "torch_dtype": "bfloat16",
		"use_mrope": false, "max_window_layers": 28, "sliding_window": 32768, "use_sliding_window": false,
		"clamp": NaN, "limits": [-Infinity, Infinity], "name": "NaN and Infinity in a string stay \"strings\""}`)
	want := []string{"clamp", "limits", "name", "torch_dtype", "use_mrope", "vocab_size"}
	if strings.Join(m.Ignored, ",") != strings.Join(want, ",") {
		t.Errorf("ignored %q; want %q", m.Ignored, want)
	}
	// use_sliding_window false (Qwen2Config's default too): no window.
	if m.Layers[1].Window != 0 || m.Layers[1].Type != "full_attention" {
		t.Errorf("layer 1: %+v; want full attention", m.Layers[1])
	}
	for _, c := range []struct{ cfg, param, value string }{
		{`"rope_theta": NaN`, "rope_theta", "NaN"},
		{`"rope_theta": 1e4, "rope_parameters": {"rope_type": "linear", "factor": Infinity}`, "rope_parameters.factor", "Infinity"},
		{`"rope_theta": 1e4, "sliding_window_pattern": 6`, "sliding_window_pattern", "6"},
	} {
		wantFieldError(t, `{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64, "max_position_embeddings": 4096, `+c.cfg+`}`, c.param, c.value)
	}
}

// TestParseHFConfigUnknownRopeKey: a key that a rope_type does not take is
// a warning, as transformers only warns (modeling_rope_utils.py:1174,
// logger.warning("Unrecognized keys in `rope_parameters` ...")).
func TestParseHFConfigUnknownRopeKey(t *testing.T) {
	m := mustParse(t, `{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64, "max_position_embeddings": 4096,
		"rope_theta": 1e4, "rope_scaling": {"rope_type": "linear", "factor": 2, "beta_fast": 32}}`)
	if len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], "rope_scaling.beta_fast = 32: is not a key of rope_type linear") {
		t.Errorf("warnings %q; want one naming rope_scaling.beta_fast", m.Warnings)
	}
	if m.Layers[0].RoPE.Scaling != LinearScaling(2) {
		t.Errorf("scaling %+v; want linear ×2", m.Layers[0].RoPE.Scaling)
	}
}

// wantFieldError wants ParseHFConfig(cfg) to fail with an error that names
// param first and ends with "got value".
func wantFieldError(t *testing.T, cfg, param, value string) {
	t.Helper()
	_, err := ParseHFConfig([]byte(cfg))
	if err == nil {
		t.Fatalf("%s: no error; want one naming %s", cfg, param)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "posenc: "+param+" ") || !strings.HasSuffix(msg, "got "+value) {
		t.Errorf("error %q; want it to name %s first and end with got %s", msg, param, value)
	}
}

// TestParseHFConfigDefaultTheta: a config without rope_theta gets its
// configuration class's default, as in transformers (convert_rope_params_to_dict:
// getattr(self, "rope_theta", self.default_theta)), with a warning; the
// golden file's rules llama_without_rope_theta and
// smollm3_without_rope_theta check the values against transformers.
func TestParseHFConfigDefaultTheta(t *testing.T) {
	for _, c := range []struct {
		model string
		want  float64
	}{{"llama", 10000}, {"smollm3", 2e6}, {"llama4_text", 5e5}} {
		m := mustParse(t, `{"model_type": "`+c.model+`", "num_hidden_layers": 1, "head_dim": 64, "max_position_embeddings": 4096}`)
		if got := m.Layers[0].RoPE.Base; got != c.want || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], "rope_theta = missing") {
			t.Errorf("%s: base %v, warnings %q; want %v and one warning naming rope_theta", c.model, got, m.Warnings, c.want)
		}
	}
}

// TestGoldenClassRope: every model type whose configuration class in
// transformers gives a config without rope_parameters a default of its own
// (golden.json's class_rope_defaults, from scripts/golden/golden.py) is
// read as transformers reads it — the class's fields without any RoPE
// field give the same layers as with the rope_parameters the class ends up
// with — or, for a default this reader does not reproduce, is an error
// naming rope_parameters. Every table entry must be one of those classes.
func TestGoldenClassRope(t *testing.T) {
	data, err := modelconfigs.Golden()
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		ClassRopeDefaults map[string]struct {
			Config         map[string]any `json:"config"`
			RopeParameters map[string]any `json:"rope_parameters"`
		} `json:"class_rope_defaults"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.ClassRopeDefaults) < 20 {
		t.Fatalf("%d class defaults in golden.json; want the 30-odd of transformers 5.25.0 (run make golden)", len(g.ClassRopeDefaults))
	}
	known := slices.Concat(slices.Collect(maps.Keys(classRopeParameters)), slices.Collect(maps.Keys(splitRopeTheta)), classRopeUnread, []string{"deepseek_v4"})
	for _, mt := range known {
		if _, ok := g.ClassRopeDefaults[mt]; !ok {
			t.Errorf("%s: in the reader's tables but transformers' class has no default rope_parameters", mt)
		}
	}
	for mt, e := range g.ClassRopeDefaults {
		t.Run(mt, func(t *testing.T) {
			if !slices.Contains(known, mt) {
				t.Fatalf("transformers' %s class defaults rope_parameters to %v; the reader does not know it", mt, e.RopeParameters)
			}
			bare, _ := json.Marshal(e.Config)
			got, err := ParseHFConfig(bare)
			if slices.Contains(classRopeUnread, mt) {
				if err == nil || !strings.HasPrefix(err.Error(), "posenc: rope_parameters ") {
					t.Errorf("error %v; want one naming rope_parameters", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			withRope := maps.Clone(e.Config)
			withRope["rope_parameters"] = e.RopeParameters
			full, _ := json.Marshal(withRope)
			want, err := ParseHFConfig(full)
			if err != nil {
				t.Fatalf("with transformers' rope_parameters: %v", err)
			}
			for i := range want.Layers {
				w, g := want.Layers[i], got.Layers[i]
				if !reflect.DeepEqual(w.RoPE, g.RoPE) || !reflect.DeepEqual(w.Temperature, g.Temperature) {
					t.Errorf("layer %d: %+v, temperature %+v; with transformers' rope_parameters %+v, %+v", i, g.RoPE, g.Temperature, w.RoPE, w.Temperature)
				}
			}
		})
	}
}

// TestParseHFConfigHeadDim: head_dim as transformers derives it (5.25.0):
// a class's own default (GemmaConfig's head_dim: int = 256, not
// 3072 / 16), hidden_size // num_attention_heads rounded down where the
// class allows it (modeling_rope_utils.py:180), and an error where the
// class's validate_architecture raises (configuration_llama.py:95–99).
func TestParseHFConfigHeadDim(t *testing.T) {
	const rest = `"num_hidden_layers": 1, "max_position_embeddings": 4096, "rope_theta": 1e4`
	m := mustParse(t, `{"model_type": "gemma", "hidden_size": 3072, "num_attention_heads": 16, `+rest+`}`)
	if m.HeadDim != 256 || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], "head_dim = missing") {
		t.Errorf("gemma: head_dim %d, warnings %q; want 256 and a warning naming head_dim", m.HeadDim, m.Warnings)
	}
	// Glm4MoeConfig()'s own 4096 / 96: transformers rounds to 42.
	m = mustParse(t, `{"model_type": "mistral", "hidden_size": 4096, "num_attention_heads": 96, `+rest+`}`)
	if m.HeadDim != 42 || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], "hidden_size = 4096") {
		t.Errorf("mistral 4096/96: head_dim %d, warnings %q; want 42 and a warning naming hidden_size", m.HeadDim, m.Warnings)
	}
	wantFieldError(t, `{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 96, "head_dim": 128, `+rest+`}`, "hidden_size", "4096")
}

// TestParseHFConfigOutsideModel: what transformers computes but this
// library does not model is an error naming the field, not a guess.
func TestParseHFConfigOutsideModel(t *testing.T) {
	const base = `"num_hidden_layers": 1, "head_dim": 80, "max_position_embeddings": 4096, "rope_theta": 1e4`
	// 80 × 0.35 = 28 is even; 80 × 0.3625 = 29 is odd: transformers' 15
	// frequencies with exponent 2i/29 over 30 dimensions.
	mustParse(t, `{"model_type": "phi", `+base+`, "partial_rotary_factor": 0.35}`)
	wantFieldError(t, `{"model_type": "phi", `+base+`, "partial_rotary_factor": 0.3625}`, "partial_rotary_factor", "0.3625")
	// rotary_dim is MiniMax-M2's field (configuration_minimax_m2.py:97);
	// GPT-J's class maps it elsewhere, and llama's does not read it.
	wantFieldError(t, `{"model_type": "llama", `+base+`, "rotary_dim": 64}`, "rotary_dim", "64")
	// A class default the reader does not reproduce.
	wantFieldError(t, `{"model_type": "mistral4", "num_hidden_layers": 1, "hidden_size": 1024, "num_attention_heads": 8,
		"max_position_embeddings": 4096, "qk_rope_head_dim": 64, "qk_nope_head_dim": 64}`, "rope_parameters", "missing")
}

// TestParseHFConfigIgnoredSerialisation: fields that name positions or
// chunks but have no bearing on attention positions are ignored, not an
// error: chunk_size_feed_forward (PreTrainedConfig), mlp_layer_types,
// mtp_layer_types, the Mamba-2 scan's chunk_size.
func TestParseHFConfigIgnoredSerialisation(t *testing.T) {
	m := mustParse(t, `{"model_type": "llama", "num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 4096, "rope_theta": 1e4,
		"chunk_size_feed_forward": 0, "mlp_layer_types": ["dense", "sparse"], "mtp_layer_types": ["full_attention"], "chunk_size": 256}`)
	want := []string{"chunk_size", "chunk_size_feed_forward", "mlp_layer_types", "mtp_layer_types"}
	if !slices.Equal(m.Ignored, want) {
		t.Errorf("ignored %q; want %q", m.Ignored, want)
	}
}

// TestParseHFConfigGemma4Head: a Gemma 4 full-attention layer's head size
// from global_head_dim, from per_layer_config (how transformers v5 writes
// it back, configuration_gemma4.py:205–218), or the class's 512 with a
// warning; a nested rope entry for a layer type the config does not use is
// kept unused, with a warning, as transformers keeps it.
func TestParseHFConfigGemma4Head(t *testing.T) {
	const head = `{"model_type": "gemma4_text", "num_hidden_layers": 2, "head_dim": 256, "max_position_embeddings": 4096,
		"layer_types": ["full_attention", "full_attention"],
		"rope_parameters": {"sliding_attention": {"rope_theta": 1e4}, "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6}}`
	for _, c := range []struct {
		extra string
		want  int
		warns int
	}{
		{`, "global_head_dim": 384`, 384, 1},
		{`, "per_layer_config": {"00": {"head_dim": 512}, "01": {"head_dim": 512}}`, 512, 1},
		{``, 512, 2},
	} {
		m := mustParse(t, head+c.extra+`}`)
		if got := m.Layers[1].RoPE.HeadDim; got != c.want || len(m.Warnings) != c.warns {
			t.Errorf("%s: head %d, warnings %q; want %d and %d warnings", c.extra, got, m.Warnings, c.want, c.warns)
		}
	}
}

// TestParseHFConfigFalcon: Falcon-7B's released config.json has no
// max_position_embeddings (FalconConfig's default 2048 applies, with a
// warning here), and a Falcon with alibi true has ALiBi instead of RoPE
// (FalconModel builds a rotary embedding only if not config.alibi).
func TestParseHFConfigFalcon(t *testing.T) {
	const base = `{"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 4544, "num_attention_heads": 71`
	m := mustParse(t, base+`, "alibi": false}`)
	if m.MaxPositions != 2048 || m.Layers[0].RoPE == nil || m.Layers[0].RoPE.HeadDim != 64 {
		t.Errorf("falcon: max %d, layer 0 %+v; want 2048 and RoPE over 64 dimensions", m.MaxPositions, m.Layers[0].RoPE)
	}
	if m := mustParse(t, base+`, "alibi": true}`); m.Layers[0].RoPE != nil {
		t.Errorf("falcon with alibi: layer 0 RoPE %+v; want none", m.Layers[0].RoPE)
	}
	wantFieldError(t, `{"model_type": "llama", "num_hidden_layers": 1, "head_dim": 64, "max_position_embeddings": 4096, "rope_theta": 1e4, "alibi": true}`, "alibi", "true")
}

// TestParseHFConfigLayerRopeTheta: Granite SWA's layer_rope_theta gives each
// layer its base, 0 for no RoPE (modeling_granite_swa.py:395–398, :456–457:
// position_embeddings_by_theta[theta] if theta else None).
func TestParseHFConfigLayerRopeTheta(t *testing.T) {
	m := mustParse(t, `{"model_type": "granite_swa", "num_hidden_layers": 4, "hidden_size": 1024, "num_attention_heads": 8,
		"max_position_embeddings": 8192, "rope_theta": 10000, "sliding_window": 128,
		"layer_types": ["full_attention", "sliding_attention", "sliding_attention", "sliding_attention"],
		"layer_rope_theta": [10000, 0, 500000, 0]}`)
	if m.Layers[0].RoPE.Base != 1e4 || m.Layers[1].RoPE != nil || m.Layers[2].RoPE.Base != 5e5 || m.Layers[3].RoPE != nil {
		t.Errorf("layers %+v; want bases 1e4, none, 5e5, none", m.Layers)
	}
	wantFieldError(t, `{"model_type": "granite_swa", "num_hidden_layers": 1, "hidden_size": 1024, "num_attention_heads": 8,
		"max_position_embeddings": 8192, "rope_theta": 10000, "layer_types": ["full_attention"], "layer_rope_theta": [0.5]}`, "layer_rope_theta[0]", "0.5")
}

// TestParseHFConfigJamba: Jamba's attention layers sit where
// i % attn_layer_period == attn_layer_offset (configuration_jamba.py:109–113)
// and have no RoPE (modeling_jamba.py: JambaAttention applies none).
func TestParseHFConfigJamba(t *testing.T) {
	m := mustParse(t, `{"model_type": "jamba", "num_hidden_layers": 16, "hidden_size": 4096, "num_attention_heads": 32,
		"max_position_embeddings": 262144, "attn_layer_period": 8, "attn_layer_offset": 4, "expert_layer_period": 2}`)
	for i, l := range m.Layers {
		want := "linear_attention"
		if i%8 == 4 {
			want = "full_attention"
		}
		if l.Type != want || l.RoPE != nil {
			t.Errorf("layer %d: %s, RoPE %v; want %s without RoPE", i, l.Type, l.RoPE, want)
		}
	}
	wantFieldError(t, `{"model_type": "jamba", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 2,
		"attn_layer_period": 4, "attn_layer_offset": 4}`, "attn_layer_offset", "4")
}

// TestParseHFConfigNotRotary: a config of a model without RoPE in
// transformers (OPT's OPTLearnedPositionalEmbedding, BERT's learned
// absolute positions, BLOOM's ALiBi) is an error naming model_type, not a
// RoPE with the default base.
func TestParseHFConfigNotRotary(t *testing.T) {
	for _, mt := range []string{"opt", "bert", "bloom"} {
		wantFieldError(t, `{"model_type": "`+mt+`", "num_hidden_layers": 2, "hidden_size": 768, "num_attention_heads": 12,
			"max_position_embeddings": 2048}`, "model_type", mt)
	}
}
