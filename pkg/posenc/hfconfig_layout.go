package posenc

import "fmt"

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
