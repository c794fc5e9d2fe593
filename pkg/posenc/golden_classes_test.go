package posenc_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// TestGoldenClassConfigs reads, for every text model of transformers with a
// rotary embedding (golden-classes.json, scripts/golden/classes.py), the
// whole config.json its configuration class writes, and compares the
// reader's layer types and each rotating layer's frequencies and attention
// factor with what that model's own rotary module holds. A config the
// reader refuses must be one of classRefusals, each for the reason given:
// a design outside the reader's model, named in the error.
func TestGoldenClassConfigs(t *testing.T) {
	data, err := modelconfigs.GoldenClasses()
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Transformers string
		Models       map[string]struct {
			Config     json.RawMessage `json:"config"`
			LayerTypes []string        `json:"layer_types"`
			RoPE       map[string]struct {
				InvFreq          []float64 `json:"inv_freq"`
				AttentionScaling float64   `json:"attention_scaling"`
			} `json:"rope"`
		}
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if g.Transformers != goldenTransformers || len(g.Models) < 150 {
		t.Fatalf("golden-classes.json: transformers %s, %d models; want %s and every text model (run make golden)", g.Transformers, len(g.Models), goldenTransformers)
	}
	names := make([]string, 0, len(g.Models))
	for name := range g.Models {
		names = append(names, name)
	}
	sort.Strings(names)
	read := 0
	for _, name := range names {
		want := g.Models[name]
		if _, ok := classComparedElsewhere[name]; ok {
			continue
		}
		m, err := posenc.ParseHFConfig(want.Config)
		if reason, ok := classRefusals[name]; ok {
			if err == nil || !strings.Contains(err.Error(), reason) {
				t.Errorf("%s: error %v; want a refusal containing %q", name, err, reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		read++
		if want.LayerTypes != nil && len(want.LayerTypes) != len(m.Layers) {
			t.Errorf("%s: %d layers; transformers' layer_types has %d", name, len(m.Layers), len(want.LayerTypes))
			continue
		}
		for i, l := range m.Layers {
			key := "all"
			if want.LayerTypes != nil {
				key = want.LayerTypes[i]
				if legacy := map[string]string{"mamba": "linear_attention", "attention": "full_attention"}[key]; legacy != "" {
					key = legacy
				}
				if l.Type != key {
					t.Errorf("%s layer %d: type %s; transformers %s", name, i, l.Type, key)
					break
				}
			}
			if l.RoPE == nil {
				continue
			}
			wr, ok := want.RoPE[key]
			if !ok {
				if len(want.RoPE) != 1 {
					t.Errorf("%s layer %d (%s): the rotary module holds no frequencies for it", name, i, key)
					break
				}
				for _, only := range want.RoPE {
					wr = only
				}
			}
			got, err := l.RoPE.InvFreq()
			if err != nil {
				t.Fatal(err)
			}
			if msg := compareFreqs(got, wr.InvFreq); msg != "" {
				t.Errorf("%s layer %d (%s): %s", name, i, l.Type, msg)
				break
			}
			if e := relErr(l.RoPE.AttentionFactor(), wr.AttentionScaling); e > 1e-6 {
				t.Errorf("%s layer %d (%s): attention factor %v; transformers %v", name, i, l.Type, l.RoPE.AttentionFactor(), wr.AttentionScaling)
				break
			}
		}
	}
	t.Logf("%d of %d configuration classes read and compared; %d refused as outside the reader's model", read, len(names), len(classRefusals))
}

// compareFreqs compares inverse frequencies with transformers' float32
// ones (goldenRelTol).
func compareFreqs(got, want []float64) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d frequencies; transformers %d", len(got), len(want))
	}
	for j := range want {
		if (want[j] == 0) != (got[j] == 0) || (want[j] != 0 && relErr(got[j], want[j]) > goldenRelTol) {
			return fmt.Sprintf("inv_freq[%d] = %v; transformers %v", j, got[j], want[j])
		}
	}
	return ""
}

// classRefusals are the configuration classes whose default config the
// reader refuses, with the field its error names: designs it does not
// model, configs whose names for the layer count or context are not the
// ones it reads (LongCat-Flash's), and class defaults
// transformers itself could not run (a head of 4096 / 96 = 42 with half of
// it rotating: an odd rotary width).
var classRefusals = map[string]string{
	// Not a decoder language model, or its layer count sits elsewhere
	// (encoder-decoder, nested sub-configs).
	"dia": "num_hidden_layers", "efficientloftr": "num_hidden_layers", "moonshine": "num_hidden_layers",
	"qwen2_5_omni": "num_hidden_layers", "qwen3_omni_moe": "num_hidden_layers", "t5gemma": "num_hidden_layers",
	"t5gemma2": "num_hidden_layers", "eomt_dinov3": "max_position_embeddings", "mlcd": "max_position_embeddings",
	"sam3_vit_model": "window_size", "qwen2_5_omni_talker": "is a position field this reader does not know",
	"modernbert": "sliding_window",
	// Other names for the layer count and context.
	"longcat_flash": "num_hidden_layers",
	// Per-layer bases, windows and layer kinds the reader does not model.
	"muse_glimmer":      "layer_rope_theta",
	"muse_glimmer_text": "layer_rope_theta", "muse_spark": "layer_rope_theta", "muse_spark_text": "layer_rope_theta",
	"molmo2": "rope_scaling_layers", "molmo2_text": "rope_scaling_layers", "neomme": "per_layer_config",
	"lfm3": "layer_types[0]", "unlimited_ocr": "layer_types[0]", "unlimited_ocr_text": "layer_types[0]",
	"doge": "keep_window_size", "zamba2": "use_mem_rope",
	"dory": "model_type", "ernie4_5_vl_moe": "model_type", "ernie4_5_vl_moe_text": "model_type",
	// MLA heads whose head_dim is not the rotary part.
	"mistral4": "head_dim", "dots3_note": "head_dim", "dots3_note_text": "head_dim",
	// Odd rotary widths of class defaults that no release has.
	"glm4_moe": "partial_rotary_factor", "glm4v_moe": "partial_rotary_factor", "glm4v_moe_text": "partial_rotary_factor",
	"qwen3_omni_moe_text": "partial_rotary_factor", "qwen3_omni_moe_thinker": "partial_rotary_factor",
}

// classComparedElsewhere are the classes whose rotary module keys its
// frequencies by something other than layer_types, compared by golden.json.
var classComparedElsewhere = map[string]string{
	"deepseek_v4": "rope_parameters keyed by main and compress (TestGoldenDesigns, TestGoldenRules)",
}
