package posenc

import "github.com/posenc/course/internal/validate"

// windowedLayers returns which layers slide when a config has no
// layer_types, by the rule of the model type's configuration class in
// transformers (5.25.0 line numbers):
//
//   - qwen2, qwen3 (configuration_qwen2.py:83–93, configuration_qwen3.py:86–96):
//     sliding_window counts only when use_sliding_window (default false),
//     and then for the layers i >= max_window_layers (default 28);
//   - qwen2_moe (configuration_qwen2_moe.py:109–115): when
//     use_sliding_window, the even layers below max_window_layers;
//   - qwen3_moe (configuration_qwen3_moe.py:107): when use_sliding_window,
//     every layer (its attention takes config.sliding_window);
//   - gemma3_text, cohere2, exaone4 (configuration_gemma3.py:105–109,
//     configuration_cohere2.py:97–99, configuration_exaone4.py:99–108):
//     every layer but each sliding_window_pattern-th, counting from 1
//     (defaults 6, 4 and 4; EXAONE 4 without sliding_window has none);
//   - every other model type (Mistral, Phi-3, …): every layer when
//     sliding_window is set and use_sliding_window is not false.
func (c hfConfig) windowedLayers(modelType string, n int) ([]bool, error) {
	out := make([]bool, n)
	if pattern, ok := slidingPatternDefault[modelType]; ok {
		if modelType == "exaone4" && !c.has("sliding_window") {
			return out, nil
		}
		key := "sliding_window_pattern"
		if modelType == "afmoe" {
			// AfmoeConfig: (i + 1) % global_attn_every_n_layers
			// (configuration_afmoe.py:114–117).
			key = "global_attn_every_n_layers"
		}
		if c.has(key) {
			var err error
			if pattern, err = c.integer(key); err != nil {
				return nil, err
			}
		} else if modelType == "exaone_moe" && !c.has("sliding_window") {
			return nil, validate.Err("sliding_window", "missing", "is required by exaone_moe's layer pattern (transformers divides by zero without it)")
		}
		prefix, prefixPattern := 0, 1
		if modelType == "cohere2_moe" {
			// Cohere2MoeConfig: the first first_k_dense_replace layers
			// follow prefix_dense_sliding_window_pattern (default 1: all
			// full), the rest sliding_window_pattern
			// (configuration_cohere2_moe.py:136–149).
			var err error
			if c.has("first_k_dense_replace") {
				if prefix, err = c.nonNegative("first_k_dense_replace"); err != nil {
					return nil, err
				}
			}
			if c.has("prefix_dense_sliding_window_pattern") {
				if prefixPattern, err = c.integer("prefix_dense_sliding_window_pattern"); err != nil {
					return nil, err
				}
			}
		}
		for i := range out {
			if i < prefix {
				out[i] = (i+1)%prefixPattern != 0
			} else {
				out[i] = (i+1)%pattern != 0
			}
		}
		return out, nil
	}
	if c.has("sliding_window_pattern") {
		return nil, validate.Err("sliding_window_pattern", c.fields["sliding_window_pattern"],
			"is read by gemma3_text, cohere2, exaone4 and exaone_moe only; for "+modelType+" give layer_types")
	}
	use, err := c.optBool("use_sliding_window", useSlidingDefault(modelType))
	if err != nil {
		return nil, err
	}
	if !use || !c.has("sliding_window") {
		return out, nil
	}
	if _, err := c.integer("sliding_window"); err != nil {
		return nil, err
	}
	switch modelType {
	case "qwen2", "qwen3", "qwen2_moe":
		mwl := 28
		if c.has("max_window_layers") {
			if mwl, err = c.nonNegative("max_window_layers"); err != nil {
				return nil, err
			}
		}
		for i := range out {
			if modelType == "qwen2_moe" {
				out[i] = i%2 == 0 && i < mwl
			} else {
				out[i] = i >= mwl
			}
		}
	default:
		for i := range out {
			out[i] = true
		}
	}
	return out, nil
}

// fixedLayerPattern are the model types whose configuration class derives
// layer_types, when a config has none, by a fixed period: layer i is
// full attention when i % Period == FullAt, Other otherwise (5.25.0):
//
//   - gemma2, gpt_oss: (i + 1) % 2 ? sliding : full
//     (configuration_gemma2.py:94–97, configuration_gpt_oss.py:84–87);
//   - olmo3: (i + 1) % 4 != 0 ? sliding : full (configuration_olmo3.py:92–95);
//   - cwm, granite_swa, granitemoe_swa: i % 4 == 0 ? full : sliding
//     (configuration_cwm.py:97–103, configuration_granite_swa.py:105–107);
//   - minimax: (i + 1) % 2 ? full : linear (lightning) attention
//     (configuration_minimax.py:119–122).
var fixedLayerPattern = map[string]struct {
	Period, FullAt int
	Other          string
}{
	"gemma2": {2, 1, "sliding_attention"}, "gpt_oss": {2, 1, "sliding_attention"},
	"olmo3": {4, 3, "sliding_attention"},
	"cwm":   {4, 0, "sliding_attention"}, "granite_swa": {4, 0, "sliding_attention"}, "granitemoe_swa": {4, 0, "sliding_attention"},
	"minimax": {2, 0, "linear_attention"},
}

// slidingPatternDefault is sliding_window_pattern's default for the model
// types whose configuration class derives layer_types from it.
// (configuration_exaone_moe.py:129–135 like EXAONE 4's, but without
// sliding_window its class divides by zero: an error here).
var slidingPatternDefault = map[string]int{"gemma3_text": 6, "cohere2": 4, "cohere2_moe": 4, "exaone4": 4, "exaone_moe": 4, "afmoe": 4}

// useSlidingDefault is use_sliding_window's class default: false for the
// Qwen classes, which ship sliding_window set but unused.
func useSlidingDefault(modelType string) bool {
	switch modelType {
	case "qwen2", "qwen3", "qwen2_moe", "qwen3_moe":
		return false
	}
	return true
}

// optBool returns the boolean field key, or def when it is absent or null.
func (c hfConfig) optBool(key string, def bool) (bool, error) {
	if !c.has(key) {
		return def, nil
	}
	return c.boolean(key)
}

// nonNegative returns a required integer field that may be 0.
func (c hfConfig) nonNegative(key string) (int, error) {
	if n, ok := c.fields[key].(interface{ String() string }); ok && n.String() == "0" {
		return 0, nil
	}
	return c.integer(key)
}
