package posenc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/posenc/course/internal/validate"
)

// globalHeadDimModels are the model types whose full-attention layers
// have their own head size: Gemma4TextConfig.__post_init__ and its
// relatives' pop global_head_dim (default 512) into per_layer_config,
// {layer: {"head_dim": global_head_dim}} for every full_attention layer
// (configuration_gemma4.py:205–218), which is how transformers writes it
// back.
var globalHeadDimModels = map[string]bool{"gemma4_text": true, "gemma4_unified_text": true,
	"diffusion_gemma_text": true, "embedding_gemma2_text": true}

// globalHeadDim returns the head size of a Gemma 4 full-attention layer:
// global_head_dim, else the head_dim per_layer_config gives the
// full-attention layers (one value), else the class's 512, with a warning.
func (c hfConfig) globalHeadDim(modelType string) (int, error) {
	if c.has("global_head_dim") {
		return c.integer("global_head_dim")
	}
	if plc, ok := c.fields["per_layer_config"].(map[string]any); ok && len(plc) > 0 {
		dims := map[string]int{}
		for k, v := range plc {
			entry, _ := v.(map[string]any)
			if hd, ok := entry["head_dim"]; ok {
				d, err := jsonInt("per_layer_config."+k+".head_dim", hd)
				if err != nil {
					return 0, err
				}
				dims[k] = d
			}
		}
		var values []int
		for _, d := range dims {
			values = append(values, d)
		}
		slices.Sort(values)
		if values = slices.Compact(values); len(values) == 1 {
			return values[0], nil
		}
		if len(values) > 1 {
			return 0, validate.Err("per_layer_config", strings.Trim(fmt.Sprint(values), "[]"), "must give one head_dim to the full-attention layers")
		}
	}
	c.warn("global_head_dim", "missing", fmt.Sprintf("transformers' %s configuration uses 512", modelType))
	return 512, nil
}

// perLayerConfig checks per_layer_config (transformers v5's per-layer
// overrides of the config's attributes): only the head size of
// globalHeadDimModels' full-attention layers, and attributes that have no
// bearing on positions (num_key_value_heads, …), are read or ignored; a
// per-layer head_dim, rope or window of any other model is an error.
func (c hfConfig) perLayerConfig(m *ModelPositions) error {
	plc, ok := c.fields["per_layer_config"].(map[string]any)
	if !ok {
		return nil
	}
	for k, v := range plc {
		entry, ok := v.(map[string]any)
		if !ok {
			return validate.Err("per_layer_config."+k, v, "must be an object")
		}
		for field := range entry {
			if field == "head_dim" && globalHeadDimModels[m.ModelType] {
				continue
			}
			if field == "head_dim" || slices.ContainsFunc(positionWords, func(w string) bool { return strings.Contains(field, w) }) {
				return validate.Err("per_layer_config."+k+"."+field, entry[field], "is a per-layer position setting this reader does not know")
			}
		}
	}
	return nil
}

// interleavedModels are the model types whose transformers code rotates
// adjacent pairs (x₀, x₁), (x₂, x₃), … whatever the config says: a
// rotate_half that takes x[..., 0::2] and x[..., 1::2], or a complex view of
// consecutive pairs (torch.view_as_complex). Every other model type rotates
// halves (HF's rotate_half on x[..., :d/2] and x[..., d/2:]), unless it is
// in ropeInterleaveDefault.
var interleavedModels = map[string]bool{
	"cohere": true, "cohere2": true, "cohere2_moe": true, // rotate_half: x[..., ::2], x[..., 1::2]
	"deepseek_v2":  true,                                                                  // apply_rotary_emb: view_as_complex(xq.reshape(..., -1, 2))
	"deepseek_v32": true,                                                                  // MLA: apply_rotary_pos_emb_interleave always (its config drops rope_interleave)
	"glm_moe_dsa":  true,                                                                  // MLA and indexer: apply_rotary_pos_emb_interleave
	"ernie4_5":     true, "ernie4_5_moe": true, "glm": true, "glm4": true, "helium": true, // rotate_half on 0::2, 1::2
	"gptj": true, "codegen": true, // rotate_every_two
	"llama4_text": true, "llama4": true, // apply_rotary_emb: view_as_complex
	"deepseek_v4": true, // apply_rotary_pos_emb: repeat_interleave(2) of one angle per pair (modeling_deepseek_v4.py:352)
}

// ropeInterleaveDefault are the model types whose attention reads
// config.rope_interleave (interleaved when true, halves when false), with
// the default their configuration class gives it when the key is absent
// (DeepseekV3Config: rope_interleave: bool | None = True).
var ropeInterleaveDefault = map[string]bool{
	"deepseek_v3": true, "mistral4": true, "glm4_moe_lite": true, "youtu": true, "axk1": true, "sarvam_mla": true,
}

// pairLayout returns the pair layout transformers rotates the layers of a
// model type with. A rope_interleave that the model type's code does not
// read is reported as a warning and ignored, as transformers ignores it.
func (c hfConfig) pairLayout(modelType string) (Layout, error) {
	if def, ok := ropeInterleaveDefault[modelType]; ok {
		il := def
		if c.has("rope_interleave") {
			var err error
			if il, err = c.boolean("rope_interleave"); err != nil {
				return Halves, err
			}
		}
		if il {
			return Interleaved, nil
		}
		return Halves, nil
	}
	if c.has("rope_interleave") {
		if _, err := c.boolean("rope_interleave"); err != nil {
			return Halves, err
		}
		c.warn("rope_interleave", c.fields["rope_interleave"], fmt.Sprintf("transformers' %s code does not read it; ignored", modelType))
	}
	if interleavedModels[modelType] {
		return Interleaved, nil
	}
	return Halves, nil
}
