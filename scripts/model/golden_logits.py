"""Golden logits of SmolLM2-135M-Instruct from Hugging Face transformers, for
pkg/smollm's tests: transformers loads the same GGUF file (gguf_file=,
which dequantizes with the GGML project's gguf package and undoes
llama.cpp's permutation of the Q and K rows) into LlamaForCausalLM, in
float32 on the CPU, with eager attention, and runs the first N tokens of
pkg/lab/corpus/go-docs.txt (tokenized by the GGUF's own tokenizer, as
transformers reads it) in one forward pass.

What is committed, for N positions and a vocabulary of V:
  logits.json  the token ids, each row's argmax, its top-K token ids, the
               fixed columns, the rows kept whole, and the NLL of each
               next token (float64, from the float32 logits)
  logits.f32   float32 little-endian: the logits at the fixed columns
               [N, C], then the top-K logits [N, K], then the whole rows
               [R, V]

Usage: python golden_logits.py MODEL.gguf TEXT OUT_DIR [N]
"""

import json
import os
import platform
import sys

import numpy as np
import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

TOP_K = 8
COLUMNS = 256  # fixed columns: every (V // COLUMNS)-th token id, from 7
WHOLE_ROWS = [0, 1, 255, 511]


def main(model_path, text_path, out_dir, n=512):
    torch.manual_seed(0)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    folder, name = os.path.split(os.path.abspath(model_path))
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32,
                                                 attn_implementation="eager")
    model.eval()
    with open(text_path, encoding="utf-8") as f:
        text = f.read()
    ids = tok(text[:20000], add_special_tokens=True)["input_ids"][:n]
    assert len(ids) == n, len(ids)
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0].float().numpy()  # [n, V]
    vocab = logits.shape[1]
    stride = vocab // COLUMNS
    columns = list(range(7, vocab, stride))[:COLUMNS]
    top = np.argsort(-logits, axis=1, kind="stable")[:, :TOP_K]
    logp = torch.log_softmax(torch.from_numpy(logits).double(), dim=-1).numpy()
    nll = [-float(logp[i, ids[i + 1]]) for i in range(n - 1)]
    rows = [r for r in WHOLE_ROWS if r < n]
    meta = {
        "source": "transformers %s, torch %s, gguf_file=%s, float32, eager attention, %s" % (
            transformers.__version__, torch.__version__, name, platform.machine()),
        "text": os.path.relpath(text_path),
        "ids": [int(i) for i in ids],
        "argmax": [int(i) for i in logits.argmax(axis=1)],
        "top_ids": top.astype(int).tolist(),
        "columns": columns,
        "whole_rows": rows,
        "vocab": vocab,
        "nll": nll,
        "mean_nll": float(np.mean(nll)),
    }
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "logits.json"), "w") as f:
        json.dump(meta, f, separators=(",", ":"))
        f.write("\n")
    blob = [logits[:, columns], np.take_along_axis(logits, top, axis=1), logits[rows]]
    with open(os.path.join(out_dir, "logits.f32"), "wb") as f:
        for b in blob:
            f.write(np.ascontiguousarray(b, dtype="<f4").tobytes())
    print("golden_logits: %d tokens, mean NLL %.4f nats, %s" % (n, meta["mean_nll"], meta["source"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], *(int(a) for a in sys.argv[4:]))
