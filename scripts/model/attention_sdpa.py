"""PyTorch's CPU attention on SmolLM2-135M's prefill shapes.

Times torch.nn.functional.scaled_dot_product_attention (its flash kernel on
the CPU) over LAYERS layers of causal attention on TOKENS tokens, 9 query
heads and 3 key/value heads of dimension 64, float32, 2 threads, the best of
5: once with the keys repeated to 9 heads, as transformers' repeat_kv does,
once with enable_gqa. scripts/model/parts-bench.sh attention runs it beside the C
kernel and XLA's attention.

Usage: attention_sdpa.py [TOKENS 2048] [LAYERS 30]
"""
import sys, time, torch
import torch.nn.functional as F
torch.set_num_threads(2)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
layers = int(sys.argv[2]) if len(sys.argv) > 2 else 30
reps = 5
g = torch.Generator().manual_seed(1)
q = (torch.rand(1, 9, n, 64, generator=g) - 0.5) * 0.5
k = (torch.rand(1, 3, n, 64, generator=g) - 0.5) * 4
v = torch.rand(1, 3, n, 64, generator=g) - 0.5
flops = 4.0 * 64 * 9 * (n * (n + 1) / 2) * layers
for name, fn in [
    ("sdpa, keys repeated to 9 heads (transformers' repeat_kv)", lambda: F.scaled_dot_product_attention(q, k.repeat_interleave(3, 1), v.repeat_interleave(3, 1), is_causal=True, scale=1.0)),
    ("sdpa, enable_gqa", lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0, enable_gqa=True)),
]:
    with torch.no_grad():
        fn()
        best = 1e9
        for _ in range(reps):
            t0 = time.perf_counter()
            for _ in range(layers):
                fn()
            best = min(best, time.perf_counter() - t0)
    print(f"torch {torch.__version__} {name}: {n} tokens, {layers} layers, 2 threads: best {best:.3f} s, {flops/best/1e9:.0f} GFLOP/s (causal pairs)")
