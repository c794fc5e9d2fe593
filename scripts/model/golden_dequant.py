"""Golden dequantized slices of SmolLM2-135M-Instruct's GGUF file, from the
GGML project's own Python package gguf (gguf-py: GGUFReader and
gguf.quants.dequantize), for pkg/gguf's tests: the whole tensor directory
(name, type, row-major shape), a few metadata values, and a few hundred
values of tensors of each type the file holds, as float32 bit patterns so
that the Go test can require bit-exact agreement.

Usage: python golden_dequant.py MODEL.gguf OUT.json
"""

import importlib.metadata
import json
import sys

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize

# (tensor, row, first column, number of values): rows of the row-major shape.
SLICES = [
    ("blk.0.attn_norm.weight", 0, 0, 256),  # F32
    ("output_norm.weight", 0, 320, 256),  # F32
    ("token_embd.weight", 1, 0, 128),  # Q8_0
    ("token_embd.weight", 4242, 64, 128),  # Q8_0
    ("token_embd.weight", 49151, 448, 128),  # Q8_0, the last row
    ("blk.0.attn_q.weight", 0, 0, 128),  # Q4_1
    ("blk.7.attn_k.weight", 100, 96, 128),  # Q4_1
    ("blk.29.ffn_down.weight", 575, 1408, 128),  # Q4_1, the last row
]
METADATA = [
    "general.architecture", "llama.block_count", "llama.context_length", "llama.embedding_length",
    "llama.feed_forward_length", "llama.attention.head_count", "llama.attention.head_count_kv",
    "llama.rope.freq_base", "llama.attention.layer_norm_rms_epsilon", "llama.rope.dimension_count",
    "llama.vocab_size", "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.bos_token_id",
]


def main(model, out):
    reader = GGUFReader(model)
    tensors = {t.name: t for t in reader.tensors}
    meta = {}
    for key in METADATA:
        v = reader.fields[key].contents()
        meta[key] = float(np.float32(v)) if isinstance(v, float) else v
    slices = []
    for name, row, col, n in SLICES:
        t = tensors[name]
        values = dequantize(t.data, t.tensor_type).astype(np.float32, copy=False)
        values = values.reshape(-1, values.shape[-1])[row, col:col + n]
        assert values.size == n, (name, row, col, n)
        slices.append({"tensor": name, "type": t.tensor_type.name, "row": row, "col": col,
                       "bits": [int(b) for b in values.view(np.uint32)]})
    directory = [{"name": t.name, "type": t.tensor_type.name,
                  "shape": [int(d) for d in reversed(t.shape)]} for t in reader.tensors]
    golden = {
        "source": "gguf-py %s (GGUFReader, gguf.quants.dequantize), numpy %s" % (
            importlib.metadata.version("gguf"), np.__version__),
        "metadata": meta, "tensors": directory, "slices": slices,
    }
    with open(out, "w") as f:
        json.dump(golden, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
