package check

import (
	"fmt"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 34, Slug: "hybrid_layouts", Title: "Which layers of a hybrid rotate, and how",
			Test: "TestHybridLayouts", Funcs: []string{"HybridLayouts"}, Lesson: 9, Section: secHybrid.Title,
			Difficulty: catalog.Easy},
		Blurb: "for Qwen3-Next, Nemotron-H, Falcon-H1, Granite-4.0-H and DeepSeek, each layer's pair layout " +
			"(interleaved or halves), or none, as transformers rotates it.",
		Hints: Hints{
			Read: []Section{secHybrid},
			Idea: []string{
				"A hybrid stacks layers that attend and layers that do not (Mamba-2, Gated DeltaNet, MoE and MLP " +
					"blocks); some attend without positions. Where a layer rotates, the checkpoint's weights fix " +
					"which coordinates form a pair.",
			},
			Formula: []string{
				"- `linear_attention`, `moe` and `mlp` layers never rotate; Nemotron-H's attention has no RoPE; " +
					"Granite-4.0-H's has RoPE only when `position_embedding_type` is \"rope\" (the release says \"nope\").",
				"- DeepSeek-V2 and V3 and Llama 4 rotate adjacent pairs (x₀, x₁), (x₂, x₃), …: \"interleaved\". " +
					"Every other model here rotates x_i with x_{i+d/2}: \"halves\".",
			},
		},
		Cases:  hybridLayoutsCases(),
		Checks: func(cases any) *Exercise { return HybridLayouts(nil, cases.(HybridLayoutsCases)) },
	})
}

// secHybrid is the lesson section the exercise and its hints cite.
var secHybrid = Section{9, "Read a hybrid"}

var (
	hintHybridBlocksRotate = newHint("hybrid layouts/blocks without attention rotate", secHybrid,
		"a linear_attention layer (Mamba-2, Gated DeltaNet), a moe block and an mlp block have no attention, "+
			"so nothing to rotate: \"none\"")
	hintHybridNemotron = newHint("hybrid layouts/nemotron attention rotates", secHybrid,
		"Nemotron-H builds no rotary embedding: its attention layers get no positions either, so every layer "+
			"of a nemotron_h model is \"none\"")
	hintHybridGranite = newHint("hybrid layouts/granite position_embedding_type ignored", secHybrid,
		"Granite-4.0-H's attention rotates only when position_embedding_type is \"rope\"; with \"nope\" (as "+
			"released) or none, its attention layers have no positions")
	hintHybridAllHalves = newHint("hybrid layouts/interleaved models in halves", secHybrid,
		"DeepSeek-V2, DeepSeek-V3 and Llama 4 rotate adjacent coordinates: their layers are \"interleaved\", "+
			"not \"halves\"")
	hintHybridAllInterleaved = newHint("hybrid layouts/every model interleaved", secHybrid,
		"only DeepSeek-V2, DeepSeek-V3 and Llama 4 interleave; Qwen, Falcon-H1, Granite and the others "+
			"rotate x_i with x_{i+d/2}: \"halves\"")
	hintHybridMutates = newHint("hybrid layouts/mutates", Section{},
		"your function changed the caller's layerTypes (or returned it, rewritten): read it, and build a new "+
			"[]string")
	hintHybridFallback = generic("hybrid layouts/fallback", secHybrid,
		"a layer is \"none\" when it is linear_attention, moe or mlp, when the model is nemotron_h, or when it "+
			"is granitemoehybrid without position_embedding_type \"rope\"; otherwise \"interleaved\" for "+
			"deepseek_v2, deepseek_v3 and llama4_text, \"halves\" for the rest")
)

// hybridRules switches one rule of refHybridLayouts off or around.
type hybridRules struct {
	blocksRotate, nemotronRotates, graniteIgnored, allHalves, allInterleaved bool
}

// refHybridLayouts applies the rules of the stub; a variant breaks one.
func refHybridLayouts(model string, types []string, pet string, v hybridRules) []string {
	layout := "halves"
	if (model == "deepseek_v2" || model == "deepseek_v3" || model == "llama4_text" || v.allInterleaved) && !v.allHalves {
		layout = "interleaved"
	}
	out := make([]string, len(types))
	for i, t := range types {
		none := ((t == "linear_attention" || t == "moe" || t == "mlp") && !v.blocksRotate) ||
			(model == "nemotron_h" && !v.nemotronRotates) ||
			(model == "granitemoehybrid" && pet != "rope" && !v.graniteIgnored)
		out[i] = layout
		if none {
			out[i] = "none"
		}
	}
	return out
}

func diagHybrid(got []string, c HybridCase) *Hint {
	type v = variant[[]string]
	ref := func(r hybridRules) []string {
		return refHybridLayouts(c.ModelType, c.LayerTypes, c.PositionEmbeddingType, r)
	}
	return firstMatch(got, slices.Equal[[]string],
		v{hintHybridBlocksRotate, ref(hybridRules{blocksRotate: true})},
		v{hintHybridNemotron, ref(hybridRules{nemotronRotates: true})},
		v{hintHybridGranite, ref(hybridRules{graniteIgnored: true})},
		v{hintHybridAllHalves, ref(hybridRules{allHalves: true})},
		v{hintHybridAllInterleaved, ref(hybridRules{allInterleaved: true})},
	)
}

// HybridCase is one call: HybridLayouts(ModelType, LayerTypes,
// PositionEmbeddingType) must equal Want.
type HybridCase struct {
	Name                  string
	ModelType             string
	LayerTypes            []string
	PositionEmbeddingType string
	Want                  []string
}

// HybridLayoutsCases is exercise 34's case table.
type HybridLayoutsCases struct {
	Layers []HybridCase `doc:"HybridLayouts(ModelType, LayerTypes, PositionEmbeddingType) must equal Want: what posenc.ParseHFConfig reads from each config, checked against transformers in pkg/posenc's golden test."`
}

// hybridCase reads a config with posenc.ParseHFConfig: its layer types,
// and each layer's layout or "none".
func hybridCase(name string, cfg []byte, pet string) HybridCase {
	m, err := posenc.ParseHFConfig(cfg)
	if err != nil {
		panic(err)
	}
	c := HybridCase{Name: name, ModelType: m.ModelType, PositionEmbeddingType: pet}
	for _, l := range m.Layers {
		c.LayerTypes = append(c.LayerTypes, l.Type)
		switch {
		case l.RoPE == nil:
			c.Want = append(c.Want, "none")
		case l.RoPE.Layout == posenc.Interleaved:
			c.Want = append(c.Want, "interleaved")
		default:
			c.Want = append(c.Want, "halves")
		}
	}
	if !slices.Equal(c.Want, refHybridLayouts(c.ModelType, c.LayerTypes, pet, hybridRules{})) {
		panic("check: the rules disagree with posenc.ParseHFConfig for " + name)
	}
	return c
}

// shipped returns a shipped config (modelconfigs.Lookup), or panics.
func shipped(name string) []byte {
	data, err := modelconfigs.Lookup(name)
	if err != nil {
		panic(err)
	}
	return data
}

func hybridLayoutsCases() HybridLayoutsCases {
	design := shipped
	granite := func(pet string) []byte {
		return []byte(`{"model_type": "granitemoehybrid", "num_hidden_layers": 4, "hidden_size": 768, "num_attention_heads": 12,
			"max_position_embeddings": 131072, "rope_theta": 10000.0, "position_embedding_type": "` + pet + `",
			"layer_types": ["mamba", "attention", "mamba", "attention"]}`)
	}
	deepseekV2 := []byte(`{"model_type": "deepseek_v2", "num_hidden_layers": 3, "hidden_size": 2048, "num_attention_heads": 16,
		"max_position_embeddings": 163840, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "rope_theta": 10000}`)
	return HybridLayoutsCases{Layers: []HybridCase{
		hybridCase("qwen3_next_three_linear_to_one_full", design("qwen3-next-80b-a3b"), ""),
		hybridCase("nemotron_h_attention_without_rope", design("nemotron-3-nano-30b-a3b"), ""),
		hybridCase("falcon_h1_every_layer_hybrid", design("falcon-h1-1.5b-deep"), ""),
		hybridCase("granite_4.0_h_as_released_nope", granite("nope"), "nope"),
		hybridCase("granite_with_rope", granite("rope"), "rope"),
		hybridCase("deepseek_v2_interleaves_without_a_key", deepseekV2, ""),
		hybridCase("deepseek_v3_rope_interleave_true", shipped("deepseek-v3"), ""),
	}}
}

var hybridArgs = argHints{hintHybridMutates, hintHybridMutates}

// HybridLayouts returns exercise 34's checks of fn on cases.
func HybridLayouts(fn func(modelType string, layerTypes []string, positionEmbeddingType string) []string, cases HybridLayoutsCases) *Exercise {
	var checks []Check
	for _, c := range cases.Layers {
		call := fmt.Sprintf("HybridLayouts(%q, %d layer types, %q)", c.ModelType, len(c.LayerTypes), c.PositionEmbeddingType)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			types := slices.Clone(c.LayerTypes)
			got := fn(c.ModelType, types, c.PositionEmbeddingType)
			if !slices.Equal(got, c.Want) {
				i := 0
				for i < min(len(got), len(c.Want)) && got[i] == c.Want[i] {
					i++
				}
				msg := fmt.Sprintf("%s returned %d values; want %d", call, len(got), len(c.Want))
				if len(got) == len(c.Want) {
					msg = fmt.Sprintf("%s: layer %d (%s) gets %q; want %q", call, i, c.LayerTypes[i], got[i], c.Want[i])
				}
				return fail(orElse(diagHybrid(got, c), hintHybridFallback), msg)
			}
			return hybridArgs.check(call, got, arg{"layerTypes", types, c.LayerTypes})
		}})
	}
	return newExercise(34, checks)
}
