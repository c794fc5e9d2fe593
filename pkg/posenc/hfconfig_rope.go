package posenc

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/posenc/course/internal/validate"
)

// ropeKeys lists, for each rope_type, the keys its dictionary may hold, as
// transformers v5's _validate_<rope_type>_rope_parameters accepts them
// (required and optional, plus rope_type/type and partial_rotary_factor).
var ropeKeys = map[string][]string{
	"default":      {},
	"linear":       {"factor"},
	"dynamic":      {"factor"},
	"yarn":         {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate"},
	"longrope":     {"short_factor", "long_factor", "original_max_position_embeddings", "attention_factor", "factor"},
	"llama3":       {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"},
	"proportional": {"factor"},
}

// mropeKeys are the keys of a flat rope dictionary that a multimodal
// model's text configuration reads for its multimodal RoPE
// (ignore_keys_at_rope_validation of Qwen2VLTextConfig, Qwen3VLTextConfig,
// Glm4vTextConfig, …), by model type without a "_text" suffix.
var mropeKeys = map[string][]string{
	"qwen2_vl": {"mrope_section"}, "qwen2_5_vl": {"mrope_section"}, "qwen2_5_omni": {"mrope_section"},
	"qwen3_vl": {"mrope_section", "mrope_interleaved"}, "qwen3_vl_moe": {"mrope_section", "mrope_interleaved"},
	"qwen3_5": {"mrope_section", "mrope_interleaved"}, "qwen3_5_moe": {"mrope_section", "mrope_interleaved"},
	"qwen3_omni_moe": {"mrope_section", "mrope_interleaved", "interleaved"},
	"glm4v":          {"mrope_section"}, "glm4v_moe": {"mrope_section"}, "ernie4_5_vl_moe": {"mrope_section"},
}

// defaultPartialRotary is the partial_rotary_factor a configuration class
// gives its model when the config has none (transformers 5.25.0:
// kwargs.setdefault("partial_rotary_factor", …) in its __post_init__, e.g.
// configuration_glm4_moe.py:119 and configuration_qwen3_next.py:124).
var defaultPartialRotary = map[string]float64{
	"glm": 0.5, "glm4": 0.5, "glm4_moe": 0.5, "nemotron": 0.5, "persimmon": 0.5, "phi": 0.5,
	"recurrent_gemma": 0.5, "dots3_note": 0.5,
	"qwen3_5_text": 0.25, "qwen3_5_moe_text": 0.25, "qwen3_next": 0.25, "stablelm": 0.25, "gpt_neox": 0.25,
}

// ropeByType returns the RoPE of each layer type the config names, nil for
// a type whose nested rope_parameters entry is null.
func (c hfConfig) ropeByType(types []string, m *ModelPositions) (map[string]*RoPE, error) {
	if c.has("rope_scaling") && c.has("rope_parameters") {
		return nil, validate.Err("rope_scaling", c.fields["rope_scaling"], "must not be given together with rope_parameters")
	}
	key := "rope_parameters"
	if c.has("rope_scaling") {
		key = "rope_scaling"
	}
	var dict map[string]any
	if c.has(key) {
		d, ok := c.fields[key].(map[string]any)
		if !ok {
			return nil, validate.Err(key, c.fields[key], "must be an object")
		}
		dict = d
	}
	out := map[string]*RoPE{}
	present := slices.Compact(slices.Sorted(slices.Values(types)))
	nested := false
	for k := range dict {
		if slices.Contains(layerKinds, k) {
			nested = true
		}
	}
	switch {
	case nested:
		for k, v := range dict {
			if !slices.Contains(present, k) {
				// transformers keeps the entry unused
				// (standardize_rope_params fills in every nested key).
				c.warn(key+"."+k, "an entry", "names a layer type that layer_types does not use; transformers keeps it unused")
				continue
			}
			if v == nil {
				out[k] = nil
				continue
			}
			sub, ok := v.(map[string]any)
			if !ok {
				return nil, validate.Err(key+"."+k, v, "must be an object or null")
			}
			r, err := c.rope(key+"."+k, sub, k, m, true)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		for _, t := range present {
			if _, ok := out[t]; !ok && !c.ropeSkipped(m.ModelType, t) {
				return nil, validate.Err(key, "no entry for "+t, "must have an entry for every layer type of layer_types")
			}
		}
	case splitRopeTheta[m.ModelType].Local != "":
		full, sliding, err := c.splitRope(key, dict, m)
		if err != nil {
			return nil, err
		}
		out["full_attention"], out["sliding_attention"] = full, sliding
	case c.has("rope_local_base_freq"):
		return nil, validate.Err("rope_local_base_freq", c.fields["rope_local_base_freq"],
			"is read by gemma3_text, gemma3n_text and t5gemma2 only; for "+m.ModelType+" give rope_parameters per layer type")
	default:
		for _, t := range present {
			if c.ropeSkipped(m.ModelType, t) {
				continue
			}
			r, err := c.rope(key, dict, t, m, false)
			if err != nil {
				return nil, err
			}
			out[t] = r
		}
	}
	return out, nil
}

// splitRope builds the full- and sliding-attention RoPE of a model type of
// splitRopeTheta whose config is not keyed by layer type, as its class
// does (configuration_gemma3.py:132–157, configuration_olmo3.py:100–125):
// full_attention is {"rope_type": "default"} updated with rope_scaling,
// with rope_theta (default Global); sliding_attention is the default RoPE
// with the Local field (default LocalDefault). A flat rope_parameters is
// ignored there, as the class keeps only the layer-type keys it adds.
func (c hfConfig) splitRope(key string, dict map[string]any, m *ModelPositions) (full, sliding *RoPE, err error) {
	split := splitRopeTheta[m.ModelType]
	fullDict := map[string]any{"rope_type": "default"}
	if key == "rope_parameters" && dict != nil {
		c.warn("rope_parameters", "a flat dictionary", fmt.Sprintf("transformers' %s configuration keys it by layer type and ignores flat keys", m.ModelType))
	} else {
		for k, v := range dict {
			fullDict[k] = v
		}
	}
	if _, ok := fullDict["rope_theta"]; !ok && !c.has("rope_theta") {
		fullDict["rope_theta"] = json.Number(fmt.Sprint(split.Global))
		c.warn("rope_theta", "missing", fmt.Sprintf("transformers' %s configuration gives its full-attention layers %g", m.ModelType, split.Global))
	}
	// The sliding layers' base. OLMo 3's class pops rope_theta for the
	// full layers first, so that its sliding layers always get the
	// default (kwargs.pop("rope_theta", self.default_theta),
	// configuration_olmo3.py:115–119).
	local, localField := split.LocalDefault, split.Local
	switch {
	case split.Local != "rope_theta" && c.has(split.Local):
		if local, err = c.float(split.Local); err != nil {
			return nil, nil, err
		}
		if !(local > 1) {
			return nil, nil, validate.Err(split.Local, local, "must be > 1 (the sliding layers' RoPE base)")
		}
	case split.Local == "rope_theta" && c.has("rope_theta"):
		if t, err := c.float("rope_theta"); err == nil && t != local {
			c.warn("rope_theta", t, fmt.Sprintf("transformers' %s configuration gives it to the full-attention layers only; the sliding ones keep %g", m.ModelType, local))
		}
	default:
		c.warn(split.Local, "missing", fmt.Sprintf("transformers' %s configuration gives its sliding layers %g", m.ModelType, local))
	}
	name := key
	if !c.has(key) || key == "rope_parameters" {
		name = "rope_parameters.full_attention"
	}
	if full, err = c.rope(name, fullDict, "full_attention", m, false); err != nil {
		return nil, nil, err
	}
	sliding, err = c.rope(localField, map[string]any{"rope_theta": json.Number(strconv.FormatFloat(local, 'g', -1, 64))}, "sliding_attention", m, false)
	return full, sliding, err
}

// rope builds the RoPE of one rope dictionary (which may be nil: the
// default RoPE with the top-level rope_theta) for layers of layerType;
// nested says the dictionary is one of several per layer type.
func (c hfConfig) rope(name string, d map[string]any, layerType string, m *ModelPositions, nested bool) (*RoPE, error) {
	field := func(k string) string { return name + "." + k }
	typ := "default"
	for _, k := range []string{"rope_type", "type"} {
		if v, ok := d[k]; ok {
			s, ok := v.(string)
			if !ok {
				return nil, validate.Err(field(k), v, "must be a string")
			}
			typ = s
		}
	}
	if (typ == "su" || typ == "yarn") && (m.ModelType == "phi3" || m.ModelType == "phi4_multimodal") {
		// Phi3Config: "For backward compatibility if previous version
		// used "su" or "yarn"": rope_type = "longrope"
		// (configuration_phi3.py:99–102).
		c.warn(field("rope_type"), typ, "transformers' phi3 configuration reads it as longrope")
		typ = "longrope"
	}
	if typ == "mrope" && strings.HasPrefix(m.ModelType, "qwen2") && strings.Contains(m.ModelType, "_vl") {
		// Qwen2VLTextConfig: rope_type "mrope" becomes "default", its
		// mrope_section read by the model (configuration_qwen2_vl.py:130–131).
		typ = "default"
	}
	allowed, ok := ropeKeys[typ]
	if !ok {
		names := make([]string, 0, len(ropeKeys))
		for k := range ropeKeys {
			names = append(names, k)
		}
		slices.Sort(names)
		return nil, validate.Err(field("rope_type"), typ, "must be one of "+strings.Join(names, ", "))
	}
	for k, v := range d {
		if k == "rope_type" || k == "type" || k == "rope_theta" || k == "partial_rotary_factor" || slices.Contains(allowed, k) {
			continue
		}
		if slices.Contains(mropeKeys[strings.TrimSuffix(m.ModelType, "_text")], k) {
			continue // read by mropeSection
		}
		if k == "llama_4_scaling_beta" || (k == "max_position_embeddings" && m.ModelType == "ministral3") {
			// Read by llama4Scaling; Ministral3Config's
			// ignore_keys_at_rope_validation holds both.
			continue
		}
		// transformers' _check_received_keys only warns about it
		// (modeling_rope_utils.py:1174), and no RoPE function reads it.
		c.warn(field(k), v, "is not a key of rope_type "+typ+"; transformers warns and ignores it")
	}
	get := func(k string) (any, bool) { v, ok := d[k]; return v, ok && v != nil }
	num := func(k string) (float64, error) {
		v, ok := get(k)
		if !ok {
			return 0, validate.Err(field(k), "missing", "is required by rope_type "+typ)
		}
		return jsonFloat(field(k), v)
	}
	optNum := func(k string) (float64, error) {
		if _, ok := get(k); !ok {
			return 0, nil
		}
		return num(k)
	}

	// rope_theta: the dictionary's, else the top-level field (HF's
	// standardize_rope_params); never a silent 10000.
	// Each value is named by where it was written: "rope_theta" at the top
	// level, "rope_parameters.rope_theta" inside the dictionary.
	var base float64
	var err error
	thetaField := "rope_theta"
	if _, ok := get("rope_theta"); ok {
		thetaField = field("rope_theta")
		base, err = num("rope_theta")
	} else if m.ModelType == "gpt_neox" {
		// GPTNeoXConfig: rope_theta = kwargs.pop("rotary_emb_base",
		// default_theta); a top-level rope_theta is not read
		// (configuration_gpt_neox.py:97).
		base = 10000
		if c.has("rotary_emb_base") {
			thetaField = "rotary_emb_base"
			base, err = c.float("rotary_emb_base")
		} else {
			c.warn("rotary_emb_base", "missing", "transformers' gpt_neox configuration uses 10000")
		}
		if c.has("rope_theta") {
			c.warn("rope_theta", c.fields["rope_theta"], "transformers' gpt_neox configuration reads rotary_emb_base instead; ignored")
		}
	} else if c.has("rope_theta") {
		base, err = c.float("rope_theta")
	} else if t, ok := defaultTheta(m.ModelType); ok {
		// transformers takes the class's default; so does the reader,
		// and says so.
		base = t
		c.warn("rope_theta", "missing", fmt.Sprintf("transformers' %s configuration uses its default %g", m.ModelType, t))
	} else {
		return nil, validate.Err("rope_theta", "missing", "must be given (top level or in "+name+"): "+m.ModelType+"'s default is per layer kind")
	}
	if err != nil {
		return nil, err
	}
	if !(base > 1) {
		return nil, validate.Err(thetaField, base, "must be > 1 (the RoPE base)")
	}
	prf := 1.0
	prfField := "partial_rotary_factor"
	if _, ok := get("partial_rotary_factor"); ok {
		prfField = field("partial_rotary_factor")
		prf, err = num("partial_rotary_factor")
	} else if c.has("partial_rotary_factor") {
		prf, err = c.float("partial_rotary_factor")
	} else if m.ModelType == "minimax_m2" && c.has("rotary_dim") {
		// MiniMaxM2Config: partial_rotary_factor = rotary_dim / head_dim
		// (configuration_minimax_m2.py:95–100).
		prfField = "rotary_dim"
		var rd int
		if rd, err = c.integer("rotary_dim"); err == nil {
			prf = float64(rd) / float64(m.HeadDim)
		}
	} else if m.ModelType == "gpt_neox" && c.has("rotary_pct") {
		// GPTNeoXConfig: rope_parameters.setdefault("partial_rotary_factor",
		// kwargs.pop("rotary_pct", 0.25)).
		prfField = "rotary_pct"
		prf, err = c.float("rotary_pct")
	} else if def, ok := defaultPartialRotary[m.ModelType]; ok {
		prf = def
	}
	if err != nil {
		return nil, err
	}
	if prf <= 0 || prf > 1 {
		return nil, validate.Err(prfField, prf, "must be in (0, 1]")
	}

	headDim := m.HeadDim
	if globalHeadDimModels[m.ModelType] && layerType == "full_attention" {
		// Gemma 4's global layers have their own head size
		// (Gemma4TextConfig's per_layer_config).
		if headDim, err = c.globalHeadDim(m.ModelType); err != nil {
			return nil, err
		}
	}
	layout, err := c.pairLayout(m.ModelType)
	if err != nil {
		return nil, err
	}
	r := NewRoPE(headDim).WithBase(base).WithLayout(layout)
	if (m.ModelType == "gptj" || m.ModelType == "codegen") && c.has("rotary_dim") {
		// GPTJAttention and CodeGenAttention rotate the first rotary_dim
		// dimensions of each head, base 10000 (modeling_gptj.py:47, :146–150).
		rd, err := c.integer("rotary_dim")
		if err != nil {
			return nil, err
		}
		if rd%2 != 0 || rd > headDim {
			return nil, validate.Err("rotary_dim", rd, fmt.Sprintf("must be even and at most the head size %d", headDim))
		}
		r = r.WithRotaryDim(rd)
	} else if typ != "proportional" {
		// HF: dim = int(head_dim * partial_rotary_factor). A factor that
		// leaves no pair to rotate is an error here: transformers would
		// build an empty inv_freq and rotate nothing, silently.
		rot := int(float64(headDim) * prf)
		if rot < 2 {
			return nil, validate.Err(prfField, prf, fmt.Sprintf("must leave at least one pair to rotate (head_dim %d × factor = %d dimensions)", headDim, rot))
		}
		if rot%2 != 0 {
			// inv_freq = 1 / base ** (arange(0, rot, 2) / rot) holds
			// (rot+1)/2 frequencies with exponent denominator rot, and
			// the cos/sin of width rot+1 rotate rot+1 dimensions
			// (modeling_rope_utils.py:181–185; q[..., :cos.shape[-1]] in
			// the partial-rotary models): not a RoPE of this library,
			// whose rotary width is its exponent denominator.
			return nil, validate.Err(prfField, prf, fmt.Sprintf("gives an odd rotary width (head_dim %d × factor = %d): transformers rotates %d dimensions with exponents 2i/%d, which this reader does not model", headDim, rot, rot+1, rot))
		}
		if rot != headDim {
			r = r.WithRotaryDim(rot)
		}
	}

	// original_max_position_embeddings as HF's standardize_rope_params
	// settles it: for a single dictionary a top-level field wins over the
	// dictionary's (the exception made for Phi-3); otherwise the
	// dictionary's, then max_position_embeddings.
	orig := func() (int, error) {
		if !nested && c.has("original_max_position_embeddings") {
			return c.integer("original_max_position_embeddings")
		}
		if v, ok := get("original_max_position_embeddings"); ok {
			return jsonInt(field("original_max_position_embeddings"), v)
		}
		return m.MaxPositions, nil
	}
	// original_max_position_embeddings and factor, or, for LongRoPE alone,
	// max_position_embeddings / original when factor is absent
	// (_compute_longrope_parameters; transformers warns). YaRN requires
	// factor: _check_received_keys raises a KeyError naming it.
	origAndFactor := func() (int, float64, error) {
		l0, err := orig()
		if err != nil {
			return 0, 0, err
		}
		if _, ok := get("factor"); ok || typ != "longrope" {
			f, err := num("factor")
			return l0, f, err
		}
		c.warn(field("factor"), "missing", "transformers uses max_position_embeddings / original_max_position_embeddings")
		return l0, float64(m.MaxPositions) / float64(l0), nil
	}

	var sc Scaling
	switch typ {
	case "default":
	case "linear":
		f, err := num("factor")
		if err != nil {
			return nil, err
		}
		sc = LinearScaling(f)
	case "dynamic":
		f, err := num("factor")
		if err != nil {
			return nil, err
		}
		sc = DynamicNTKScaling(f, m.MaxPositions, m.MaxPositions)
	case "yarn":
		l0, f, err := origAndFactor()
		if err != nil {
			return nil, err
		}
		sc = Scaling{Kind: ScalingYaRN, Factor: f, OriginalLen: l0}
		for _, p := range []struct {
			key string
			dst *float64
		}{{"beta_fast", &sc.BetaFast}, {"beta_slow", &sc.BetaSlow}, {"attention_factor", &sc.AttentionFactor},
			{"mscale", &sc.MScale}, {"mscale_all_dim", &sc.MScaleAllDim}} {
			if *p.dst, err = optNum(p.key); err != nil {
				return nil, err
			}
		}
		if v, ok := get("truncate"); ok {
			b, ok := v.(bool)
			if !ok {
				return nil, validate.Err(field("truncate"), v, "must be true or false")
			}
			sc.NoTruncate = !b
		}
	case "llama3":
		l0, err := orig()
		if err != nil {
			return nil, err
		}
		sc = Scaling{Kind: ScalingLlama3, OriginalLen: l0}
		for _, p := range []struct {
			key string
			dst *float64
		}{{"factor", &sc.Factor}, {"low_freq_factor", &sc.LowFreqFactor}, {"high_freq_factor", &sc.HighFreqFactor}} {
			if *p.dst, err = num(p.key); err != nil {
				return nil, err
			}
		}
	case "longrope":
		l0, f, err := origAndFactor()
		if err != nil {
			return nil, err
		}
		short, err := floatList(field("short_factor"), d["short_factor"])
		if err != nil {
			return nil, err
		}
		long, err := floatList(field("long_factor"), d["long_factor"])
		if err != nil {
			return nil, err
		}
		sc = LongRoPEScaling(f, l0, 0, short, long)
		if sc.AttentionFactor, err = optNum("attention_factor"); err != nil {
			return nil, err
		}
	case "proportional":
		f := 1.0
		if _, ok := get("factor"); ok {
			if f, err = num("factor"); err != nil {
				return nil, err
			}
		}
		sc = ProportionalScaling(prf)
		sc.Factor = f
	}
	r = r.WithScaling(sc)
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &r, nil
}

func floatList(key string, v any) ([]float64, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, validate.Err(key, v, "must be a list of numbers")
	}
	out := make([]float64, len(list))
	for i, x := range list {
		f, err := jsonFloat(fmt.Sprintf("%s[%d]", key, i), x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// defaultTheta returns the RoPE base transformers gives a config of
// modelType without rope_theta: classTheta's, else PreTrainedConfig's
// default_theta, 10000; false for the model types whose default depends
// on the layer kind.
func defaultTheta(modelType string) (float64, bool) {
	switch modelType {
	case "gemma3_text", "gemma3n_text", "modernbert", "modernbert-decoder", "neomme", "t5gemma2_decoder", "t5gemma2_text":
		return 0, false
	}
	if t, ok := classTheta[modelType]; ok {
		return t, true
	}
	return 10000, true
}
