"""Writes the fixtures whose values are the defaults of a configuration class
of the pinned transformers (the class's docstring names the checkpoint they
describe): only the fields that decide positions, as a config.json holds
them. Run by `make golden`; the hand-copied fixtures (llama-3.1-8b,
deepseek-v3, phi-3.5-mini) are not touched.

Usage: python fixtures.py OUT_DIR
"""

import inspect
import json
import os
import re
import sys

import transformers

# fixture name -> (config class, model_type)
DEFAULTS = {
    "llama-4-scout": "Llama4TextConfig",
    "gemma-3-4b": "Gemma3TextConfig",
    "gemma-4-e2b": "Gemma4TextConfig",
    "qwen3.5-27b": "Qwen3_5TextConfig",
    "gpt-oss-20b": "GptOssConfig",
    "smollm3-3b": "SmolLM3Config",
    "olmo-3-7b": "Olmo3Config",
    "cohere2": "Cohere2Config",
}

# The 2025-26 designs, written into designs/: fixture name -> config class.
DESIGNS = {
    "qwen3-next-80b-a3b": "Qwen3NextConfig",
    "exaone-4.0-32b": "Exaone4Config",
    "falcon-h1-1.5b-deep": "FalconH1Config",
    "ministral-3-8b": "Ministral3Config",
    "nemotron-3-nano-30b-a3b": "NemotronHConfig",
    "deepseek-v3.2-exp": "DeepseekV32Config",
    "glm-5": "GlmMoeDsaConfig",
    "deepseek-v4-flash-base": "DeepseekV4Config",
    "kimi-linear-48b-a3b": "KimiLinearConfig",
}

# The fields of a config that decide positions (and the head size they
# depend on); everything else of a config.json is left out.
KEYS = [
    "model_type", "num_hidden_layers", "hidden_size", "num_attention_heads", "head_dim",
    "max_position_embeddings", "original_max_position_embeddings", "rope_theta", "rope_scaling",
    "rope_parameters", "partial_rotary_factor", "layer_types", "no_rope_layers",
    "no_rope_layer_interval", "sliding_window", "use_sliding_window", "attention_chunk_size",
    "attn_temperature_tuning", "attn_scale", "floor_scale", "qk_rope_head_dim", "qk_nope_head_dim",
    "rope_interleave", "global_head_dim", "sliding_window_pattern", "layers_block_type",
    "position_embedding_type", "indexer_types", "compress_rope_theta",
]

# Defaults a class applies in code rather than keeping as an attribute.
EXTRA = {
    # Gemma4TextConfig.__post_init__: global_head_dim = kwargs.pop("global_head_dim", 512),
    # the head size of its full-attention layers.
    "gemma-4-e2b": {"global_head_dim": 512},
}


def main(out):
    os.makedirs(f"{out}/designs", exist_ok=True)
    for name, cls_name in list(DEFAULTS.items()) + [("designs/" + n, c) for n, c in DESIGNS.items()]:
        cls = getattr(transformers, cls_name)
        cfg = cls().to_dict()
        fixture = {k: cfg[k] for k in KEYS if k in cfg and cfg[k] is not None}
        fixture["model_type"] = cls.model_type
        fixture.update(EXTRA.get(name, {}))
        doc = " ".join((cls.__doc__ or "").split())
        m = re.search(r"configuration to that of the \[([^\]]+)\]", doc) or re.search(
            r'checkpoint="([^"]+)"', inspect.getsource(inspect.getmodule(cls)))
        print(f"{name}: {cls_name}() of transformers {transformers.__version__}, documented as {m.group(1) if m else '?'}")
        with open(f"{out}/{name}.json", "w") as f:
            json.dump(fixture, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
