package posenc

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/posenc/course/internal/validate"
)

// deepseekV4Types are DeepSeek-V4's layer types, and the compress_ratios
// entries (its older form) that name them (configuration_deepseek_v4.py:28).
var deepseekV4Types = map[string]string{"0": "sliding_attention", "4": "compressed_sparse_attention", "128": "heavily_compressed_attention"}

// deepseekV4 reads DeepSeek-V4's positions, which do not follow the other
// models' rules (configuration_deepseek_v4.py, DeepseekV4Config):
//
//   - rope_parameters is keyed by rope type, "main" and "compress", not by
//     layer type; a flat one (or rope_scaling) is the compressed branch's
//     scaling, and the class builds main = default RoPE with rope_theta
//     (10000) and compress = that scaling with compress_rope_theta (160000)
//     and, for YaRN, attention_factor 1;
//   - sliding_attention layers rotate with "main", the compressed ones
//     (compressed_sparse_attention, heavily_compressed_attention) with
//     "compress" (modeling_deepseek_v4.py:786), every layer with the
//     sliding window sliding_window (default 128);
//   - layer_types, else compress_ratios (0, 4, 128 per layer), else two
//     heavily compressed layers and then the two compressed kinds alternating;
//   - each head of head_dim (512) is [position-free | rotary]: RoPE rotates
//     the trailing head_dim·partial_rotary_factor dimensions (default 64 of
//     512) in adjacent pairs (its apply_rotary_pos_emb, :352).
func (c hfConfig) deepseekV4(m *ModelPositions, n int) error {
	headDim := 512
	if c.has("head_dim") {
		var err error
		if headDim, err = c.integer("head_dim"); err != nil {
			return err
		}
	}
	prf := 64.0 / 512
	switch {
	case c.has("partial_rotary_factor"):
		var err error
		if prf, err = c.float("partial_rotary_factor"); err != nil {
			return err
		}
	case c.has("qk_rope_head_dim"):
		rope, err := c.integer("qk_rope_head_dim")
		if err != nil {
			return err
		}
		prf = float64(rope) / float64(headDim)
	}
	rot := int(float64(headDim) * prf)
	if rot < 2 || rot > headDim || rot%2 != 0 {
		return validate.Err("partial_rotary_factor", prf, fmt.Sprintf("must give an even rotary part of head_dim %d, got %d dimensions", headDim, rot))
	}
	m.HeadDim = rot
	m.Decoupled = &DecoupledHead{NopeDim: headDim - rot, RopeDim: rot}

	main, compress, where, err := c.deepseekV4Dicts()
	if err != nil {
		return err
	}
	ropes := map[string]*RoPE{}
	for label, d := range map[string]map[string]any{"main": main, "compress": compress} {
		// The head here is the rotary part alone: the dictionary's
		// partial_rotary_factor is already in m.HeadDim.
		d = maps.Clone(d)
		d["partial_rotary_factor"] = json.Number("1")
		r, err := c.rope(where+label, d, label, m, true)
		if err != nil {
			return err
		}
		ropes[label] = r
	}

	types, err := c.deepseekV4Types(n)
	if err != nil {
		return err
	}
	window := 128
	if c.has("sliding_window") {
		if window, err = c.integer("sliding_window"); err != nil {
			return err
		}
	}
	m.Layers = make([]LayerPositions, n)
	for i, t := range types {
		r := *ropes["compress"]
		if t == "sliding_attention" {
			r = *ropes["main"]
		}
		m.Layers[i] = LayerPositions{Type: t, RoPE: &r, Window: window, Sinks: true}
	}
	return nil
}

// deepseekV4Dicts returns the "main" and "compress" rope dictionaries as
// DeepseekV4Config.__post_init__ settles them, and the prefix that names
// their fields in messages.
func (c hfConfig) deepseekV4Dicts() (main, compress map[string]any, where string, err error) {
	key := "rope_parameters"
	if !c.has(key) && c.has("rope_scaling") {
		key = "rope_scaling"
	}
	flat := map[string]any{}
	if c.has(key) {
		d, ok := c.fields[key].(map[string]any)
		if !ok {
			return nil, nil, "", validate.Err(key, c.fields[key], "must be an object")
		}
		flat = d
	}
	m, mok := flat["main"].(map[string]any)
	cm, cok := flat["compress"].(map[string]any)
	if mok && cok {
		return m, cm, key + ".", nil
	}
	theta := func(field string, def string) any {
		if c.has(field) {
			return c.fields[field]
		}
		return json.Number(def)
	}
	main = map[string]any{"rope_type": "default", "rope_theta": theta("rope_theta", "10000")}
	compress = map[string]any{}
	for k, v := range flat {
		if k != "main" && k != "compress" {
			compress[k] = v
		}
	}
	compress["rope_theta"] = theta("compress_rope_theta", "160000")
	typ, _ := compress["rope_type"].(string)
	if t, ok := compress["type"].(string); ok && typ == "" {
		typ = t
	}
	if typ == "yarn" {
		if _, ok := compress["attention_factor"]; !ok {
			compress["attention_factor"] = json.Number("1")
		}
	}
	return main, compress, key + ".", nil
}

// deepseekV4Types returns the layer types: layer_types, compress_ratios,
// or DeepseekV4Config's default pattern.
func (c hfConfig) deepseekV4Types(n int) ([]string, error) {
	known := slices.Collect(maps.Values(deepseekV4Types))
	slices.Sort(known)
	for _, key := range []string{"layer_types", "compress_ratios"} {
		if !c.has(key) {
			continue
		}
		list, ok := c.fields[key].([]any)
		if !ok || len(list) < n {
			return nil, validate.Err(key, c.fields[key], fmt.Sprintf("must be a list of at least num_hidden_layers (%d) entries", n))
		}
		out := make([]string, n)
		for i, v := range list[:n] {
			s := fmt.Sprint(v)
			if key == "compress_ratios" {
				s = deepseekV4Types[s]
			}
			if !slices.Contains(known, s) {
				return nil, validate.Err(fmt.Sprintf("%s[%d]", key, i), v, "must name one of "+fmt.Sprint(known))
			}
			out[i] = s
		}
		return out, nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = "heavily_compressed_attention"
		if i >= 2 && (i-2)%2 == 1 {
			out[i] = "compressed_sparse_attention"
		}
	}
	return out, nil
}
