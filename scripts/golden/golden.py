"""Golden values from Hugging Face transformers itself for every fixture of
pkg/posenc/modelconfigs: what each layer's rotary embedding holds (inverse
frequencies and attention scaling, from the model's own RotaryEmbedding
module, which calls ROPE_INIT_FUNCTIONS or its default), which layers
rotate at all, their sliding window, Llama 4's temperature settings and
DeepSeek's softmax scale. No weights: decoder layers are built on PyTorch's
meta device, which allocates nothing, and only their attributes are read.

go test ./pkg/posenc compares the library with the output, without Python.

Usage: python golden.py FIXTURE_DIR OUT_JSON
"""

import importlib
import inspect
import json
import os
import platform
import sys

import torch
import transformers
import transformers.modeling_rope_utils
from transformers import AutoConfig

# model_type -> (modeling module, class-name prefix)
MODELS = {
    "llama": ("llama", "Llama"),
    "llama4_text": ("llama4", "Llama4Text"),
    "gemma3_text": ("gemma3", "Gemma3"),
    "gemma4_text": ("gemma4", "Gemma4Text"),
    "qwen3_5_text": ("qwen3_5", "Qwen3_5"),
    "deepseek_v3": ("deepseek_v3", "DeepseekV3"),
    "gpt_oss": ("gpt_oss", "GptOss"),
    "smollm3": ("smollm3", "SmolLM3"),
    "olmo3": ("olmo3", "Olmo3"),
    "cohere2": ("cohere2", "Cohere2"),
    "qwen2": ("qwen2", "Qwen2"),
    "qwen2_moe": ("qwen2_moe", "Qwen2Moe"),
    "qwen3": ("qwen3", "Qwen3"),
    "qwen3_moe": ("qwen3_moe", "Qwen3Moe"),
    "deepseek_v2": ("deepseek_v2", "DeepseekV2"),
    "mistral": ("mistral", "Mistral"),
    "qwen3_next": ("qwen3_next", "Qwen3Next"),
    "glm4_moe": ("glm4_moe", "Glm4Moe"),
    "exaone4": ("exaone4", "Exaone4"),
    "falcon_h1": ("falcon_h1", "FalconH1"),
    "ministral3": ("ministral3", "Ministral3"),
    "nemotron_h": ("nemotron_h", "NemotronH"),
    "granitemoehybrid": ("granitemoehybrid", "GraniteMoeHybrid"),
    "deepseek_v32": ("deepseek_v32", "DeepseekV32"),
    "glm_moe_dsa": ("glm_moe_dsa", "GlmMoeDsa"),
    "deepseek_v4": ("deepseek_v4", "DeepseekV4"),
    "kimi_linear": ("kimi_linear", "KimiLinear"),
    "gemma2": ("gemma2", "Gemma2"),
    "phi3": ("phi3", "Phi3"),
    "gpt_neox": ("gpt_neox", "GPTNeoX"),
    "minimax_m2": ("minimax_m2", "MiniMaxM2"),
    "qwen2_vl": ("qwen2_vl", "Qwen2VL"),
}

# The rotation function of DeepSeek Sparse Attention's lightning indexer:
# DeepseekV32Indexer calls apply_rotary_pos_emb ("The indexer uses
# NON-interleaved (half-split) RoPE"), GlmMoeDsaIndexer
# apply_rotary_pos_emb_interleave. Their MLA always interleaves.
INDEXER_ROTATION = {"deepseek_v32": "apply_rotary_pos_emb", "glm_moe_dsa": "apply_rotary_pos_emb_interleave"}

# Rotary-embedding classes whose name does not follow the prefix.
ROTARY = {"qwen3_5_text": "Qwen3_5TextRotaryEmbedding", "gemma3_text": "Gemma3RotaryEmbedding"}
# Decoder-layer classes whose name does not follow the prefix.
DECODER = {"gpt_neox": "GPTNeoXLayer", "nemotron_h": "NemotronHBlock", "llama4_text": "Llama4TextDecoderLayer", "qwen3_5_text": "Qwen3_5DecoderLayer", "gemma4_text": "Gemma4TextDecoderLayer"}


def floats(t):
    """A float32 tensor as the exact float64 values of its elements."""
    return [float(x) for x in t.detach().to(torch.float64).tolist()]


def uses_rope(model_type, config, attn):
    """Whether HF's attention module of a layer applies its rotary embedding,
    read from the attribute each model's forward tests."""
    if attn is None:  # a linear-attention layer (Qwen3.5's Gated DeltaNet)
        return False
    if hasattr(attn, "use_rope"):  # Llama4TextAttention, SmolLM3Attention
        return bool(attn.use_rope)
    if model_type == "cohere2":  # Cohere2Attention: `if self.sliding_window is not None: apply_rotary_pos_emb`
        return attn.sliding_window is not None
    if model_type == "kimi_linear":  # KimiLinearAttention: MLA "with NoPE", no rotary embedding at all
        return False
    if model_type == "granitemoehybrid":  # GraniteMoeHybridModel: rotary_emb only for position_embedding_type "rope"
        return config.position_embedding_type == "rope"
    if model_type == "exaone4":  # Exaone4Attention: `if self.sliding_window is None or self.is_sliding`
        return attn.sliding_window is None or attn.is_sliding
    return True


def rotary_out(model_type, rotary, layer_type, x, position_ids):
    """The model's rotary module's output at position_ids: (cos, sin), or
    the complex freqs_cis of Llama 4 and DeepSeek-V2."""
    if "layer_type" in inspect.signature(rotary.forward).parameters:  # Gemma 3 and 4, OLMo 3
        return rotary(x, position_ids, layer_type)
    return rotary(x, position_ids)


def pair_layout(model_type, config, mod, rotary, layer_type, function=None):
    """Which coordinate the model's own rotation pairs with coordinate 0:
    "interleaved" for 1, "halves" for half the rotated width. It rotates
    q = e_0 to position 1 and each k = e_j to position 0 with the modeling
    module's own function and reads the j where q.k = ±sin(omega_0): the
    partner of coordinate 0 in the input. Dot products do not see a
    permutation of the output that q and k share (DeepSeek-V3's
    apply_rotary_pos_emb_interleave returns halves of interleaved input)."""
    x = torch.zeros(1, 2, 1, dtype=torch.float32)
    pos = torch.tensor([[1, 0]])
    out = rotary_out(model_type, rotary, layer_type, x, pos)
    if isinstance(out, tuple):
        cos, sin = out
        # gpt-oss's cos and sin hold one angle per pair (_apply_rotary_emb
        # chunks x in halves); every other model's repeat them to the width.
        # DeepSeek-V4's too (its apply_rotary_pos_emb repeat_interleaves them).
        d = 2 * cos.shape[-1] if model_type in ("gpt_oss", "deepseek_v4") else cos.shape[-1]
    else:  # complex freqs_cis [batch, seq, d/2]
        d = 2 * out.shape[-1]
    # q, k: [batch 1, heads d, seq 2, width d]; head j holds e_j.
    eye = torch.eye(d, dtype=torch.float32)
    qk = eye[None, :, None, :].expand(1, d, 2, d).contiguous()
    if isinstance(out, tuple):
        if function is not None:
            rq, rk = getattr(mod, function)(qk, qk, cos, sin)
        elif model_type in INDEXER_ROTATION or (
                getattr(config, "rope_interleave", False) and hasattr(mod, "apply_rotary_pos_emb_interleave")):
            rq, rk = mod.apply_rotary_pos_emb_interleave(qk, qk, cos, sin)
        elif model_type in ("gemma4_text", "deepseek_v4"):  # one tensor at a time
            rq = mod.apply_rotary_pos_emb(qk, cos, sin)
            rk = rq
        else:
            rq, rk = mod.apply_rotary_pos_emb(qk, qk, cos, sin)
    elif model_type == "llama4_text":  # apply_rotary_emb takes [batch, seq, heads, width]
        rq, rk = mod.apply_rotary_emb(qk.transpose(1, 2), qk.transpose(1, 2), out)
        rq, rk = rq.transpose(1, 2), rk.transpose(1, 2)
    else:  # DeepSeek-V2: [batch, heads, seq, width]
        rq, rk = mod.apply_rotary_emb(qk, qk, out)
    q = rq[0, 0, 0]  # e_0 at position 1
    scores = torch.stack([q @ rk[0, j, 1] for j in range(d)]).abs()
    scores[0] = 0
    partner = int(scores.argmax())
    return {1: "interleaved", d // 2: "halves"}.get(partner, f"partner {partner}")


def golden(path):
    with open(path) as f:
        fields = json.load(f)
    return golden_fields(fields)


def golden_fields(fields):
    fields = dict(fields)
    model_type = fields.pop("model_type")
    config = AutoConfig.for_model(model_type, **fields)
    if model_type == "qwen2_vl":  # a flat Qwen2-VL config: its text model's configuration
        config = config.text_config
    module_name, prefix = MODELS[model_type]
    mod = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    # Nemotron-H has no rotary embedding module at all.
    rotary_cls = getattr(mod, ROTARY.get(model_type, prefix + "RotaryEmbedding"), None)
    rotary = rotary_cls(config) if rotary_cls is not None else None
    decoder = getattr(mod, DECODER.get(model_type, prefix + "DecoderLayer"))

    declared = getattr(config, "layer_types", None)
    ropes, layers = {}, []
    for i in range(config.num_hidden_layers):
        layer_type = declared[i] if declared else "full_attention"
        with torch.device("meta"):
            layer = decoder(config, i)
        attn = getattr(layer, "self_attn", None) or getattr(layer, "attention", None)  # GPTNeoXLayer.attention
        entry = {"rope": uses_rope(model_type, config, attn)}
        if getattr(attn, "sinks", None) is not None:  # learned sink logits (gpt-oss, DeepSeek-V4)
            entry["sinks"] = True
        if declared:
            entry["type"] = layer_type
        if model_type == "exaone4":
            # Exaone4Attention keeps config.sliding_window on every layer but
            # masks with `self.sliding_window if self.is_sliding else None`.
            window = attn.sliding_window if attn.is_sliding else None
        elif attn is not None and hasattr(attn, "sliding_window"):
            window = attn.sliding_window
        else:
            # Models with no layer_types (Phi-3, Mistral) pass config.sliding_window
            # to every layer's attention: Phi3Model masks with
            # create_sliding_window_causal_mask whenever it is set.
            window = None if declared else getattr(config, "sliding_window", None)
        if window is not None:
            entry["sliding_window"] = int(window)
        if getattr(attn, "attn_temperature_tuning", False) and not entry["rope"]:
            entry["attn_scale"] = float(attn.attn_scale)
            entry["floor_scale"] = float(attn.floor_scale)
        if model_type == "ministral3":
            # Ministral3Attention scales every layer's queries with
            # get_llama_4_attn_scale(position, llama_4_scaling_beta,
            # original_max_position_embeddings): its values at a few positions.
            rp = config.rope_parameters
            orig = rp["original_max_position_embeddings"]
            positions = torch.tensor([[0, orig - 1, orig, 5 * orig + 3]])
            scale = mod.get_llama_4_attn_scale(positions, rp["llama_4_scaling_beta"], orig)
            entry["query_scale_positions"] = [int(p) for p in positions[0]]
            entry["query_scale"] = floats(scale.flatten().to(torch.float64))
        if model_type in INDEXER_ROTATION:
            entry["indexer"] = getattr(attn, "indexer", None) is not None
        if model_type in ("deepseek_v2", "deepseek_v3"):
            entry["softmax_scaling"] = float(attn.scaling)
            entry["qk_head_dim"] = int(attn.qk_head_dim)
        layers.append(entry)
        # Rotary values are per layer type where the config declares types,
        # else one set for every layer ("all").
        group = layer_type if declared else "all"
        if entry["rope"] and group not in ropes:
            key = layer_type if hasattr(rotary, f"{layer_type}_inv_freq") else None
            if model_type == "deepseek_v4":
                # V4's rope_parameters are keyed by rope type: sliding layers
                # rotate with "main", compressed ones with "compress"
                # (DeepseekV4Attention.rope_layer_type).
                key = attn.rope_layer_type
            inv = getattr(rotary, f"{key}_inv_freq") if key else rotary.inv_freq
            scaling = getattr(rotary, f"{key}_attention_scaling") if key else rotary.attention_scaling
            rope = {"inv_freq": floats(inv), "attention_scaling": float(scaling)}
            rp = getattr(config, "rope_parameters", None) or {}
            if isinstance(rp, dict) and rp.get("mrope_section") is not None:
                rope["mrope_section"] = list(rp["mrope_section"])
            if model_type in INDEXER_ROTATION:
                rope["indexer_layout"] = pair_layout(model_type, config, mod, rotary, layer_type,
                                                     INDEXER_ROTATION[model_type])
            try:
                rope["layout"] = pair_layout(model_type, config, mod, rotary, key or layer_type)
            except Exception as e:  # noqa: BLE001 - recorded, and the Go test says which model
                rope["layout"] = f"not found: {type(e).__name__}: {e}"
            if getattr(rotary, "rope_type", None) == "longrope":
                # The long factors, as dynamic_rope_update's longrope_frequency_update
                # computes them once the sequence passes original_max_position_embeddings.
                orig = config.rope_parameters["original_max_position_embeddings"]
                init = transformers.modeling_rope_utils.ROPE_INIT_FUNCTIONS["longrope"]
                long_inv, _ = init(config, None, seq_len=orig + 1)
                rope["inv_freq_long"] = floats(long_inv)
            ropes[group] = rope
    return {"rope": ropes, "layers": layers}


# A configuration where transformers and the library disagree, recorded so
# that the Go test can show who is right: YaRN with truncate false inside a
# per-layer-type rope_parameters. _compute_yarn_parameters reads every key
# from the layer type's dictionary except truncate, which it reads from the
# top-level config.rope_parameters (keyed by layer type here), so it never
# sees the false and truncates anyway.
NESTED_TRUNCATE = {
    "model_type": "gemma3_text", "num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 131072,
    "sliding_window": 128, "layer_types": ["sliding_attention", "full_attention"],
    "rope_parameters": {
        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
        "full_attention": {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096,
                           "rope_theta": 150000.0, "truncate": False},
    },
}


# DBRX's released config keeps its base in attn_config.rope_theta (500000);
# DbrxAttentionConfig has no such field, so transformers rotates with 10000.
DBRX_ATTN_THETA = {
    "model_type": "dbrx", "n_layers": 2, "d_model": 6144, "n_heads": 48, "max_seq_len": 32768,
    "attn_config": {"clip_qkv": 8, "kv_n_heads": 8, "model_type": "", "rope_theta": 500000},
}


def disagreements():
    dbrx_fields = json.loads(json.dumps(DBRX_ATTN_THETA))
    dbrx_config = AutoConfig.for_model(dbrx_fields.pop("model_type"), **dbrx_fields)
    dbrx_mod = importlib.import_module("transformers.models.dbrx.modeling_dbrx")
    dbrx = {"config": DBRX_ATTN_THETA, "layer_type": "all",
            "inv_freq": floats(dbrx_mod.DbrxRotaryEmbedding(dbrx_config).inv_freq)}
    fields = json.loads(json.dumps(NESTED_TRUNCATE))
    model_type = fields.pop("model_type")
    config = AutoConfig.for_model(model_type, **fields)
    mod = importlib.import_module("transformers.models.gemma3.modeling_gemma3")
    rotary = mod.Gemma3RotaryEmbedding(config)
    return {"nested_yarn_truncate_false": {"config": NESTED_TRUNCATE, "layer_type": "full_attention",
                                           "inv_freq": floats(rotary.full_attention_inv_freq)},
            "dbrx_attn_config_rope_theta": dbrx}


# Configs that test a rule of a configuration class the shipped configs do
# not exercise (their values are made up; the rule is transformers'): which
# layers slide for Qwen2, Qwen2-MoE and Qwen3-MoE when use_sliding_window is
# on, and DeepSeek-V2's pair layout without rope_interleave.
RULES = {
    "qwen2_use_sliding_window": {
        "model_type": "qwen2", "num_hidden_layers": 6, "hidden_size": 512, "num_attention_heads": 4,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0, "use_sliding_window": True,
        "sliding_window": 4096, "max_window_layers": 4},
    "qwen2_moe_use_sliding_window": {
        "model_type": "qwen2_moe", "num_hidden_layers": 6, "hidden_size": 512, "num_attention_heads": 4,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0, "use_sliding_window": True,
        "sliding_window": 4096, "max_window_layers": 4},
    "qwen3_moe_use_sliding_window": {
        "model_type": "qwen3_moe", "num_hidden_layers": 3, "hidden_size": 512, "num_attention_heads": 4,
        "head_dim": 128, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "use_sliding_window": True,
        "sliding_window": 4096},
    "mistral_sliding_window": {
        "model_type": "mistral", "num_hidden_layers": 2, "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 32768, "rope_theta": 10000.0, "sliding_window": 4096},
    # Partial rotary by class default when the config has no
    # partial_rotary_factor: Glm4MoeConfig 0.5 (GLM-4.5), Qwen3NextConfig 0.25.
    "glm4_moe_default_partial_rotary": {
        "model_type": "glm4_moe", "num_hidden_layers": 2, "hidden_size": 5120, "num_attention_heads": 96,
        "head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 1000000.0},
    "qwen3_next_default_partial_rotary": {
        "model_type": "qwen3_next", "num_hidden_layers": 4, "hidden_size": 2048, "num_attention_heads": 16,
        "head_dim": 256, "max_position_embeddings": 262144, "rope_theta": 10000000.0},
    # Granite-4.0-H: Mamba-2 layers and attention layers, the attention
    # rotating only when position_embedding_type is "rope" (the release
    # says "nope"); layer types in the older names.
    "granite_hybrid_nope": {
        "model_type": "granitemoehybrid", "num_hidden_layers": 4, "hidden_size": 768, "num_attention_heads": 12,
        "max_position_embeddings": 131072, "rope_theta": 10000.0, "position_embedding_type": "nope",
        "layer_types": ["mamba", "mamba", "mamba", "attention"]},
    "granite_hybrid_rope": {
        "model_type": "granitemoehybrid", "num_hidden_layers": 4, "hidden_size": 768, "num_attention_heads": 12,
        "max_position_embeddings": 131072, "rope_theta": 10000.0, "position_embedding_type": "rope",
        "layer_types": ["mamba", "attention", "mamba", "attention"]},
    # GLM-5 runs its own indexer only on the layers index_topk_pattern marks
    # F; an S layer reuses the previous layer's top-k.
    "glm5_shared_indexer": {
        "model_type": "glm_moe_dsa", "num_hidden_layers": 4, "hidden_size": 1024, "num_attention_heads": 8,
        "max_position_embeddings": 202752, "qk_nope_head_dim": 192, "qk_rope_head_dim": 64, "rope_theta": 1000000.0,
        "index_topk_pattern": "FSSF"},
    # DeepSeek-V4 with a flat YaRN rope_parameters, which the class makes the
    # compressed layers' scaling (with compress_rope_theta and attention
    # factor 1), and layer types from the older compress_ratios.
    "deepseek_v4_flat_yarn": {
        "model_type": "deepseek_v4", "num_hidden_layers": 4, "hidden_size": 1024, "num_attention_heads": 8,
        "head_dim": 512, "max_position_embeddings": 1048576, "rope_theta": 10000.0, "compress_rope_theta": 160000.0,
        "compress_ratios": [0, 4, 128, 4],
        "rope_parameters": {"type": "yarn", "factor": 16.0, "original_max_position_embeddings": 65536,
                            "beta_fast": 32.0, "beta_slow": 1.0}},
    # Kimi Linear's layer types from linear_attn_config, numbered from 1.
    "kimi_linear_from_linear_attn_config": {
        "model_type": "kimi_linear", "num_hidden_layers": 4, "hidden_size": 1024, "num_attention_heads": 8,
        "max_position_embeddings": 1048576, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
        "linear_attn_config": {"full_attn_layers": [2, 4], "kda_layers": [1, 3], "head_dim": 128, "num_heads": 8,
                               "short_conv_kernel_size": 4}},
    # No rope_theta: transformers takes the class's default (10000 for
    # Llama, 2e6 for SmolLM3).
    "llama_without_rope_theta": {
        "model_type": "llama", "num_hidden_layers": 1, "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 4096},
    "smollm3_without_rope_theta": {
        "model_type": "smollm3", "num_hidden_layers": 4, "hidden_size": 2048, "num_attention_heads": 16,
        "max_position_embeddings": 65536, "no_rope_layers": [1, 1, 1, 0]},
    # Falcon-H1's base of 1e11 on its hybrid layers.
    "falcon_h1_base_1e11": {
        "model_type": "falcon_h1", "num_hidden_layers": 2, "hidden_size": 1024, "num_attention_heads": 8,
        "head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 100000000000.0},
    # Class-default rope_parameters when a config has none: gpt-oss's YaRN
    # (taking the config's rope_theta), Ministral 3's YaRN with its own
    # base and llama_4_scaling_beta (the config's rope_theta is not used).
    "gpt_oss_without_rope_parameters": {
        "model_type": "gpt_oss", "num_hidden_layers": 2, "hidden_size": 2880, "num_attention_heads": 64,
        "head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 150000.0, "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"]},
    "ministral3_without_rope_parameters": {
        "model_type": "ministral3", "num_hidden_layers": 2, "hidden_size": 4096, "num_attention_heads": 32,
        "head_dim": 128, "max_position_embeddings": 262144, "rope_theta": 10000.0},
    # Gemma 3 and OLMo 3 in the older fields: rope_scaling goes to the
    # full-attention layers only; Gemma 3's sliding layers take
    # rope_local_base_freq (default 1e4), OLMo 3's always its default base.
    "gemma3_older_fields_linear": {
        "model_type": "gemma3_text", "num_hidden_layers": 6, "hidden_size": 2560, "num_attention_heads": 8,
        "head_dim": 256, "max_position_embeddings": 131072, "rope_theta": 1000000.0, "sliding_window": 1024,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"}},
    "gemma3_without_rope_fields": {
        "model_type": "gemma3_text", "num_hidden_layers": 6, "hidden_size": 2560, "num_attention_heads": 8,
        "head_dim": 256, "max_position_embeddings": 131072, "sliding_window": 1024},
    "olmo3_rope_scaling_full_only": {
        "model_type": "olmo3", "num_hidden_layers": 4, "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 65536, "rope_theta": 500000.0, "sliding_window": 4096,
        "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192,
                         "attention_factor": 1.2079441541679836, "beta_fast": 32, "beta_slow": 1}},
    "olmo3_other_rope_theta": {
        "model_type": "olmo3", "num_hidden_layers": 4, "hidden_size": 4096, "num_attention_heads": 32,
        "max_position_embeddings": 65536, "rope_theta": 10000.0, "sliding_window": 4096},
    # Gemma 2 without layer_types: every other layer slides, from layer 0.
    "gemma2_alternating": {
        "model_type": "gemma2", "num_hidden_layers": 4, "hidden_size": 2304, "num_attention_heads": 8,
        "head_dim": 256, "max_position_embeddings": 8192, "rope_theta": 10000.0, "sliding_window": 4096,
        "query_pre_attn_scalar": 256, "attn_logit_softcapping": 50.0, "final_logit_softcapping": 30.0},
    # Phi-3's older rope_scaling type "su" (and "yarn"), read as longrope.
    "phi3_su_is_longrope": {
        "model_type": "phi3", "num_hidden_layers": 1, "hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
        "sliding_window": 262144,
        "rope_scaling": {"type": "su", "short_factor": [1.0 + i / 100 for i in range(48)],
                         "long_factor": [1.0 + i for i in range(48)]}},
    # GPT-NeoX's base is rotary_emb_base (rope_theta is not read), a quarter rotating.
    "gpt_neox_rotary_emb_base": {
        "model_type": "gpt_neox", "num_hidden_layers": 1, "hidden_size": 2048, "num_attention_heads": 16,
        "max_position_embeddings": 2048, "rotary_emb_base": 10000, "rotary_pct": 0.25},
    # MiniMax-M2's rotary_dim, as partial_rotary_factor = rotary_dim / head_dim.
    "minimax_m2_rotary_dim": {
        "model_type": "minimax_m2", "num_hidden_layers": 1, "hidden_size": 3072, "num_attention_heads": 48,
        "head_dim": 128, "max_position_embeddings": 196608, "rope_theta": 5000000, "rotary_dim": 64},
    # Qwen2-VL's text layers: rope_scaling type "mrope" is the default RoPE
    # with its mrope_section.
    "qwen2_vl_mrope": {
        "model_type": "qwen2_vl", "num_hidden_layers": 1, "hidden_size": 1536, "num_attention_heads": 12,
        "max_position_embeddings": 32768, "rope_theta": 1000000.0,
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}},
    "deepseek_v2_lite_layout": {
        "model_type": "deepseek_v2", "num_hidden_layers": 2, "hidden_size": 2048, "num_attention_heads": 16,
        "max_position_embeddings": 163840, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "kv_lora_rank": 512,
        "q_lora_rank": None, "v_head_dim": 128, "first_k_dense_replace": 1, "n_routed_experts": 4,
        "moe_intermediate_size": 64, "intermediate_size": 128, "num_experts_per_tok": 2, "n_group": 1, "topk_group": 1,
        "rope_theta": 10000, "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
                                              "beta_fast": 32, "beta_slow": 1, "mscale": 0.707, "mscale_all_dim": 0.707}},
}


# The fields of a config that the class-default check keeps from cls().
CLASS_KEYS = [
    "num_hidden_layers", "hidden_size", "num_attention_heads", "head_dim", "max_position_embeddings",
    "layer_types", "sliding_window", "qk_rope_head_dim", "qk_nope_head_dim", "no_rope_layers",
]


def class_rope_defaults():
    """Every model type of transformers whose configuration class gives a
    config without rope_parameters a default other than the plain RoPE
    (a rope_type, a key beyond rope_theta and partial_rotary_factor, or one
    dictionary per layer type): the class's own fields that bear on
    positions (config, without any RoPE field) and the rope_parameters it
    ends up with. Vision and audio encoders (axial RoPE) are left out."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    from transformers.modeling_rope_utils import RotaryEmbeddingConfigMixin
    out = {}
    for model_type in sorted(CONFIG_MAPPING.keys()):
        if any(w in model_type for w in ("vision", "audio", "video", "encoder")):
            continue
        try:
            cls = CONFIG_MAPPING[model_type]
            if not issubclass(cls, RotaryEmbeddingConfigMixin):
                continue
            cfg = cls()
        except Exception:  # noqa: BLE001 - a class that needs arguments has no plain default
            continue
        rp = getattr(cfg, "rope_parameters", None)
        if not isinstance(rp, dict) or rp.get("rope_type") == "axial":
            continue
        extra = set(rp) - {"rope_type", "rope_theta", "partial_rotary_factor"}
        if not extra and rp.get("rope_type") == "default":
            continue
        d = cfg.to_dict()  # per-layer attributes (Gemma 4's head_dim) as the class serialises them
        fields = {k: d[k] for k in CLASS_KEYS if d.get(k) is not None}
        fields["model_type"] = model_type
        out[model_type] = {"config": fields, "rope_parameters": rp}
    return out


def main(fixtures, out):
    models = {}
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".json") and not name.startswith("golden"):
            models[name[: -len(".json")]] = golden(os.path.join(fixtures, name))
    full = {}
    full_dir = os.path.join(fixtures, "full")
    for name in sorted(os.listdir(full_dir)):
        if name.endswith(".json"):
            full[name[: -len(".json")]] = golden(os.path.join(full_dir, name))
    designs = {}
    designs_dir = os.path.join(fixtures, "designs")
    for name in sorted(os.listdir(designs_dir)):
        if name.endswith(".json"):
            designs[name[: -len(".json")]] = golden(os.path.join(designs_dir, name))
    rules = {name: {"config": cfg, **golden_fields(cfg)} for name, cfg in RULES.items()}
    doc = {
        "designs": designs,
        "class_rope_defaults": class_rope_defaults(),
        "full": full,
        "rules": rules,
        "disagreements": disagreements(),
        "generated_by": "scripts/golden/golden.py (make golden)",
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "python": platform.python_version(),
        "models": models,
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
