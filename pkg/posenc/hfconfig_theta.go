package posenc

// classTheta is the RoPE base a configuration class of transformers 5.25.0
// gives a config that has no rope_theta, where it is not 10000: the class's
// rope_theta default, else its default_theta
// (RotaryEmbeddingConfigMixin.convert_rope_params_to_dict: rope_theta =
// kwargs.pop("rope_theta", getattr(self, "rope_theta", self.default_theta))).
// Generated from CONFIG_MAPPING with the golden venv's transformers; model
// types whose default is per layer kind (Gemma 3's global/local) are left
// out, and a config of theirs without rope_theta stays an error.
var classTheta = map[string]float64{
	"EvollaModel":             500000,
	"apertus":                 1.2e+07,
	"apertus1p5_text":         1.2e+07,
	"bailing_hybrid":          6e+06,
	"bitnet":                  500000,
	"blt":                     500000,
	"blt_global_transformer":  500000,
	"blt_local_decoder":       500000,
	"blt_local_encoder":       500000,
	"cohere":                  500000,
	"cosmos3_edge_text":       1e+08,
	"csm":                     500000,
	"csm_depth_decoder_model": 500000,
	"cwm":                     1e+06,
	"dinov3_vit":              100,
	"dots3_note_text":         8e+07,
	"emu3_text_model":         1e+06,
	"eomt_dinov3":             100,
	"ergo":                    1e+06,
	"ernie4_5":                500000,
	"ernie4_5_moe":            500000,
	"ernie4_5_vl_moe_text":    500000,
	"evolla":                  500000,
	"exaone":                  500000,
	"flex_olmo":               500000,
	"fuyu":                    25000,
	"gemma4_vision":           100,
	"gpt_oss":                 150000,
	"gte":                     160000,
	"helium":                  100000,
	"hy_v3":                   1.11588e+07,
	"jina_embeddings_v3":      20000,
	"lfm2":                    1e+06,
	"lfm2_moe":                1e+06,
	"lfm3":                    1e+06,
	"lfm3_vl_vision":          1e+06,
	"llama4_text":             500000,
	"longcat_flash":           1e+07,
	"minicpm5_moe":            5e+06,
	"minimax":                 1e+06,
	"minimax_m2":              5e+06,
	"minimax_m3_vl_text":      5e+06,
	"mixtral":                 1e+06,
	"mllama_text_model":       500000,
	"muse_glimmer_assistant":  500000,
	"musicflamingo":           1200,
	"nomic_bert":              1000,
	"olmo3":                   500000,
	"openai_privacy_filter":   150000,
	"paddleocr_vl_text":       500000,
	"param2moe":               500000,
	"pe_audio_encoder":        20000,
	"pe_audio_video_encoder":  20000,
	"pe_video_encoder":        20000,
	"phimoe":                  1e+06,
	"qwen2_5_omni_talker":     1e+06,
	"qwen2_5_omni_text":       1e+06,
	"qwen2_5_vl_text":         1e+06,
	"qwen2_vl_text":           1e+06,
	"qwen3_omni_moe_text":     1e+06,
	"qwen3_vl_moe_text":       500000,
	"qwen3_vl_text":           500000,
	"sapiens2":                100,
	"sarvam_moe":              8e+06,
	"smollm3":                 2e+06,
	"solar_open":              1e+06,
}

// classHeadDim is the head_dim a configuration class of transformers
// 5.25.0 declares as its default (a dataclass field head_dim: int = …), so
// that a config without head_dim gets it rather than hidden_size //
// num_attention_heads: Gemma's 256 where 3072 / 16 = 192, Qwen3's 128.
// Generated from CONFIG_MAPPING with the golden venv's transformers (text
// models; classes whose default is None derive it).
var classHeadDim = map[string]int{
	"afmoe": 128, "axk2": 64, "bailing_hybrid": 128, "beam": 128, "cohere2_moe": 128, "cosmos3_edge_text": 128, "cwm": 128, "deepseek_v32": 64, "deepseek_v4": 512, "diffusion_gemma_text": 256, "dory": 256, "dots3_note_text": 256, "embedding_gemma2_text": 256, "ernie4_5": 128, "flint": 128, "gemma": 256, "gemma2": 256, "gemma3_text": 256, "gemma3n_text": 256, "gemma4_text": 256, "gemma4_unified_text": 256, "glm": 128, "glm4": 128, "glm_moe_dsa": 64, "gpt_oss": 64, "helium": 128, "hrm_text": 128, "hy_v3": 128, "hy_v4": 256, "hy_v4_vl_text": 256, "inkling2_loop_text": 128, "inkling2_text": 128, "inkling_text": 128, "internlm3": 128, "iquestcoder": 128, "kolibri1": 128, "kolibri1_1": 128, "laguna": 128, "lara_mini": 128, "lfm3": 128, "llama4_text": 128, "longcat_flash": 64, "mamba2": 64, "mellum": 128, "mimo_v2_flash": 192, "minicpm5_moe": 128, "minimax_m2": 128, "minimax_m3_vl_text": 128, "ministral3": 128, "mistral_large4_text": 64, "molmo2_text": 128, "muse_glimmer_assistant": 128, "muse_glimmer_text": 128, "muse_spark_text": 64, "nemotron_h": 128, "neomme": 64, "openai_privacy_filter": 64, "paddleocr_vl_text": 128, "param2moe": 64, "qwen3": 128, "qwen3_5_moe_text": 256, "qwen3_5_text": 256, "qwen3_next": 256, "qwen3_vl_text": 128, "qwen4_exp_text": 256, "sarvam_moe": 64, "seed_oss": 128, "solar_open": 128, "step3p5": 128, "t5_gemma_module": 256, "t5gemma2_decoder": 256, "t5gemma2_text": 256, "vaultgemma": 256, "zaya": 128,
}

// divisibleHeads are the model types whose configuration class raises when
// hidden_size is not a multiple of num_attention_heads, head_dim given or
// not (validate_architecture, e.g. configuration_llama.py:95–99,
// configuration_gemma2.py:103–107); every other class takes
// hidden_size // num_attention_heads, rounded down, when head_dim is absent.
var divisibleHeads = []string{
	"arcee", "cosmos3_edge_text", "cwm", "deepseek_v2", "dots3_note_text", "exaone", "gemma2", "gemma3_text",
	"gemma3n_text", "gpt_neox", "hrm_text", "hyperclovax", "internlm3", "iquestcoder", "jais2", "llama", "minicpm3",
	"muse_glimmer_text", "muse_spark_text", "t5gemma", "t5gemma2_text", "t5gemma2_decoder", "vaultgemma",
}
