"""Every text model of the pinned transformers whose modeling module has a
rotary embedding: its configuration class's whole config.json (as
save_pretrained writes it, every field) and the inverse frequencies and
attention scaling its own RotaryEmbedding module holds, per layer type, with
the layer_types the class derives. `go test ./pkg/posenc`
(TestGoldenClassConfigs) reads each config with ParseHFConfig and compares:
the reader is tried on a whole config of every family transformers has,
not only those shipped in full/.

Usage: python classes.py OUT_JSON
"""

import importlib
import inspect
import json
import sys

import torch
import transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING, model_type_to_module_name

SKIP_WORDS = ("vision", "audio", "video", "encoder", "speech", "asr", "tts", "codec", "diarization")


def floats(t):
    return [float(x) for x in t.detach().to(torch.float64).tolist()]


def rotary_class(mod):
    for name, obj in inspect.getmembers(mod, inspect.isclass):
        if obj.__module__ != mod.__name__ or not name.endswith("RotaryEmbedding"):
            continue
        if any(w in name.lower() for w in ("vision", "audio", "2d", "3d", "mrope", "talker", "speech")):
            continue
        return obj
    return None


def entry(model_type):
    cls = CONFIG_MAPPING[model_type]
    cfg = cls()
    module = model_type_to_module_name(model_type)
    try:
        mod = importlib.import_module(f"transformers.models.{module}.modeling_{module}")
    except Exception:  # noqa: BLE001 - a config without a modeling module has no rotary to compare
        return None
    rot = rotary_class(mod)
    if rot is None:
        return None
    text = cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg
    rotary = rot(text)
    ropes = {}
    types = getattr(text, "layer_types", None)
    for key in sorted(set(types or [])) or [None]:
        inv = getattr(rotary, f"{key}_inv_freq", None) if key else None
        scaling = getattr(rotary, f"{key}_attention_scaling", None) if key else None
        if inv is None:
            inv, scaling = getattr(rotary, "inv_freq", None), getattr(rotary, "attention_scaling", None)
        if inv is None:
            continue
        ropes[key or "all"] = {"inv_freq": floats(inv), "attention_scaling": float(scaling)}
    if not ropes and hasattr(rotary, "embed_positions"):
        # GPT-J and CodeGen: a sin/cos table per position instead of
        # inv_freq (create_sinusoidal_positions); its angle at position 1.
        table = rotary.embed_positions.to(torch.float64)
        half = table.shape[-1] // 2
        ropes["all"] = {"inv_freq": floats(torch.atan2(table[1, :half], table[1, half:])), "attention_scaling": 1.0}
    return {
        "config": json.loads(cfg.to_json_string(use_diff=False)),
        "layer_types": list(types) if types else None,
        "rope": ropes,
    }


def main(out):
    doc = {"transformers": transformers.__version__, "models": {}}
    for model_type in sorted(CONFIG_MAPPING.keys()):
        if any(w in model_type for w in SKIP_WORDS):
            continue
        try:
            e = entry(model_type)
        except Exception:  # noqa: BLE001 - a class that needs arguments has no plain default
            continue
        if e:
            doc["models"][model_type] = e
    with open(out, "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
