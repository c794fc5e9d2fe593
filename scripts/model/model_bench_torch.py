"""The PyTorch side of cmd/model-bench: Hugging Face transformers'
LlamaForCausalLM on the same GGUF file as GoMLX (gguf_file=, dequantized to
float32 by the GGML project's gguf package), float32 on the CPU, with the
attention transformers picks by default (scaled_dot_product_attention),
timed on the token ids cmd/model-bench gives both sides.

Tasks, as cmd/model-bench names them:
  prefill:N    the first N ids from position 0 into an empty key/value
               cache, logits of the last row only (logits_to_keep=1), as
               GoMLX computes them; tokens/s = N / seconds.
  decode:D@P   after a prefill of P ids (not timed), D more ids one at a
               time, each reading and extending the cache (transformers'
               DynamicCache, passed as cache=),
               logits of that one row; tokens/s = D / seconds. The ids are
               the text's, not the model's choices, so both sides run the
               same ones.
  memory:N     prefill:N once, with no run before it: its time and the
               process's peak resident memory during it.

Every task but memory runs once untimed, then --repeat times timed. Before
each task the peak resident memory is reset (/proc/self/clear_refs) and
read after it (VmHWM): the peak during that task, the weights included.

Usage: python model_bench_torch.py --model FILE.gguf --ids IDS.json --tasks
       prefill:512,decode:64@512 [--repeat 3] [--threads N]
Prints one JSON object on stdout; progress on stderr.
"""

import argparse
import json
import os
import platform
import sys
import time


def log(*a):
    print("torch:", *a, file=sys.stderr, flush=True)


def reset_peak():
    """Resets VmHWM to the current resident size; False where Linux does not allow it."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_mib():
    """VmHWM of /proc/self/status in MiB (the process's peak; 0 where unknown)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def parse_task(spec):
    kind, _, arg = spec.partition(":")
    if kind in ("prefill", "memory"):
        return kind, int(arg), 0
    if kind == "decode":
        d, _, p = arg.partition("@")
        return kind, int(p), int(d)
    raise SystemExit("model_bench_torch.py: unknown task %r (want prefill:N, decode:D@P or memory:N)" % spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--ids", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()

    import torch
    import transformers
    from transformers import AutoModelForCausalLM

    transformers.utils.logging.disable_progress_bar()
    torch.set_num_threads(a.threads)
    tasks = [parse_task(s) for s in a.tasks.split(",") if s]
    with open(a.ids) as f:
        ids = json.load(f)
    start = time.perf_counter()
    folder, name = os.path.split(os.path.abspath(a.model))
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    model.eval()
    load_s = time.perf_counter() - start
    attn = getattr(model.config, "_attn_implementation", "?")
    log("loaded in %.1f s, attention %s, %d threads" % (load_s, attn, torch.get_num_threads()))

    def prefill(n):
        x = torch.tensor([ids[:n]])
        t = time.perf_counter()
        out = model(input_ids=x, use_cache=True, logits_to_keep=1)
        out.logits[0, -1].numpy()
        return time.perf_counter() - t, out.cache

    def decode(p, d):
        _, cache = prefill(p)
        t = time.perf_counter()
        for i in range(p, p + d):
            out = model(input_ids=torch.tensor([[ids[i]]]), cache=cache, use_cache=True, logits_to_keep=1)
            cache = out.cache
            out.logits[0, -1].numpy()
        return time.perf_counter() - t

    results = []
    with torch.inference_mode():
        for (kind, p, d), spec in zip(tasks, a.tasks.split(",")):
            if max(p + d, p) > len(ids):
                raise SystemExit("model_bench_torch.py: task %s needs %d ids, %s has %d" % (spec, p + d, a.ids, len(ids)))
            run = (lambda: decode(p, d)) if kind == "decode" else (lambda: prefill(p)[0])
            exact = reset_peak()
            warm = None
            if kind != "memory":
                warm = run()
            times = [run() for _ in range(1 if kind == "memory" else a.repeat)]
            results.append({"task": spec, "seconds": times, "warmup_seconds": warm,
                            "peak_rss_mib": peak_mib(), "peak_is_task": exact})
            log("%-14s %s s" % (spec, " ".join("%.3f" % s for s in times)))
    print(json.dumps({
        "side": "torch",
        "description": "transformers %s, torch %s (%s), %s attention, float32, %d threads, OMP_WAIT_POLICY %s, %s" % (
            transformers.__version__, torch.__version__, torch.backends.cpu.get_cpu_capability(), attn,
            torch.get_num_threads(), os.environ.get("OMP_WAIT_POLICY", "unset"), platform.machine()),
        "load_seconds": load_s,
        "tasks": results,
    }))


if __name__ == "__main__":
    main()
