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
    "phi3": ("phi3", "Phi3"),
    "smollm3": ("smollm3", "SmolLM3"),
    "olmo3": ("olmo3", "Olmo3"),
    "cohere2": ("cohere2", "Cohere2"),
}

# Rotary-embedding classes whose name does not follow the prefix.
ROTARY = {"qwen3_5_text": "Qwen3_5TextRotaryEmbedding", "gemma3_text": "Gemma3RotaryEmbedding"}
# Decoder-layer classes whose name does not follow the prefix.
DECODER = {"llama4_text": "Llama4TextDecoderLayer", "qwen3_5_text": "Qwen3_5DecoderLayer", "gemma4_text": "Gemma4TextDecoderLayer"}


def floats(t):
    """A float32 tensor as the exact float64 values of its elements."""
    return [float(x) for x in t.detach().to(torch.float64).tolist()]


def uses_rope(model_type, attn):
    """Whether HF's attention module of a layer applies its rotary embedding,
    read from the attribute each model's forward tests."""
    if attn is None:  # a linear-attention layer (Qwen3.5's Gated DeltaNet)
        return False
    if hasattr(attn, "use_rope"):  # Llama4TextAttention, SmolLM3Attention
        return bool(attn.use_rope)
    if model_type == "cohere2":  # Cohere2Attention: `if self.sliding_window is not None: apply_rotary_pos_emb`
        return attn.sliding_window is not None
    return True


def golden(path):
    with open(path) as f:
        fields = json.load(f)
    model_type = fields.pop("model_type")
    config = AutoConfig.for_model(model_type, **fields)
    module_name, prefix = MODELS[model_type]
    mod = importlib.import_module(f"transformers.models.{module_name}.modeling_{module_name}")
    rotary = getattr(mod, ROTARY.get(model_type, prefix + "RotaryEmbedding"))(config)
    decoder = getattr(mod, DECODER.get(model_type, prefix + "DecoderLayer"))

    declared = getattr(config, "layer_types", None)
    ropes, layers = {}, []
    for i in range(config.num_hidden_layers):
        layer_type = declared[i] if declared else "full_attention"
        with torch.device("meta"):
            layer = decoder(config, i)
        attn = getattr(layer, "self_attn", None)
        entry = {"rope": uses_rope(model_type, attn)}
        if declared:
            entry["type"] = layer_type
        if attn is not None and hasattr(attn, "sliding_window"):
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
        if model_type == "deepseek_v3":
            entry["softmax_scaling"] = float(attn.scaling)
            entry["qk_head_dim"] = int(attn.qk_head_dim)
        layers.append(entry)
        # Rotary values are per layer type where the config declares types,
        # else one set for every layer ("all").
        group = layer_type if declared else "all"
        if entry["rope"] and group not in ropes:
            key = layer_type if hasattr(rotary, f"{layer_type}_inv_freq") else None
            inv = getattr(rotary, f"{key}_inv_freq") if key else rotary.inv_freq
            scaling = getattr(rotary, f"{key}_attention_scaling") if key else rotary.attention_scaling
            rope = {"inv_freq": floats(inv), "attention_scaling": float(scaling)}
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


def disagreements():
    fields = json.loads(json.dumps(NESTED_TRUNCATE))
    model_type = fields.pop("model_type")
    config = AutoConfig.for_model(model_type, **fields)
    mod = importlib.import_module("transformers.models.gemma3.modeling_gemma3")
    rotary = mod.Gemma3RotaryEmbedding(config)
    return {"nested_yarn_truncate_false": {"config": NESTED_TRUNCATE, "layer_type": "full_attention",
                                           "inv_freq": floats(rotary.full_attention_inv_freq)}}


def main(fixtures, out):
    models = {}
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".json") and name != "golden.json":
            models[name[: -len(".json")]] = golden(os.path.join(fixtures, name))
    doc = {
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
