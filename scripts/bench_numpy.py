#!/usr/bin/python3
"""The textbook numpy code that pkg/posenc is measured against (make bench).

Each kernel is written the way the course's lessons and most tutorials write
it, in float32 throughout, as a learner would run it:

  sinusoidal_pe    the sinusoidal table of Vaswani et al. 2017, section 3.5:
                   angles = pos / 10000^(2i/d), sin on even and cos on odd
                   columns.
  apply_rope       interleaved RoPE (RoFormer, Meta's Llama): split even and
                   odd dimensions, rotate, interleave back. cos and sin are
                   precomputed outside the timing, as posenc's RoPECache is.
  apply_rope_half  the rotate_half form (GPT-NeoX, Hugging Face):
                   x·cos + rotate_half(x)·sin, cos and sin repeated over both
                   halves, precomputed outside the timing.
  alibi_bias       −m_h·|i − j| for every head, query and key.

Usage: bench_numpy.py [--repeat N] [--kernels a,b,...] [--precision]
Prints one JSON object: for each kernel the seconds of each repetition.
With --precision it prints instead the largest error of the float32
textbook table near position 1,000,000 against a float64 reference.
"""

import argparse
import json
import sys
import time

import numpy as np

# Sizes: those of pkg/posenc/bench_test.go.
TABLE_LEN, TABLE_DIM = 8192, 1024
BATCH, HEADS, SEQ, HEAD_DIM = 4, 32, 4096, 128
ALIBI_HEADS, ALIBI_LEN = 32, 4096


def sinusoidal_pe(n, d, start=0, dtype=np.float32):
    """The [n, d] textbook table for positions start, ..., start+n-1."""
    pos = np.arange(start, start + n, dtype=dtype)[:, None]   # (n, 1)
    two_i = np.arange(0, d, 2, dtype=dtype)[None, :]          # (1, d/2)
    angles = pos / dtype(10000) ** (two_i / dtype(d))         # (n, d/2)
    pe = np.empty((n, d), dtype=dtype)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def rope_tables(seq, head_dim, base=10000.0):
    """cos and sin of m·θ_i, [seq, head_dim/2], float32 (from float64)."""
    theta = base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    angles = np.arange(seq, dtype=np.float64)[:, None] * theta[None, :]
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def apply_rope(x, cos, sin):
    """Interleaved RoPE of x [..., seq, d] with cos, sin [seq, d/2]."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin
    out[..., 1::2] = x1 * sin + x2 * cos
    return out


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def apply_rope_half(x, cos_full, sin_full):
    """Halves RoPE: cos_full, sin_full are [seq, d], each half repeated."""
    return x * cos_full + rotate_half(x) * sin_full


def alibi_slopes(heads):
    # Power-of-two head counts only (what the benchmark uses).
    return np.array([2.0 ** (-8.0 * (k + 1) / heads) for k in range(heads)], dtype=np.float32)


def alibi_bias(slopes, n):
    i = np.arange(n, dtype=np.float32)
    dist = np.abs(i[:, None] - i[None, :])                    # (n, n)
    return -slopes[:, None, None] * dist[None, :, :]          # (heads, n, n)


def precision():
    """Largest |float32 textbook − float64 reference| up to 1,000,000."""
    n, d = 64, TABLE_DIM
    start = 1_000_000 - n + 1
    got = sinusoidal_pe(n, d, start, np.float32).astype(np.float64)
    pos = np.arange(start, start + n, dtype=np.float64)[:, None]
    w = np.exp(-np.arange(0, d, 2, dtype=np.float64) / d * np.log(10000.0))
    ref = np.empty((n, d))
    ref[:, 0::2] = np.sin(pos * w)
    ref[:, 1::2] = np.cos(pos * w)
    err = np.abs(got - ref)
    worst = np.unravel_index(np.argmax(err), err.shape)
    return {"max_abs_error": float(err.max()), "position": int(start + worst[0]),
            "column": int(worst[1]), "at_1000000": float(err[-1].max())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--kernels", default="sinusoidal,rope_interleaved,rope_half,alibi")
    ap.add_argument("--precision", action="store_true")
    args = ap.parse_args()
    if args.precision:
        json.dump(precision(), sys.stdout)
        print()
        return

    rng = np.random.default_rng(0)
    x = (rng.random((BATCH, HEADS, SEQ, HEAD_DIM), dtype=np.float32) - 0.5)
    cos, sin = rope_tables(SEQ, HEAD_DIM)
    cos_full, sin_full = np.concatenate([cos, cos], -1), np.concatenate([sin, sin], -1)
    slopes = alibi_slopes(ALIBI_HEADS)
    kernels = {
        "sinusoidal": lambda: sinusoidal_pe(TABLE_LEN, TABLE_DIM),
        "rope_interleaved": lambda: apply_rope(x, cos, sin),
        "rope_half": lambda: apply_rope_half(x, cos_full, sin_full),
        "alibi": lambda: alibi_bias(slopes, ALIBI_LEN),
    }
    out = {"numpy": np.__version__, "seconds": {}}
    for name in args.kernels.split(","):
        fn = kernels[name]
        fn()  # warm up: page in the inputs and numpy's code paths
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        out["seconds"][name] = times
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
