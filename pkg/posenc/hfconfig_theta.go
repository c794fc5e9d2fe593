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

// classMaxPositions is the max_position_embeddings a configuration class of
// transformers 5.25.0 declares as its default, for the model types of
// golden-classes.json: a config without the field (Falcon-7B's released
// config.json has none) gets it, with a warning. Generated from
// CONFIG_MAPPING with the golden venv's transformers.
var classMaxPositions = map[string]int{
	"EvollaModel": 8192, "afmoe": 16384, "apertus": 65536, "apertus1p5_text": 65536, "arcee": 4096, "aria_text": 2048, "axk1": 32768, "axk2": 131072, "bailing_hybrid": 262144, "bamba": 262144, "beam": 8192, "bitnet": 2048, "blt_global_transformer": 4096, "blt_local_decoder": 24576, "blt_patcher": 8192, "chameleon": 4096, "cohere": 8192, "cohere2": 8192, "cohere2_moe": 8192, "cosmos3_edge_text": 131072, "csm": 2048, "csm_depth_decoder_model": 33, "cwm": 131072, "deepseek_ocr2_text": 2048, "deepseek_v2": 2048, "deepseek_v3": 4096, "deepseek_v32": 163840, "deepseek_v4": 1048576, "dia_decoder": 3072, "diffllama": 2048, "diffusion_gemma_text": 131072, "doge": 2048, "dory": 8192, "dots1": 2048, "dots3_note_text": 524288, "embedding_gemma2_text": 262144, "emu3_text_model": 9216, "ergo": 524288, "ernie4_5": 131072, "ernie4_5_moe": 131072, "ernie4_5_vl_moe_text": 131072, "esm": 1026, "esmc": 2048, "eurobert": 8192, "evolla": 8192, "exaone4": 2048, "exaone_moe": 2048, "falcon": 2048, "falcon_h1": 8192, "flex_olmo": 4096, "flint": 262144, "gemma": 8192, "gemma2": 8192, "gemma3_text": 131072, "gemma3n_text": 32768, "gemma4_text": 131072, "gemma4_unified_text": 262144, "glm": 131072, "glm4": 131072, "glm4_moe": 131072, "glm4_moe_lite": 202752, "glm4v_moe_text": 65536, "glm4v_text": 32768, "glm_image_text": 131072, "glm_moe_dsa": 202752, "glm_ocr_text": 131072, "gpt_neox": 2048, "gpt_neox_japanese": 2048, "gpt_oss": 131072, "granite": 2048, "granite_docling_text": 32768, "granite_swa": 8192, "granitemoe": 2048, "granitemoe_swa": 2048, "granitemoehybrid": 2048, "granitemoeshared": 2048, "gte": 8192, "helium": 4096, "hrm_text": 2048, "hunyuan_v1_dense": 2048, "hunyuan_v1_moe": 2048, "hunyuan_vl_text": 2048, "hy_v3": 131072, "hy_v4": 262144, "hy_v4_vl_text": 262144, "hyperclovax": 2048, "idefics": 2048, "jais2": 8192, "jetmoe": 4096, "jina_embeddings_v3": 8194, "kolibri1": 262144, "kolibri1_1": 262144, "laguna": 131072, "lara_mini": 131072, "lfm2": 128000, "lfm2_moe": 128000, "lfm3": 128000, "llama": 2048, "llama4_text": 131072, "longcat_flash": 131072, "mellum": 131072, "mimi": 8000, "mimi_decoder": 8000, "mimo_v2_flash": 131072, "minicpm3": 32768, "minicpm5_moe": 524288, "minimax": 131072, "minimax_m2": 196608, "minimax_m3_vl_text": 524288, "ministral": 131072, "ministral3": 262144, "mistral": 131072, "mistral4": 1048576, "mistral_large4_text": 1048576, "mixtral": 131072, "mllama_text_model": 131072, "modernbert": 8192, "modernbert-decoder": 8192, "molmo2_text": 36864, "moonshine": 512, "moonshine_streaming": 4096, "moshi": 3000, "muse_glimmer_assistant": 131072, "muse_glimmer_text": 131072, "muse_spark_text": 1048576, "nanochat": 2048, "nemotron": 4096, "nemotron3_5_transcribe_word_timestamp": 5000, "neomme": 16384, "nomic_bert": 2048, "olmo": 2048, "olmo2": 2048, "olmo3": 2048, "olmo_hybrid": 65536, "olmoe": 4096, "openai_privacy_filter": 131072, "paddleocr_vl_text": 131072, "persimmon": 16384, "phi": 2048, "phi3": 4096, "phi4_multimodal": 131072, "phimoe": 131072, "qwen2": 32768, "qwen2_5_omni_dit": 32768, "qwen2_5_omni_talker": 32768, "qwen2_5_omni_text": 32768, "qwen2_5_vl_text": 32768, "qwen2_moe": 32768, "qwen2_vl_text": 32768, "qwen3": 32768, "qwen3_5_moe_text": 32768, "qwen3_5_text": 32768, "qwen3_moe": 32768, "qwen3_next": 32768, "qwen3_omni_moe_talker_code_predictor": 32768, "qwen3_omni_moe_talker_text": 32768, "qwen3_omni_moe_text": 32768, "qwen3_vl_moe_text": 128000, "qwen3_vl_text": 128000, "qwen4_exp_text": 32768, "seed_oss": 524288, "smollm3": 32768, "solar_open": 131072, "stablelm": 4096, "starcoder2": 4096, "step3p5": 128000, "t5_gemma_module": 8192, "t5gemma2_decoder": 131072, "t5gemma2_text": 131072, "timesfm2_5": 16384, "ultrabert": 32768, "unlimited_ocr_text": 32768, "vaultgemma": 8192, "voxtral_realtime_text": 131072, "youtu": 131072, "zamba2": 4096, "zaya": 131072,
}
