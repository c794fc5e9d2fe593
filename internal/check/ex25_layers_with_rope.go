package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 25, Slug: "layers_with_rope", Title: "Which layers rotate", Test: "TestLayersWithRoPE",
			Funcs: []string{"LayersWithRoPE"}, Lesson: 9, Section: secNoPE.Title, Difficulty: catalog.Easy},
		Blurb: "read layer_types and no_rope_layers as transformers does, for Llama 4, SmolLM3, Cohere 2 and Qwen3.5.",
		Hints: Hints{
			Read: []Section{secNoPE},
			Idea: []string{
				"Some layers of today's models have no position encoding at all: a causal decoder's mask already " +
					"gives each position a different number of keys. The config says which, in three ways.",
			},
			Formula: []string{
				"- Despite its name, `no_rope_layers[i]` is 1 where layer i *uses* RoPE and 0 where it does not " +
					"(Llama 4's every fourth layer, SmolLM3's 3:1).",
				"- A `linear_attention` layer (Qwen3.5's Gated DeltaNet) has no rotary embedding at all.",
				"- Cohere 2 rotates only its `sliding_attention` layers; that rule is Cohere 2's (model_type " +
					"\"cohere2\"), not every model's: Gemma 3's full-attention layers rotate.",
			},
		},
		Cases:  layersWithRoPECases(),
		Checks: func(cases any) *Exercise { return LayersWithRoPE(nil, cases.(LayersWithRoPECases)) },
	})
}

var secNoPE = Section{9, "Layers without positions, and Llama 4's temperature"}

var (
	hintNoRoPEInverted = newHint("layers with RoPE/no_rope_layers inverted", secNoPE,
		"no_rope_layers[i] is 1 where layer i uses RoPE and 0 where it has none, the opposite of what its name "+
			"suggests (transformers' Llama4TextAttention sets use_rope = no_rope_layers[i])")
	hintNoRoPEIgnored = newHint("layers with RoPE/no_rope_layers ignored", secNoPE,
		"a 0 in no_rope_layers is a layer without RoPE: Llama 4 and SmolLM3 turn it off in every fourth layer")
	hintLinearRotates = newHint("layers with RoPE/linear attention", secNoPE,
		"a linear_attention layer has no rotary embedding: it is a recurrence (Qwen3.5's Gated DeltaNet), which "+
			"knows order from the recurrence itself")
	hintCohereEveryModel = newHint("layers with RoPE/cohere rule for all", secNoPE,
		"only Cohere 2 drops RoPE on its full-attention layers; other models (Gemma 3, gpt-oss, OLMo 3) rotate "+
			"their full-attention layers as well as their sliding ones")
	hintCohereMissing = newHint("layers with RoPE/cohere rule missing", secNoPE,
		"Cohere 2 (model_type \"cohere2\") applies RoPE on its sliding-window layers only: its full-attention "+
			"layers have none")
	hintCohereInverted = newHint("layers with RoPE/cohere rule inverted", secNoPE,
		"Cohere 2 rotates its sliding_attention layers, and leaves its full-attention layers without positions, "+
			"not the other way round")
	hintCoherePrefix = newHint("layers with RoPE/model type by prefix", secNoPE,
		"the Cohere 2 rule is for model_type \"cohere2\" exactly: Command R (\"cohere\") rotates every layer, so "+
			"compare the whole model type, not a prefix or a substring")
	hintChunkedNoRoPE = newHint("layers with RoPE/chunked attention", secNoPE,
		"a chunked_attention layer rotates (Llama 4's local layers): what turns RoPE off in Llama 4 is "+
			"no_rope_layers, whose 0s fall on its full_attention layers")
	hintNilNoRoPE = newHint("layers with RoPE/no no_rope_layers means none", secNoPE,
		"a config without no_rope_layers (nil) turns no layer off: read it only when it is there")
	hintLayersMutates = newHint("layers with RoPE/mutates", Section{},
		"your function changed the caller's slices (flipped no_rope_layers in place, most likely): read them, and "+
			"build a new []bool")
	hintLayersFallback = generic("layers with RoPE/fallback", secNoPE,
		"layer i rotates unless it is linear_attention, or no_rope_layers[i] is 0, or the model is cohere2 and "+
			"the layer is not sliding_attention")
)

// refLayersWithRoPE applies the rules; the variants turn one rule off or
// around.
func refLayersWithRoPE(model string, types []string, noRoPE []int, v layerRules) []bool {
	out := make([]bool, len(types))
	for i, t := range types {
		rope := true
		if v.nilMeansNone && noRoPE == nil {
			rope = false
		}
		if noRoPE != nil && !v.ignoreNoRoPE {
			rope = noRoPE[i] == 1
			if v.invertNoRoPE {
				rope = !rope
			}
		}
		if t == "chunked_attention" && v.chunkedNoRoPE {
			rope = false
		}
		if t == "linear_attention" && !v.linearRotates {
			rope = false
		}
		if (model == "cohere2" || v.cohereAll || v.prefix && strings.HasPrefix(model, "cohere")) && !v.noCohere {
			if v.cohereInverted {
				rope = rope && t != "sliding_attention"
			} else {
				rope = rope && t == "sliding_attention"
			}
		}
		out[i] = rope
	}
	return out
}

// layerRules switches one rule of refLayersWithRoPE off or around.
type layerRules struct {
	invertNoRoPE, ignoreNoRoPE, linearRotates, cohereAll, noCohere, cohereInverted bool
	prefix, chunkedNoRoPE, nilMeansNone                                            bool
}

func diagLayers(got []bool, c LayersCase) *Hint {
	type v = variant[[]bool]
	ref := func(r layerRules) []bool { return refLayersWithRoPE(c.ModelType, c.LayerTypes, c.NoRoPELayers, r) }
	return uniqueMatch(got, slices.Equal[[]bool],
		v{hintNoRoPEInverted, ref(layerRules{invertNoRoPE: true})},
		v{hintNoRoPEIgnored, ref(layerRules{ignoreNoRoPE: true})},
		v{hintLinearRotates, ref(layerRules{linearRotates: true})},
		v{hintCohereEveryModel, ref(layerRules{cohereAll: true})},
		v{hintCohereMissing, ref(layerRules{noCohere: true})},
		v{hintCohereInverted, ref(layerRules{cohereInverted: true})},
		v{hintCoherePrefix, ref(layerRules{prefix: true})},
		v{hintChunkedNoRoPE, ref(layerRules{chunkedNoRoPE: true})},
		v{hintNilNoRoPE, ref(layerRules{nilMeansNone: true})},
	)
}

// LayersCase is one call: LayersWithRoPE(ModelType, LayerTypes,
// NoRoPELayers) must equal Want.
type LayersCase struct {
	Name         string
	ModelType    string
	LayerTypes   []string
	NoRoPELayers []int
	Want         []bool
}

// LayersWithRoPECases is exercise 25's case table.
type LayersWithRoPECases struct {
	Layers []LayersCase `doc:"LayersWithRoPE(ModelType, LayerTypes, NoRoPELayers) must equal Want: for the shipped configs (pkg/posenc/modelconfigs), what transformers applies, layer by layer."`
}

// fixtureLayers reads a shipped config's model_type, layer types and
// no_rope_layers, and the layers posenc.ParseHFConfig gives RoPE.
func fixtureLayers(name string) LayersCase {
	data, err := modelconfigs.Config(name)
	if err != nil {
		panic(err)
	}
	m, err := posenc.ParseHFConfig(data)
	if err != nil {
		panic(err)
	}
	var raw struct {
		NoRoPELayers []int `json:"no_rope_layers"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		panic(err)
	}
	c := LayersCase{Name: name, ModelType: m.ModelType, NoRoPELayers: raw.NoRoPELayers}
	for _, l := range m.Layers {
		c.LayerTypes = append(c.LayerTypes, l.Type)
		c.Want = append(c.Want, l.RoPE != nil)
	}
	if !slices.Equal(c.Want, refLayersWithRoPE(c.ModelType, c.LayerTypes, c.NoRoPELayers, layerRules{})) {
		panic("check: the rules disagree with posenc.ParseHFConfig for " + name)
	}
	return c
}

func layersWithRoPECases() LayersWithRoPECases {
	mixed := LayersCase{Name: "every_rule_at_once", ModelType: "hybrid",
		LayerTypes:   []string{"linear_attention", "full_attention", "sliding_attention", "chunked_attention", "full_attention"},
		NoRoPELayers: []int{1, 0, 1, 1, 1}}
	mixed.Want = refLayersWithRoPE(mixed.ModelType, mixed.LayerTypes, mixed.NoRoPELayers, layerRules{})
	// Command R's model_type is "cohere", and transformers' CohereAttention
	// rotates in every layer; its config has no layer_types, and each layer
	// is full attention.
	commandR := LayersCase{Name: "command_r_cohere_rotates_every_layer", ModelType: "cohere",
		LayerTypes: []string{"full_attention", "full_attention", "full_attention", "full_attention"},
		Want:       []bool{true, true, true, true}}
	rename := func(c LayersCase, name string) LayersCase { c.Name = name; return c }
	return LayersWithRoPECases{Layers: []LayersCase{
		rename(fixtureLayers("llama-4-scout"), "llama_4_scout_every_fourth_layer_without"),
		rename(fixtureLayers("smollm3-3b"), "smollm3_three_to_one"),
		rename(fixtureLayers("cohere2"), "cohere2_global_layers_without"),
		rename(fixtureLayers("qwen3.5-27b"), "qwen3.5_linear_attention_layers"),
		rename(fixtureLayers("gemma-3-4b"), "gemma_3_every_layer_rotates"),
		mixed,
		commandR,
	}}
}

var layersArgs = argHints{hintLayersMutates, hintLayersMutates}

// LayersWithRoPE returns exercise 25's checks of fn on cases.
func LayersWithRoPE(fn func(modelType string, layerTypes []string, noRoPELayers []int) []bool, cases LayersWithRoPECases) *Exercise {
	var checks []Check
	for _, c := range cases.Layers {
		call := fmt.Sprintf("LayersWithRoPE(%q, %d layer types, no_rope_layers %v)", c.ModelType, len(c.LayerTypes), c.NoRoPELayers)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			types, noRoPE := slices.Clone(c.LayerTypes), slices.Clone(c.NoRoPELayers)
			got := fn(c.ModelType, types, noRoPE)
			noteFallback(hintLayersFallback)
			if slices.Equal(got, c.Want) {
				observePass(func(got []bool) *Hint { return diagLayers(got, c) }, got)
			} else {
				i := 0
				for i < min(len(got), len(c.Want)) && got[i] == c.Want[i] {
					i++
				}
				msg := fmt.Sprintf("%s returned %d values; want %d", call, len(got), len(c.Want))
				if len(got) == len(c.Want) {
					msg = fmt.Sprintf("%s: layer %d (%s) gets %v; want %v", call, i, c.LayerTypes[i], got[i], c.Want[i])
				}
				return fail(orElse(diagLayers(got, c), hintLayersFallback), msg)
			}
			if !slices.Equal(types, c.LayerTypes) {
				return fail(hintLayersMutates, fmt.Sprintf("%s changed its argument layerTypes.", call))
			}
			return layersArgs.check(call, got, arg{"noRoPELayers", noRoPE, c.NoRoPELayers})
		}})
	}
	return newExercise(25, checks)
}
