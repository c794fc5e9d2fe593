"""The PyTorch side of make bench's real-model rows: SmolLM2-135M-Instruct
in transformers' LlamaForCausalLM, float32 on the CPU (the same GGUF file,
dequantized by transformers with gguf-py), timed as cmd/smollm-bench times
GoMLX: prefill tokens/s at each length (one forward pass, logits of the
last row only), and greedy decoding tokens/s with the key/value cache after
a prompt of 512; the best of RUNS after one untimed run. It also writes
the token ids both sides run: the first tokens of pkg/lab/corpus/go-docs.txt.

Usage: python bench_torch.py MODEL.gguf TEXT IDS_OUT JSON_OUT THREADS RUNS
"""

import json
import os
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

PREFILL = [512, 2048]
DECODE = 32


def best(runs, f):
    f()
    return min(f() for _ in range(runs))


def main(model_path, text_path, ids_out, json_out, threads, runs):
    torch.set_num_threads(threads)
    folder, name = os.path.split(os.path.abspath(model_path))
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    model.eval()
    with open(text_path, encoding="utf-8") as f:
        ids = tok(f.read()[:60000], add_special_tokens=False)["input_ids"][:max(PREFILL)]
    assert len(ids) == max(PREFILL), len(ids)
    with open(ids_out, "w") as f:
        f.write(" ".join(map(str, ids)) + "\n")
    results = []

    def prefill(n):
        x = torch.tensor([ids[:n]])
        start = time.perf_counter()
        model(x, logits_to_keep=1, use_cache=False)
        return time.perf_counter() - start

    def decode():
        out = model(torch.tensor([ids[:512]]), logits_to_keep=1, use_cache=True)
        past, nxt = out.past_key_values, out.logits[0, -1].argmax()
        start = time.perf_counter()
        for _ in range(DECODE):
            out = model(nxt.view(1, 1), past_key_values=past, use_cache=True)
            past, nxt = out.past_key_values, out.logits[0, -1].argmax()
        return time.perf_counter() - start

    with torch.inference_mode():
        for n in PREFILL:
            s = best(runs, lambda: prefill(n))
            results.append({"what": "prefill", "tokens": n, "seconds": s, "tokens_per_s": n / s})
        s = best(runs, decode)
        results.append({"what": "decode", "tokens": DECODE, "seconds": s, "tokens_per_s": DECODE / s})
    with open(json_out, "w") as f:
        json.dump({"torch": torch.__version__, "transformers": transformers.__version__, "threads": threads,
                   "results": results}, f, indent=2)
        f.write("\n")
    for r in results:
        print("torch %s %d tokens: %.2f s, %.1f tokens/s" % (r["what"], r["tokens"], r["seconds"], r["tokens_per_s"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
