"""PyTorch's matrix products on SmolLM2-135M's prefill shapes.

The twin of pkg/smollm's BenchmarkDenseLayers: 30 layers of RMSNorm, the
query, key and value projections, the output projection (reading the queries
plus the keys and values repeated, attention's stand-in), RMSNorm and SwiGLU,
the residual carried from layer to layer, random weights of the model's
shapes, float32, 2 threads, the best of REPS runs after 2 untimed ones.
scripts/model/parts-bench.sh dense runs it beside GoMLX on XLA.

Usage: dense_torch.py [TOKENS 128] [REPS 10]
"""
import sys, time, torch
import torch.nn.functional as F
torch.set_num_threads(2)
c = int(sys.argv[1]) if len(sys.argv) > 1 else 128
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
layers, d, f, q, kv = 30, 576, 1536, 576, 192
g = torch.Generator().manual_seed(1)
rand = lambda scale, *dims: (torch.rand(*dims, generator=g) - 0.5) * scale
x0 = rand(1, 1, c, d)
ws = [[rand(0.05, *s) for s in [(q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]] for _ in range(layers)]


def rms(x):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)


def run():
    x = x0
    for w in ws:
        h = rms(x)
        qs, ks, vs = F.linear(h, w[0]), F.linear(h, w[1]), F.linear(h, w[2])
        x = x + F.linear(qs + torch.cat([ks, vs, ks], -1), w[3])
        h = rms(x)
        x = x + F.linear(F.silu(F.linear(h, w[4])) * F.linear(h, w[5]), w[6])
    return x.sum()


with torch.inference_mode():
    run(), run()
    best = 1e9
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
print(f"torch {torch.__version__}: {c} tokens, {layers} layers, 2 threads: best of {reps}: {best:.4f} s")
