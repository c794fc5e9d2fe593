package posenc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/posenc/course/internal/validate"
)

// ModelPositions is what a Hugging Face config.json says about positions:
// one LayerPositions per layer. Read it with ParseHFConfig or ReadHFConfig.
type ModelPositions struct {
	// ModelType is the config's model_type (of its text_config for a
	// multimodal config).
	ModelType string
	// MaxPositions is max_position_embeddings: the context the model is
	// configured for (after any extension); 0 for a model whose config has
	// none and whose class needs none (Kimi Linear, Nemotron-H,
	// RecurrentGemma).
	MaxPositions int
	// TrainedLen is the context the position scaling starts from: the
	// original_max_position_embeddings of the scaling, or MaxPositions
	// when no scaling names one.
	TrainedLen int
	// HeadDim is the query/key head size of the attention layers (of the
	// sliding ones when global layers have their own, as Gemma 4's).
	HeadDim int
	// Decoupled is set for multi-head latent attention (DeepSeek-V2/V3):
	// each query/key head is a position-free part and a rotary part, and
	// every layer's RoPE covers the rotary part alone.
	Decoupled *DecoupledHead
	// Layers holds one entry per layer, in order.
	Layers []LayerPositions
	// Ignored are the config's top-level fields the reader did not read
	// (vocab_size, intermediate_size, …, and harmless ones in
	// ignoredPositionFields), sorted: they have no bearing on positions.
	Ignored []string
	// Warnings are the settings transformers accepts with a warning (a
	// value it ignores, a fallback it takes), one message each naming the
	// field; the reader went on as transformers does.
	Warnings []string
}

// DecoupledHead describes the query/key heads of multi-head latent
// attention: NopeDim dimensions that carry no position (qk_nope_head_dim)
// followed by RopeDim rotary ones (qk_rope_head_dim).
type DecoupledHead struct {
	NopeDim, RopeDim int
}

// LayerPositions is how one layer sees positions.
type LayerPositions struct {
	// Type is the layer's entry of layer_types: full_attention,
	// sliding_attention, chunked_attention or linear_attention; "hybrid"
	// for Falcon-H1, whose every layer runs attention (with RoPE) beside a
	// Mamba-2 mixer.
	Type string
	// RoPE is the layer's rotary embedding, or nil for a layer that uses no
	// position encoding at all (NoPE; a linear-attention layer).
	RoPE *RoPE
	// Window is the attention span of a sliding_attention layer
	// (sliding_window) or the chunk of a chunked_attention layer
	// (attention_chunk_size); 0 for full attention.
	Window int
	// Indexer is the rotation of the lightning indexer of DeepSeek Sparse
	// Attention on this layer, nil for a layer without one: the layer's
	// frequencies, in the indexer's own pair layout (DeepSeek-V3.2 rotates
	// its indexer in halves while its MLA rotates adjacent pairs; GLM-5
	// rotates both in adjacent pairs).
	Indexer *RoPE
	// Sinks is set when the layer's softmax has a learned sink logit per
	// head (gpt-oss, DeepSeek-V4: an extra logit that takes attention mass
	// whatever the positions, so a head can attend to nothing). The
	// values are weights; the config says only that the model has them.
	Sinks bool
	// MRoPESection, for a multimodal model's text layers (Qwen2-VL,
	// Qwen2.5-VL, Qwen3-VL, GLM-4V, …), is the rope dictionary's
	// mrope_section: how many of the rotary pairs follow the temporal,
	// height and width position ids, in that order (MRoPEAxes); nil
	// otherwise. For text alone the three ids are equal and the rotation
	// is the layer's RoPE. MRoPEInterleaved is mrope_interleaved (Qwen3-VL:
	// the axes cycle pair by pair instead of lying in blocks).
	MRoPESection     []int
	MRoPEInterleaved bool
	// Temperature, when set, scales the queries of this layer with the
	// position (Llama 4's attn_temperature_tuning on its NoPE layers).
	Temperature *AttentionTemperature
}

// AttentionTemperature is Llama 4's inference-time query scaling on its
// NoPE layers (Hugging Face's Llama4TextAttention, attn_temperature_tuning):
// the query at position p is multiplied by
//
//	log(⌊(p+1)/FloorScale⌋ + 1)·Scale + 1
//
// which is 1 for the first FloorScale−1 positions and grows with the log of
// the position after: without positions, attention over more keys gets
// flatter, and a sharper softmax makes up for it.
//
// Ministral 3 scales the queries of every layer the same way, from
// position 0 rather than 1 (FromZero): its get_llama_4_attn_scale is
// 1 + llama_4_scaling_beta·log(1 + ⌊p / original_max_position_embeddings⌋).
type AttentionTemperature struct {
	Scale, FloorScale float64
	// FromZero floors p/FloorScale instead of (p+1)/FloorScale.
	FromZero bool
}

// At returns the factor on the query at position pos.
func (t AttentionTemperature) At(pos int) float64 {
	p := float64(pos) + 1
	if t.FromZero {
		p--
	}
	return math.Log1p(math.Floor(p/t.FloorScale))*t.Scale + 1
}

// ReadHFConfig reads a Hugging Face config.json file; see ParseHFConfig.
func ReadHFConfig(path string) (*ModelPositions, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseHFConfig(data)
}

// ParseHFConfig reads the position settings of a Hugging Face config.json
// as transformers v5 does: rope_theta, rope_scaling (the older form) or
// rope_parameters (the newer one, flat or nested per layer type),
// partial_rotary_factor (or a configuration class's default for it),
// head_dim, layer_types (or the rule a class derives them by: Qwen's
// max_window_layers, sliding_window_pattern, full_attention_interval,
// Nemotron-H's hybrid_override_pattern, …), no_rope_layers, sliding_window,
// attention_chunk_size, original_max_position_embeddings, Llama 4's and
// Ministral 3's query scaling, DeepSeek's decoupled heads and each model
// type's pair layout. A multimodal config's text_config is read instead of
// its top level. The JSON may hold NaN and Infinity, as Python writes it.
//
// Where a config leaves a setting out, the reader takes what the model
// type's configuration class in transformers takes, and says so in
// Warnings: its default rope_parameters (gpt-oss's YaRN, Ministral 3's
// YaRN with llama_4_scaling_beta), its rope_theta, its head_dim (Gemma's
// 256), hidden_size // num_attention_heads rounded down, the layer pattern
// it derives (Gemma 2's alternation, OLMo 3's every fourth layer, …). A
// class default it does not reproduce, and a design it does not model (an
// odd rotary width, per-layer bases), are errors naming the field.
//
// Fields that have nothing to do with positions (vocab_size, …) are
// ignored and listed in Ignored. A top-level field it does not know whose
// name mentions rope, rotary, position, theta, window, chunk or layer
// types, an unknown rope_type or layer type, and a missing field that
// transformers requires, are a *ParamError naming the field, where it was
// written and its value: no silent default. What transformers accepts
// with a warning (a key a rope_type does not take, a rope_interleave the
// model's code does not read) is accepted, and listed in Warnings.
func ParseHFConfig(data []byte) (*ModelPositions, error) {
	dec := json.NewDecoder(bytes.NewReader(pythonJSON(data)))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return nil, validate.Err("config", "invalid JSON", "must be a JSON object: "+err.Error())
	}
	if text, ok := top["text_config"]; ok && text != nil {
		m, ok := text.(map[string]any)
		if !ok {
			return nil, validate.Err("text_config", text, "must be an object")
		}
		top = m
	}
	if mt, _ := top["model_type"].(string); notRotary[mt] != "" {
		return nil, validate.Err("model_type", mt, "has no rotary embedding in transformers ("+notRotary[mt]+"); this reader reads RoPE configs")
	}
	c := hfConfig{fields: top, warnings: new([]string)}
	c.applyAttributeMap()
	if err := c.checkFields(); err != nil {
		return nil, err
	}
	m, err := c.positions()
	if err != nil {
		return nil, err
	}
	m.Warnings = slices.Compact(*c.warnings)
	for k := range c.fields {
		if !slices.Contains(knownTopLevel, k) {
			m.Ignored = append(m.Ignored, k)
		}
	}
	slices.Sort(m.Ignored)
	return m, nil
}

// hfConfig is a decoded config.json with typed accessors that return a
// *ParamError naming the field.
type hfConfig struct {
	fields   map[string]any
	warnings *[]string
}

// warn records that transformers accepts field's value with a warning.
func (c hfConfig) warn(field string, value any, what string) {
	*c.warnings = append(*c.warnings, fmt.Sprintf("%s = %v: %s", field, value, what))
}

// knownTopLevel are the position fields ParseHFConfig reads, and fields it
// reads for the head size.
var knownTopLevel = []string{
	"model_type", "num_hidden_layers", "hidden_size", "num_attention_heads", "head_dim",
	"max_position_embeddings", "original_max_position_embeddings", "rope_theta", "rope_scaling",
	"rope_parameters", "partial_rotary_factor", "layer_types", "no_rope_layers",
	"no_rope_layer_interval", "sliding_window", "use_sliding_window", "attention_chunk_size",
	"attn_temperature_tuning", "attn_scale", "floor_scale", "qk_rope_head_dim", "qk_nope_head_dim",
	"rope_interleave", "global_head_dim", "rope_local_base_freq", "max_window_layers",
	"rotary_pct", "sliding_window_pattern", "full_attention_interval",
	"layers_block_type", "hybrid_override_pattern", "position_embedding_type",
	"indexer_types", "index_topk_pattern", "index_topk_freq", "index_skip_topk_offset",
	"compress_rope_theta", "compress_ratios", "linear_attn_config", "global_attn_every_n_layers",
	"rotary_emb_base", "rotary_dim", "per_layer_config", "attn_layer_indices", "kv_channels",
	"prefix_dense_sliding_window_pattern", "alibi", "layer_rope_theta", "attn_layer_period", "attn_layer_offset",
}

// attributeMaps are the attribute_map of configuration classes whose
// config.json names the layer count, heads, width and context otherwise:
// GPTJConfig and CodeGenConfig (configuration_gptj.py, attribute_map).
var attributeMaps = map[string]map[string]string{
	"gptj":    {"n_positions": "max_position_embeddings", "n_embd": "hidden_size", "n_head": "num_attention_heads", "n_layer": "num_hidden_layers"},
	"codegen": {"n_positions": "max_position_embeddings", "n_embd": "hidden_size", "n_head": "num_attention_heads", "n_layer": "num_hidden_layers"},
	// RecurrentGemmaConfig (configuration_recurrent_gemma.py:57).
	"recurrent_gemma": {"attention_window_size": "sliding_window"},
	// DbrxConfig (configuration_dbrx.py, attribute_map).
	"dbrx": {"n_heads": "num_attention_heads", "d_model": "hidden_size", "n_layers": "num_hidden_layers", "max_seq_len": "max_position_embeddings"},
}

// applyAttributeMap renames the fields of the model type's attribute_map
// to the names the reader reads, as the class's attribute_map does.
//
// DBRX's released config.json keeps its base in attn_config.rope_theta
// (500000), as Databricks' own model reads it. transformers 5.25.0 drops
// it: DbrxAttentionConfig has no rope_theta field, so DbrxRotaryEmbedding
// rotates with the default 10000 (golden.json's disagreements,
// TestGoldenDisagreementDBRX). The reader takes the authors' value, and
// warns that transformers does not.
func (c hfConfig) applyAttributeMap() {
	modelType, _ := c.fields["model_type"].(string)
	if attn, ok := c.fields["attn_config"].(map[string]any); ok && modelType == "dbrx" && attn["rope_theta"] != nil {
		if _, set := c.fields["rope_theta"]; !set {
			c.fields["rope_theta"] = attn["rope_theta"]
			c.warn("attn_config.rope_theta", attn["rope_theta"], "read as the RoPE base, as DBRX's authors do; transformers 5.25.0 ignores it and uses 10000")
		}
	}
	for from, to := range attributeMaps[modelType] {
		if v, ok := c.fields[from]; ok {
			if _, set := c.fields[to]; !set {
				c.fields[to] = v
			}
			delete(c.fields, from)
		}
	}
}

// notRotary are model types whose transformers model has no rotary
// embedding, though their config.json names layers, heads and a context as
// a RoPE model's does: without this list they would read as RoPE with the
// default base. Found by reading every configuration class's default
// config.json with the reader and looking at the modeling module of those
// that read.
var notRotary = map[string]string{
	"opt": "learned absolute positions, OPTLearnedPositionalEmbedding", "biogpt": "learned absolute positions",
	"xglm": "sinusoidal positions", "gpt2": "learned absolute positions", "gpt_bigcode": "learned absolute positions",
	"gpt_neo": "learned absolute positions", "bloom": "ALiBi", "mpt": "ALiBi",
	"bert": "learned absolute positions", "roberta": "learned absolute positions", "xlm-roberta": "learned absolute positions",
	"electra": "learned absolute positions", "albert": "learned absolute positions", "camembert": "learned absolute positions",
	"ernie": "learned absolute positions", "megatron-bert": "learned absolute positions", "data2vec-text": "learned absolute positions",
	"big_bird": "learned absolute positions", "convbert": "learned absolute positions", "bert-generation": "learned absolute positions",
	"xmod": "learned absolute positions", "roc_bert": "learned absolute positions", "mra": "learned absolute positions",
}

// unmodelled are model types whose positions transformers computes in a
// way this reader does not model; their configs are an error, not a guess
// (found by TestGoldenClassConfigs).
var unmodelled = map[string]string{
	"ernie4_5_vl_moe": "its 3-D rotary embedding allots the frequencies to the axes in its own order",
	"dory":            "its layers run in recurrent loops, more layers than num_hidden_layers",
}

// fieldOf are the top-level fields that one model type's class reads and
// others do not: in another model type's config they are an error.
var fieldOf = map[string][]string{"rotary_emb_base": {"gpt_neox"}, "rotary_dim": {"minimax_m2", "minimax_m3_vl_text", "gptj", "codegen"}, "alibi": {"falcon"}, "attn_layer_period": {"jamba"}, "attn_layer_offset": {"jamba"}, "layer_rope_theta": {"granite_swa", "granitemoe_swa"},
	"attn_layer_indices": {"bamba"}, "kv_channels": {"jetmoe"}, "prefix_dense_sliding_window_pattern": {"cohere2_moe"}}

// ignoredPositionFields are fields whose names sound like positions but
// that transformers' code for the model types that ship them does not read
// for the text model's positions: Qwen2 and Qwen2.5's use_mrope (the text
// model has no multimodal RoPE; Qwen2-VL's is a separate model type), and
// gpt-oss's initial_context_length (its rope_scaling holds the same length
// as original_max_position_embeddings).
//
// Also fields of transformers' own serialisation and of parts of a model
// that are not its attention's positions: chunk_size_feed_forward (every
// PreTrainedConfig's feed-forward chunking), mlp_layer_types (dense or MoE
// per layer), mtp_layer_types and mtp_mlp_layer_types (the
// multi-token-prediction layers outside the stack), chunk_size and
// mamba_chunk_size (the Mamba-2 scan's chunk), and Gemma 3's private
// _sliding_window_pattern (its class reads sliding_window_pattern only,
// configuration_gemma3.py:105).
var ignoredPositionFields = []string{"use_mrope", "initial_context_length", "chunk_size_feed_forward",
	"mlp_layer_types", "mtp_layer_types", "mtp_mlp_layer_types", "chunk_size", "mamba_chunk_size", "_sliding_window_pattern"}

// positionWords mark a top-level field as being about positions: such a
// field that ParseHFConfig does not know is an error, not ignored.
var positionWords = []string{"rope", "rotary", "position", "theta", "window", "chunk", "layer_types", "mscale", "attn_temperature"}

// ignoredFieldsOf are position-sounding fields that one model type's
// published configs carry and its class does not read: Gemma 2's
// sliding_window_size (its released config.json holds it beside
// sliding_window; Gemma2Config and Gemma2Attention read sliding_window
// only), which MiMo-V2-Flash's and Inkling's classes do read.
var ignoredFieldsOf = map[string][]string{"gemma2": {"sliding_window_size"}}

func (c hfConfig) checkFields() error {
	modelType, _ := c.fields["model_type"].(string)
	for k, v := range c.fields {
		if slices.Contains(knownTopLevel, k) || slices.Contains(ignoredPositionFields, k) || slices.Contains(ignoredFieldsOf[modelType], k) {
			continue
		}
		for _, w := range positionWords {
			if strings.Contains(k, w) {
				return validate.Err(k, v, "is a position field this reader does not know")
			}
		}
	}
	return nil
}

func (c hfConfig) has(key string) bool {
	v, ok := c.fields[key]
	return ok && v != nil
}

func (c hfConfig) str(key string) (string, error) {
	v, ok := c.fields[key].(string)
	if !ok {
		return "", validate.Err(key, c.fields[key], "must be a string")
	}
	return v, nil
}

// integer returns a required positive integer field.
func (c hfConfig) integer(key string) (int, error) { return jsonInt(key, c.fields[key]) }

func (c hfConfig) float(key string) (float64, error) { return jsonFloat(key, c.fields[key]) }

func (c hfConfig) boolean(key string) (bool, error) {
	v, ok := c.fields[key].(bool)
	if !ok {
		return false, validate.Err(key, c.fields[key], "must be true or false")
	}
	return v, nil
}

func jsonInt(key string, v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, validate.Err(key, shown(v), "must be a positive integer")
	}
	i, err := n.Int64()
	if err != nil || i <= 0 || i > validate.MaxPosition {
		return 0, validate.Err(key, n.String(), "must be a positive integer <= 2^40")
	}
	return int(i), nil
}

func jsonFloat(key string, v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		if s := shown(v); s != v {
			return 0, validate.Err(key, s, "must be a finite number")
		}
		return 0, validate.Err(key, v, "must be a number")
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, validate.Err(key, n.String(), "must be a finite number")
	}
	return f, nil
}

// maxLayers bounds num_hidden_layers, so that a wrong value is an error
// rather than a huge allocation (the deepest models have about 130).
const maxLayers = 1 << 16

// layerKinds are the layer_types entries ParseHFConfig knows.
var layerKinds = []string{"full_attention", "sliding_attention", "chunked_attention", "linear_attention", "hybrid", "moe", "mlp", "indexed_attention"}

func (c hfConfig) positions() (*ModelPositions, error) {
	m := &ModelPositions{}
	var err error
	if m.ModelType, err = c.str("model_type"); err != nil {
		return nil, err
	}
	if err := c.classRope(m.ModelType); err != nil {
		return nil, err
	}
	if err := c.aliasLayerTypes(m.ModelType); err != nil {
		return nil, err
	}
	if why, ok := unmodelled[strings.TrimSuffix(m.ModelType, "_text")]; ok {
		return nil, validate.Err("model_type", m.ModelType, "is outside this reader's model: "+why)
	}
	for f, owners := range fieldOf {
		if c.has(f) && !slices.Contains(owners, m.ModelType) {
			return nil, validate.Err(f, c.fields[f], "is a position field of "+strings.Join(owners, ", ")+" only; transformers' "+m.ModelType+" configuration does not read it")
		}
	}
	if m.ModelType == "falcon" && c.fields["alibi"] == true {
		c.warn("alibi", true, "its layers add ALiBi biases instead of rotating (posenc.ALiBiSlopes); no layer has RoPE")
	}
	if m.ModelType == "jetmoe" && c.has("kv_channels") && !c.has("head_dim") {
		// JetMoeConfig.attribute_map = {"head_dim": "kv_channels"}
		// (configuration_jetmoe.py:47).
		c.fields["head_dim"] = c.fields["kv_channels"]
	}
	if err := c.perLayerConfig(m); err != nil {
		return nil, err
	}
	n, err := c.integer("num_hidden_layers")
	if err != nil {
		return nil, err
	}
	if n > maxLayers {
		return nil, validate.Err("num_hidden_layers", n, fmt.Sprintf("must be <= %d", maxLayers))
	}
	if !c.has("max_position_embeddings") && (m.ModelType == "kimi_linear" || m.ModelType == "nemotron_h" || m.ModelType == "recurrent_gemma" || m.ModelType == "jamba") {
		// No layer of these models has positions to bound: their
		// classes accept a config without it (KimiLinearConfig's is None;
		// RecurrentGemmaConfig has none, its attention being local).
		m.MaxPositions = 0
	} else if d, ok := classMaxPositions[m.ModelType]; ok && !c.has("max_position_embeddings") {
		m.MaxPositions = d
		c.warn("max_position_embeddings", "missing", fmt.Sprintf("transformers' %s configuration uses its default %d", m.ModelType, d))
	} else if m.MaxPositions, err = c.integer("max_position_embeddings"); err != nil {
		return nil, err
	}
	if m.ModelType == "deepseek_v4" {
		if err := c.deepseekV4(m, n); err != nil {
			return nil, err
		}
		m.TrainedLen = m.MaxPositions
		if orig := m.Layers[0].RoPE.Scaling.OriginalLen; orig != 0 {
			m.TrainedLen = orig
		}
		for _, l := range m.Layers {
			if orig := l.RoPE.Scaling.OriginalLen; orig != 0 {
				m.TrainedLen = orig
			}
		}
		return m, nil
	}
	if m.HeadDim, err = c.headDim(m.ModelType); err != nil {
		return nil, err
	}
	if m.Decoupled, err = c.decoupled(m); err != nil {
		return nil, err
	}
	types, err := c.layerTypes(m.ModelType, n)
	if err != nil {
		return nil, err
	}
	ropes, err := c.ropeByType(types, m)
	if err != nil {
		return nil, err
	}
	noRoPE, err := c.noRoPELayers(n)
	if err != nil {
		return nil, err
	}
	temp, err := c.temperature()
	if err != nil {
		return nil, err
	}
	ropeTemp, err := c.llama4Scaling(m)
	if err != nil {
		return nil, err
	}
	indexers, err := c.indexerLayers(m.ModelType, n)
	if err != nil {
		return nil, err
	}
	layerTheta, err := c.layerRopeTheta(n)
	if err != nil {
		return nil, err
	}
	section, sectionInterleaved, err := c.mropeSection(m, ropes)
	if err != nil {
		return nil, err
	}
	m.TrainedLen = m.MaxPositions
	m.Layers = make([]LayerPositions, n)
	for i, t := range types {
		l := LayerPositions{Type: t}
		if r, ok := ropes[t]; ok && r != nil && !noRoPE[i] && !c.ropeSkipped(m.ModelType, t) && (layerTheta == nil || layerTheta[i] != 0) {
			rc := *r
			if layerTheta != nil {
				rc.Base = layerTheta[i]
			}
			l.RoPE = &rc
			if orig := rc.Scaling.OriginalLen; orig != 0 && rc.Scaling.Kind != ScalingDynamic {
				m.TrainedLen = orig
			}
		}
		if l.RoPE == nil && temp != nil {
			l.Temperature = temp
		}
		if l.RoPE != nil && ropeTemp != nil {
			l.Temperature = ropeTemp
		}
		if l.RoPE != nil && indexers != nil && indexers[i] {
			ix := *l.RoPE
			ix.Layout = indexerLayout[m.ModelType]
			l.Indexer = &ix
		}
		if l.Window, err = c.window(t); err != nil {
			return nil, err
		}
		l.Sinks = sinkModels[m.ModelType] && attends(t)
		if l.RoPE != nil {
			l.MRoPESection, l.MRoPEInterleaved = section, sectionInterleaved
		}
		m.Layers[i] = l
	}
	return m, nil
}

// layerRopeTheta reads Granite SWA's layer_rope_theta: each layer's RoPE
// base, 0 for a layer without RoPE; it overrides rope_theta
// (GraniteSWAModel builds one rotary embedding per non-zero base,
// modeling_granite_swa.py:395–398, :456–457). Nil when absent.
func (c hfConfig) layerRopeTheta(n int) ([]float64, error) {
	if !c.has("layer_rope_theta") {
		return nil, nil
	}
	list, ok := c.fields["layer_rope_theta"].([]any)
	if !ok || len(list) != n {
		return nil, validate.Err("layer_rope_theta", c.fields["layer_rope_theta"], fmt.Sprintf("must be a list of num_hidden_layers (%d) bases", n))
	}
	out := make([]float64, n)
	for i, v := range list {
		key := fmt.Sprintf("layer_rope_theta[%d]", i)
		f, err := jsonFloat(key, v)
		if err != nil {
			return nil, err
		}
		if f != 0 && !(f > 1) {
			return nil, validate.Err(key, f, "must be 0 (no RoPE) or a base > 1")
		}
		out[i] = f
	}
	return out, nil
}

// mropeSection reads mrope_section (and mrope_interleaved) from the flat
// rope dictionary of a multimodal text model (mropeKeys): integers that
// sum to the rotated pairs of its layers, as MRoPEAxes checks.
func (c hfConfig) mropeSection(m *ModelPositions, ropes map[string]*RoPE) ([]int, bool, error) {
	keys := mropeKeys[strings.TrimSuffix(m.ModelType, "_text")]
	for _, key := range []string{"rope_parameters", "rope_scaling"} {
		d, ok := c.fields[key].(map[string]any)
		if !ok || keys == nil {
			continue
		}
		v, ok := d["mrope_section"]
		if !ok || v == nil {
			return nil, false, nil
		}
		list, ok := v.([]any)
		if !ok {
			return nil, false, validate.Err(key+".mrope_section", v, "must be a list of integers")
		}
		sec := make([]int, len(list))
		sum := 0
		for i, x := range list {
			n, err := jsonInt(fmt.Sprintf("%s.mrope_section[%d]", key, i), x)
			if err != nil {
				return nil, false, err
			}
			sec[i], sum = n, sum+n
		}
		for _, r := range ropes {
			if r != nil && sum != r.Rot()/2 {
				return nil, false, validate.Err(key+".mrope_section", shownInts(sec), fmt.Sprintf("must sum to the rotated pairs (%d)", r.Rot()/2))
			}
		}
		il := false
		if b, ok := d["mrope_interleaved"].(bool); ok {
			il = b
		}
		return sec, il, nil
	}
	return nil, false, nil
}

func shownInts(v []int) string { return strings.Trim(fmt.Sprint(v), "[]") }

// headDim is head_dim, else the configuration class's default
// (classHeadDim), else hidden_size // num_attention_heads rounded down as
// transformers has it (getattr(config, "head_dim", None) or
// config.hidden_size // config.num_attention_heads,
// modeling_rope_utils.py:180), with a warning when it rounds. The classes
// of divisibleHeads raise when the division is not exact, and so does
// this.
func (c hfConfig) headDim(modelType string) (int, error) {
	if slices.Contains(divisibleHeads, modelType) && c.has("hidden_size") && c.has("num_attention_heads") {
		h, heads, err := c.widthAndHeads()
		if err != nil {
			return 0, err
		}
		if h%heads != 0 {
			return 0, validate.Err("hidden_size", h, fmt.Sprintf("must be a multiple of num_attention_heads (%d): transformers' %s configuration raises", heads, modelType))
		}
	}
	if c.has("head_dim") {
		return c.integer("head_dim")
	}
	if d, ok := classHeadDim[modelType]; ok && !c.has("qk_rope_head_dim") {
		c.warn("head_dim", "missing", fmt.Sprintf("transformers' %s configuration uses its default %d", modelType, d))
		return d, nil
	}
	h, heads, err := c.widthAndHeads()
	if err != nil {
		return 0, err
	}
	if h%heads != 0 {
		if h/heads == 0 {
			return 0, validate.Err("hidden_size", h, fmt.Sprintf("must be at least num_attention_heads (%d)", heads))
		}
		c.warn("hidden_size", h, fmt.Sprintf("is not a multiple of num_attention_heads (%d); transformers rounds head_dim down to %d", heads, h/heads))
	}
	return h / heads, nil
}

// widthAndHeads returns hidden_size and num_attention_heads.
func (c hfConfig) widthAndHeads() (hidden, heads int, err error) {
	if hidden, err = c.integer("hidden_size"); err != nil {
		return 0, 0, err
	}
	heads, err = c.integer("num_attention_heads")
	return hidden, heads, err
}

// decoupled reads DeepSeek's qk_rope_head_dim and qk_nope_head_dim: the
// rotary part is what RoPE covers, so it becomes HeadDim (as HF's
// DeepseekV3Config sets head_dim = qk_rope_head_dim).
func (c hfConfig) decoupled(m *ModelPositions) (*DecoupledHead, error) {
	if !c.has("qk_rope_head_dim") && !c.has("qk_nope_head_dim") {
		return nil, nil
	}
	rope, err := c.integer("qk_rope_head_dim")
	if err != nil {
		return nil, err
	}
	nope, err := c.integer("qk_nope_head_dim")
	if err != nil {
		return nil, err
	}
	if c.has("head_dim") && m.HeadDim != rope {
		return nil, validate.Err("head_dim", m.HeadDim, fmt.Sprintf("must equal qk_rope_head_dim (%d) in a decoupled-RoPE config", rope))
	}
	m.HeadDim = rope
	return &DecoupledHead{NopeDim: nope, RopeDim: rope}, nil
}

// layerTypes returns layer_types, checked, or the list the model type's
// configuration class derives when it is absent (windowedLayers).
func (c hfConfig) layerTypes(modelType string, n int) ([]string, error) {
	if !c.has("layer_types") && modelType == "kimi_linear" {
		return c.kimiLinearTypes(n)
	}
	if !c.has("layer_types") && (modelType == "deepseek_v32" || modelType == "glm_moe_dsa") {
		// DeepseekV32Config and GlmMoeDsaConfig: every layer is
		// indexed_attention (configuration_deepseek_v32.py:134–135).
		return slices.Repeat([]string{"indexed_attention"}, n), nil
	}
	if !c.has("layer_types") && modelType == "falcon_h1" {
		// FalconH1Config.layers_block_type (its layer_types): every layer
		// "hybrid", attention with RoPE beside a Mamba-2 mixer.
		return slices.Repeat([]string{"hybrid"}, n), nil
	}
	if !c.has("layer_types") && (modelType == "qwen3_next" || modelType == "qwen3_5_text" || modelType == "qwen3_5_moe_text") {
		// Qwen3NextConfig (configuration_qwen3_next.py:126–131), and
		// Qwen3.5's: every full_attention_interval-th layer (default 4)
		// is full attention, the others Gated DeltaNet.
		interval := 4
		if c.has("full_attention_interval") {
			var err error
			if interval, err = c.integer("full_attention_interval"); err != nil {
				return nil, err
			}
		}
		out := make([]string, n)
		for i := range out {
			out[i] = "linear_attention"
			if (i+1)%interval == 0 {
				out[i] = "full_attention"
			}
		}
		return out, nil
	}
	if modelType == "recurrent_gemma" && !c.has("layer_types") {
		// RecurrentGemmaConfig.layers_block_type: block_types repeated
		// over the layers, "recurrent" an RG-LRU block (no positions),
		// "attention" local attention with RoPE
		// (configuration_recurrent_gemma.py:99–102).
		blocks := []any{"recurrent", "recurrent", "attention"}
		if c.has("block_types") {
			list, ok := c.fields["block_types"].([]any)
			if !ok || len(list) == 0 {
				return nil, validate.Err("block_types", c.fields["block_types"], "must be a list of recurrent and attention")
			}
			blocks = list
		}
		out := make([]string, n)
		for i := range out {
			switch blocks[i%len(blocks)] {
			case "recurrent":
				out[i] = "linear_attention"
			case "attention":
				out[i] = "sliding_attention"
			default:
				return nil, validate.Err(fmt.Sprintf("block_types[%d]", i%len(blocks)), blocks[i%len(blocks)], "must be recurrent or attention")
			}
		}
		return out, nil
	}
	if modelType == "jamba" && !c.has("layer_types") {
		// JambaConfig.layers_block_type: attention where
		// i % attn_layer_period == attn_layer_offset (defaults 8 and 4),
		// Mamba elsewhere (configuration_jamba.py:89–90, :109–113).
		period, offset := 8, 4
		var err error
		if c.has("attn_layer_period") {
			if period, err = c.integer("attn_layer_period"); err != nil {
				return nil, err
			}
		}
		if c.has("attn_layer_offset") {
			if offset, err = c.nonNegative("attn_layer_offset"); err != nil {
				return nil, err
			}
		}
		if offset >= period {
			// JambaConfig.validate_architecture raises (:129).
			return nil, validate.Err("attn_layer_offset", offset, fmt.Sprintf("must be < attn_layer_period (%d)", period))
		}
		out := make([]string, n)
		for i := range out {
			out[i] = "linear_attention"
			if i%period == offset {
				out[i] = "full_attention"
			}
		}
		return out, nil
	}
	if modelType == "bamba" && !c.has("layer_types") {
		// BambaConfig.layers_block_type: full attention on the layers of
		// attn_layer_indices, Mamba-2 on the others
		// (configuration_bamba.py:105–108).
		out := slices.Repeat([]string{"linear_attention"}, n)
		if c.has("attn_layer_indices") {
			list, ok := c.fields["attn_layer_indices"].([]any)
			if !ok {
				return nil, validate.Err("attn_layer_indices", c.fields["attn_layer_indices"], "must be a list of layer indices")
			}
			for j, v := range list {
				num, _ := v.(json.Number)
				i, err := num.Int64()
				if err != nil || i < 0 || int(i) >= n {
					return nil, validate.Err(fmt.Sprintf("attn_layer_indices[%d]", j), v, fmt.Sprintf("must be a layer index in [0, %d)", n))
				}
				out[i] = "full_attention"
			}
		}
		return out, nil
	}
	if p, ok := fixedLayerPattern[modelType]; ok && !c.has("layer_types") {
		out := make([]string, n)
		for i := range out {
			out[i] = p.Other
			if i%p.Period == p.FullAt {
				out[i] = "full_attention"
			}
		}
		return out, nil
	}
	if !c.has("layer_types") {
		sliding, err := c.windowedLayers(modelType, n)
		if err != nil {
			return nil, err
		}
		out := make([]string, n)
		for i := range out {
			out[i] = "full_attention"
			if sliding[i] {
				out[i] = "sliding_attention"
			}
		}
		return out, nil
	}
	list, ok := c.fields["layer_types"].([]any)
	if !ok || len(list) != n {
		return nil, validate.Err("layer_types", c.fields["layer_types"], fmt.Sprintf("must be a list of num_hidden_layers (%d) layer types", n))
	}
	out := make([]string, n)
	for i, v := range list {
		s, ok := v.(string)
		if r, legacy := legacyLayerTypes[s]; legacy {
			s = r
		}
		if !ok || !slices.Contains(layerKinds, s) {
			return nil, validate.Err(fmt.Sprintf("layer_types[%d]", i), v, "must be one of "+strings.Join(layerKinds, ", "))
		}
		out[i] = s
	}
	return out, nil
}

// legacyLayerTypes are the older layer type names transformers renames
// (configuration_utils.py:94, _LEGACY_LAYER_TYPE_REMAP).
var legacyLayerTypes = map[string]string{"mamba": "linear_attention", "attention": "full_attention",
	"deepseek_sparse_attention": "indexed_attention"}

// hybridPatternTypes maps Nemotron-H's hybrid_override_pattern characters
// to layer types (configuration_nemotron_h.py:281): a Mamba-2 mixer, a
// mixture of experts, attention and an MLP.
var hybridPatternTypes = map[rune]string{'M': "linear_attention", 'E': "moe", '*': "full_attention", '-': "mlp"}

// aliasLayerTypes reads the names a configuration class maps to
// layer_types: layers_block_type (GraniteMoeHybrid, Nemotron-H's
// attribute_map) and Nemotron-H's hybrid_override_pattern, whose length
// is then the number of layers (NemotronHConfig.num_hidden_layers).
func (c hfConfig) aliasLayerTypes(modelType string) error {
	if c.has("layers_block_type") && !c.has("layer_types") {
		c.fields["layer_types"] = c.fields["layers_block_type"]
	}
	if modelType != "nemotron_h" {
		return nil
	}
	if list, ok := c.fields["layer_types"].([]any); ok {
		// NemotronHConfig.num_hidden_layers is len(layers_block_type);
		// a num_hidden_layers that differs is ignored with a warning.
		if c.has("num_hidden_layers") && fmt.Sprint(c.fields["num_hidden_layers"]) != fmt.Sprint(len(list)) {
			c.warn("num_hidden_layers", c.fields["num_hidden_layers"], fmt.Sprintf("Nemotron-H counts its layer types instead (%d)", len(list)))
		}
		c.fields["num_hidden_layers"] = json.Number(fmt.Sprint(len(list)))
		return nil
	}
	if !c.has("hybrid_override_pattern") {
		return nil
	}
	pattern, err := c.str("hybrid_override_pattern")
	if err != nil {
		return err
	}
	var list []any
	for i, r := range pattern {
		t, ok := hybridPatternTypes[r]
		if !ok {
			return validate.Err(fmt.Sprintf("hybrid_override_pattern[%d]", i), string(r), "must be one of M (Mamba), E (MoE), * (attention), - (MLP)")
		}
		list = append(list, t)
	}
	c.fields["layer_types"] = list
	c.fields["num_hidden_layers"] = json.Number(fmt.Sprint(len(list)))
	return nil
}

// noRoPELayers reads no_rope_layers (Llama 4, SmolLM3): entry i is 1 when
// layer i uses RoPE and 0 when it uses none. It checks the list against
// no_rope_layer_interval when both are given (every interval-th layer,
// counting from 1, is NoPE).
func (c hfConfig) noRoPELayers(n int) ([]bool, error) {
	out := make([]bool, n)
	if !c.has("no_rope_layers") {
		if c.has("no_rope_layer_interval") {
			return nil, validate.Err("no_rope_layer_interval", c.fields["no_rope_layer_interval"], "needs no_rope_layers")
		}
		return out, nil
	}
	list, ok := c.fields["no_rope_layers"].([]any)
	if !ok || len(list) != n {
		return nil, validate.Err("no_rope_layers", c.fields["no_rope_layers"], fmt.Sprintf("must be a list of num_hidden_layers (%d) zeros and ones", n))
	}
	interval := 0
	if c.has("no_rope_layer_interval") {
		var err error
		if interval, err = c.integer("no_rope_layer_interval"); err != nil {
			return nil, err
		}
	}
	for i, v := range list {
		num, _ := v.(json.Number)
		switch num.String() {
		case "0":
			out[i] = true
		case "1":
		default:
			return nil, validate.Err(fmt.Sprintf("no_rope_layers[%d]", i), v, "must be 0 (no RoPE) or 1 (RoPE)")
		}
		if interval > 0 && out[i] != ((i+1)%interval == 0) {
			return nil, validate.Err(fmt.Sprintf("no_rope_layers[%d]", i), v,
				fmt.Sprintf("disagrees with no_rope_layer_interval %d (every %dth layer has no RoPE)", interval, interval))
		}
	}
	return out, nil
}

// ropeSkipped reports the layer types a model's code runs without RoPE
// (Mamba, MoE and MLP blocks have no attention; Nemotron-H's attention has
// no positions; Granite-4.0-H's has RoPE only when
// position_embedding_type is "rope")
// whatever the config says: Cohere2's full-attention layers (HF's
// Cohere2Attention rotates only when the layer has a sliding window),
// EXAONE 4's global layers when it has sliding ones, and
// linear-attention layers (Qwen3.5's Gated DeltaNet has no rotary
// embedding).
func (c hfConfig) ropeSkipped(modelType, layerType string) bool {
	if layerType == "linear_attention" || layerType == "moe" || layerType == "mlp" {
		return true
	}
	switch modelType {
	case "kimi_linear":
		// KimiLinearAttention is MLA "with NoPE": no rotary embedding
		// anywhere (modeling_kimi_linear.py:192).
		return true
	case "jamba":
		// JambaAttention never applies a rotary embedding (its module
		// defines apply_rotary_pos_emb but no layer calls it): Jamba's
		// attention has no positions; its Mamba layers carry order.
		return true
	case "nemotron_h":
		// NemotronHModel builds no rotary embedding: its attention
		// layers get position_embeddings None (modeling_nemotron_h.py).
		return true
	case "granitemoehybrid":
		// GraniteMoeHybridModel: rotary_emb only when
		// position_embedding_type == "rope" (modeling_granitemoehybrid.py:1167).
		return c.fields["position_embedding_type"] != "rope"
	case "falcon":
		// FalconModel: ALiBi instead of a rotary embedding when
		// config.alibi (modeling_falcon.py: if not self.config.alibi:
		// self.rotary_emb); the table's "none" is then ALiBi.
		return c.fields["alibi"] == true
	case "cohere2", "afmoe":
		// AfmoeAttention, too, rotates only its local layers:
		// if self.is_local_attention: apply_rotary_pos_emb (modeling_afmoe.py:359–361).
		return layerType != "sliding_attention"
	case "exaone4":
		// Exaone4Attention: if self.sliding_window is None or
		// self.is_sliding: apply_rotary_pos_emb (modeling_exaone4.py:234):
		// with windows, the global layers have no RoPE.
		return layerType != "sliding_attention" && c.has("sliding_window")
	}
	return false
}

// window returns a layer type's span: sliding_window or
// attention_chunk_size.
func (c hfConfig) window(layerType string) (int, error) {
	switch layerType {
	case "sliding_attention":
		return c.integer("sliding_window")
	case "chunked_attention":
		return c.integer("attention_chunk_size")
	}
	return 0, nil
}

// temperature reads Llama 4's attn_temperature_tuning, attn_scale and
// floor_scale.
func (c hfConfig) temperature() (*AttentionTemperature, error) {
	if !c.has("attn_temperature_tuning") {
		for _, k := range []string{"attn_scale", "floor_scale"} {
			if c.has(k) {
				return nil, validate.Err(k, c.fields[k], "needs attn_temperature_tuning")
			}
		}
		return nil, nil
	}
	on, err := c.boolean("attn_temperature_tuning")
	if err != nil || !on {
		return nil, err
	}
	scale, err := c.float("attn_scale")
	if err != nil {
		return nil, err
	}
	floor, err := c.float("floor_scale")
	if err != nil {
		return nil, err
	}
	if floor <= 0 {
		return nil, validate.Err("floor_scale", floor, "must be > 0")
	}
	return &AttentionTemperature{Scale: scale, FloorScale: floor}, nil
}

// llama4Scaling reads llama_4_scaling_beta from a flat rope dictionary
// (Ministral 3, Mistral 3): every RoPE layer's queries are scaled by
// 1 + β·log(1 + ⌊p / original_max_position_embeddings⌋)
// (modeling_ministral3.py:105, get_llama_4_attn_scale).
func (c hfConfig) llama4Scaling(m *ModelPositions) (*AttentionTemperature, error) {
	for _, key := range []string{"rope_parameters", "rope_scaling"} {
		d, ok := c.fields[key].(map[string]any)
		if !ok {
			continue
		}
		v, ok := d["llama_4_scaling_beta"]
		if !ok || v == nil {
			continue
		}
		beta, err := jsonFloat(key+".llama_4_scaling_beta", v)
		if err != nil {
			return nil, err
		}
		orig, ok := d["original_max_position_embeddings"]
		if !ok {
			return nil, validate.Err(key+".original_max_position_embeddings", "missing", "is required with llama_4_scaling_beta")
		}
		floor, err := jsonInt(key+".original_max_position_embeddings", orig)
		if err != nil {
			return nil, err
		}
		return &AttentionTemperature{Scale: beta, FloorScale: float64(floor), FromZero: true}, nil
	}
	return nil, nil
}

// indexerLayout is the pair layout of the lightning indexer's rotation:
// DeepseekV32Indexer calls apply_rotary_pos_emb, halves
// (modeling_deepseek_v32.py:219, "The indexer uses NON-interleaved
// (half-split) RoPE"); GlmMoeDsaIndexer apply_rotary_pos_emb_interleave
// (modeling_glm_moe_dsa.py:221).
var indexerLayout = map[string]Layout{"deepseek_v32": Halves, "glm_moe_dsa": Interleaved}

// indexerLayers reports which layers run their own lightning indexer: every
// layer of DeepSeek-V3.2; for GLM-5 the layers whose indexer_types entry
// is "full" (a "shared" layer reuses the previous layer's top-k), from
// indexer_types, or index_topk_pattern (F/S), or else index_topk_freq
// (default 1) and index_skip_topk_offset (default 2) as
// GlmMoeDsaConfig.__post_init__ derives them.
func (c hfConfig) indexerLayers(modelType string, n int) ([]bool, error) {
	out := make([]bool, n)
	switch modelType {
	case "deepseek_v32":
		for i := range out {
			out[i] = true
		}
		return out, nil
	case "glm_moe_dsa":
	default:
		return nil, nil
	}
	if c.has("indexer_types") || c.has("index_topk_pattern") {
		key := "indexer_types"
		if !c.has(key) {
			key = "index_topk_pattern"
		}
		var entries []string
		switch v := c.fields[key].(type) {
		case string:
			for _, r := range v {
				entries = append(entries, map[rune]string{'F': "full", 'S': "shared"}[r])
			}
		case []any:
			for _, e := range v {
				s, _ := e.(string)
				entries = append(entries, s)
			}
		}
		if len(entries) != n {
			return nil, validate.Err(key, c.fields[key], fmt.Sprintf("must give num_hidden_layers (%d) entries", n))
		}
		for i, e := range entries {
			if e != "full" && e != "shared" {
				return nil, validate.Err(fmt.Sprintf("%s[%d]", key, i), e, "must be full (F) or shared (S)")
			}
			out[i] = e == "full"
		}
		return out, nil
	}
	freq, offset := 1, 2
	for _, p := range []struct {
		key string
		dst *int
	}{{"index_topk_freq", &freq}, {"index_skip_topk_offset", &offset}} {
		if c.has(p.key) {
			v, err := c.nonNegative(p.key)
			if err != nil {
				return nil, err
			}
			*p.dst = v
		}
	}
	freq = max(freq, 1)
	for i := range out {
		out[i] = max(i-offset+1, 0)%freq == 0
	}
	return out, nil
}

// kimiLinearTypes derives Kimi Linear's layer types as KimiLinearConfig
// does (configuration_kimi_linear.py:126–137): from linear_attn_config's
// full_attn_layers and kda_layers, numbered from 1, or else every fourth
// layer from layer 4 (i > 0, i % 4 == 0) full attention and the others
// Kimi Delta Attention (linear).
func (c hfConfig) kimiLinearTypes(n int) ([]string, error) {
	out := make([]string, n)
	cfg, _ := c.fields["linear_attn_config"].(map[string]any)
	full, fok := cfg["full_attn_layers"].([]any)
	kda, kok := cfg["kda_layers"].([]any)
	if !fok || !kok {
		for i := range out {
			out[i] = "linear_attention"
			if i > 0 && i%4 == 0 {
				out[i] = "full_attention"
			}
		}
		return out, nil
	}
	for _, set := range []struct {
		key    string
		layers []any
		typ    string
	}{{"full_attn_layers", full, "full_attention"}, {"kda_layers", kda, "linear_attention"}} {
		for j, v := range set.layers {
			k, err := jsonInt(fmt.Sprintf("linear_attn_config.%s[%d]", set.key, j), v)
			if err != nil {
				return nil, err
			}
			if k > n {
				return nil, validate.Err(fmt.Sprintf("linear_attn_config.%s[%d]", set.key, j), k, fmt.Sprintf("must be a layer number in [1, %d]", n))
			}
			out[k-1] = set.typ
		}
	}
	for i, t := range out {
		if t == "" {
			return nil, validate.Err("linear_attn_config", fmt.Sprintf("layer %d", i+1), "must place every layer in full_attn_layers or kda_layers")
		}
	}
	return out, nil
}

// sinkModels are the model types whose every attention layer has learned
// sink logits (GptOssAttention and DeepseekV4Attention: self.sinks =
// nn.Parameter(...), modeling_gpt_oss.py:283, modeling_deepseek_v4.py:805).
var sinkModels = map[string]bool{"gpt_oss": true, "deepseek_v4": true}

// attends reports whether a layer type has attention.
func attends(layerType string) bool {
	return layerType != "linear_attention" && layerType != "moe" && layerType != "mlp"
}
