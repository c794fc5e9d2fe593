"""The lab's model in PyTorch, for make bench: training tokens per second.

The same decoder-only Transformer as pkg/lab (Model.Logits): token
embeddings, pre-norm blocks of causal multi-head self-attention with RoPE
(halves layout, base 10000) and a ReLU feed-forward layer of width 4·d, a
final layer norm and a linear read-out; the sparse cross-entropy loss; Adam.
It trains on random tokens (the data does not change the speed) and prints
one JSON line: {"tokens_per_second": …, "steps": …, "seconds": …, …}.

    python3 scripts/lab_torch.py --layers 2 --dim 32 --heads 4 --seq 64 --batch 32 --steps 100
"""
import argparse
import json
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 116  # lab.VocabSize


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.ffn_in, self.ffn_out = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x, cos, sin, mask):
        b, s, d = x.shape
        h = self.norm1(x)
        split = lambda t: t.view(b, s, self.heads, self.hd).transpose(1, 2)  # [b, heads, s, hd]
        q, k, v = split(self.q(h)), split(self.k(h)), split(self.v(h))
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.hd) + mask  # [b, heads, s, s]
        att = torch.softmax(scores, dim=-1) @ v  # [b, heads, s, hd]
        x = x + self.o(att.transpose(1, 2).reshape(b, s, d))
        return x + self.ffn_out(F.relu(self.ffn_in(self.norm2(x))))


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    swapped = torch.cat((-x[..., half:], x[..., :half]), dim=-1)  # rotate_half
    return x * cos + swapped * sin


class Model(nn.Module):
    def __init__(self, layers, dim, heads):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, VOCAB)
        self.hd = dim // heads

    def forward(self, tokens):
        s = tokens.shape[1]
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2, dtype=torch.float64) / self.hd))
        ang = torch.arange(s, dtype=torch.float64)[:, None] * inv[None, :]
        ang = torch.cat((ang, ang), dim=-1)
        cos, sin = ang.cos().float(), ang.sin().float()  # [s, hd]
        mask = torch.full((s, s), float("-inf")).triu(1)
        x = self.emb(tokens)
        for blk in self.blocks:
            x = blk(x, cos, sin, mask)
        return self.out(self.norm(x))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--dim", type=int, default=32)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--warmup", type=int, default=5)
    a = p.parse_args()
    torch.manual_seed(1)
    model = Model(a.layers, a.dim, a.heads)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    data = torch.randint(0, VOCAB, (a.batch, a.seq + 1))

    def step():
        opt.zero_grad()
        logits = model(data[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), data[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(a.warmup):
        step()
    start = time.perf_counter()
    for _ in range(a.steps):
        step()
    seconds = time.perf_counter() - start
    print(json.dumps({
        "tokens_per_second": a.steps * a.batch * a.seq / seconds,
        "steps": a.steps, "seconds": seconds,
        "torch": torch.__version__, "threads": torch.get_num_threads(),
        "blas": torch.__config__.show().count("BLAS"),
    }))


if __name__ == "__main__":
    main()
