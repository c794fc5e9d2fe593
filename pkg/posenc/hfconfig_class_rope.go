package posenc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/posenc/course/internal/validate"
)

// classRopeParameters are the rope_parameters a configuration class of
// transformers 5.25.0 gives a config that has neither rope_parameters nor
// rope_scaling (or has them null): its __post_init__ sets
// `if self.rope_parameters is None: self.rope_parameters = {…}` before
// RotaryEmbeddingConfigMixin.convert_rope_params_to_dict, which keeps a
// given rope_scaling instead (rope_scaling or self.rope_parameters,
// modeling_rope_utils.py:794) and fills the top-level rope_theta in only
// where the dictionary has none (setdefault, :812). So gpt-oss's default
// YaRN takes the config's rope_theta, and Ministral 3's keeps its own
// 1e6 whatever the config's rope_theta says.
var classRopeParameters = map[string]string{
	// configuration_gpt_oss.py:89–97
	"gpt_oss": `{"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
		"original_max_position_embeddings": 4096}`,
	// configuration_openai_privacy_filter.py:105–113 (gpt-oss's)
	"openai_privacy_filter": `{"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
		"original_max_position_embeddings": 4096}`,
	// configuration_ministral3.py:94–106; its "max_position_embeddings":
	// self.max_position_embeddings is a key no RoPE function reads
	// (ignore_keys_at_rope_validation).
	"ministral3": `{"type": "yarn", "rope_theta": 1000000.0, "factor": 16.0, "original_max_position_embeddings": 16384,
		"beta_fast": 32.0, "beta_slow": 1.0, "mscale_all_dim": 1.0, "mscale": 1.0, "llama_4_scaling_beta": 0.1}`,
	// configuration_apertus.py:86–94, configuration_apertus1p5.py:161–169
	"apertus": `{"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0, "original_max_position_embeddings": 8192,
		"low_freq_factor": 1.0, "high_freq_factor": 4.0}`,
	"apertus1p5_text": `{"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0, "original_max_position_embeddings": 8192,
		"low_freq_factor": 1.0, "high_freq_factor": 4.0}`,
	// configuration_cwm.py:87–95
	"cwm": `{"rope_theta": 1000000.0, "factor": 16.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
		"original_max_position_embeddings": 8192, "rope_type": "llama3"}`,
}

// classRopeUnread are the model types whose configuration class builds its
// own default rope_parameters from other fields (per layer type, from the
// head parts, with NoPE layers) in a way this reader does not reproduce:
// a config of theirs without rope_parameters is an error naming it, never
// a guess. The golden file lists every model type of transformers whose
// class has a default (class_rope_defaults), and TestGoldenClassRope checks
// that each is read as transformers reads it, split by layer kind
// (splitRopeTheta), or listed here.
var classRopeUnread = []string{
	"beam", "cosmos3_edge_text", "diffusion_gemma_text", "dory", "dots3_note_text",
	"embedding_gemma2_text", "ergo", "gemma4_text", "gemma4_unified_text", "hy_v4_vl_text", "laguna", "lfm3",
	"mellum", "mimo_v2_flash", "mistral4", "mistral_large4_text", "modernbert", "modernbert-decoder",
	"neomme", "step3p5", "t5gemma2_decoder", "t5gemma2_text", "ultrabert", "zaya", "cohere_compass_text",
}

// splitRopeTheta are the model types whose configuration class always keys
// rope_parameters by layer type, building it from the older fields
// (configuration_gemma3.py:132–157, configuration_gemma3n.py:176–201,
// configuration_olmo3.py:100–125): rope_scaling goes into full_attention
// only, full_attention takes rope_theta (default Global), and
// sliding_attention takes the field Local names (default LocalDefault).
var splitRopeTheta = map[string]struct {
	Global, LocalDefault float64
	Local                string
}{
	"gemma3_text":  {1e6, 1e4, "rope_local_base_freq"},
	"gemma3n_text": {1e6, 1e4, "rope_local_base_freq"},
	"olmo3":        {5e5, 5e5, "rope_theta"},
}

// classRope puts the class default of classRopeParameters into the config
// when it has neither rope_parameters nor rope_scaling (an empty or null
// one counts as none, as Python's `or` has it), with a warning that says
// so; or fails for a model type of classRopeUnread.
func (c hfConfig) classRope(modelType string) error {
	if d, ok := c.fields["rope_scaling"].(map[string]any); ok && len(d) == 0 {
		delete(c.fields, "rope_scaling")
	}
	if c.has("rope_parameters") || c.has("rope_scaling") {
		return nil
	}
	if slices.Contains(classRopeUnread, modelType) {
		return validate.Err("rope_parameters", "missing",
			fmt.Sprintf("must be given: transformers' %s configuration builds its own default, which this reader does not reproduce", modelType))
	}
	src, ok := classRopeParameters[modelType]
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(src)))
	dec.UseNumber()
	var d map[string]any
	if err := dec.Decode(&d); err != nil {
		panic("posenc: classRopeParameters[" + modelType + "]: " + err.Error())
	}
	c.fields["rope_parameters"] = d
	c.warn("rope_parameters", "missing", fmt.Sprintf("transformers' %s configuration uses its default %s", modelType, compactJSON(src)))
	if theta, ok := d["rope_theta"]; ok && c.has("rope_theta") && fmt.Sprint(c.fields["rope_theta"]) != fmt.Sprint(theta) {
		// setdefault keeps the default's own base (modeling_rope_utils.py:812).
		c.warn("rope_theta", c.fields["rope_theta"], fmt.Sprintf("not used: the default rope_parameters has its own rope_theta %v", theta))
	}
	return nil
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
