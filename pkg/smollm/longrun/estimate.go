package longrun

import "time"

// Work is what a run asks of the model, in the three quantities its time
// follows: tokens through the 30 layers' matrices, attention pairs (a
// query and a cache slot it reads, over every layer and head) and rows
// through the output head (the NLL cells score every row).
type Work struct {
	Tokens, Pairs, HeadRows float64
}

// Cost is the seconds each unit of Work takes.
type Cost struct {
	PerToken, PerPair, PerHeadRow float64
}

// BenchCost is the cost on this project's machine (2 cores of an AMD
// EPYC, XLA CPU, float32) fitted to cmd/model-bench's committed XLA rows,
// prefill 512 in 1.43 s and 2,048 in 11.5 s with the engine of then, whose
// chunks read the whole capacity (262,144 and 4,194,304 pairs): 1.85 ms a
// token and 1.85 µs a pair. That run shared the cores (load 2.5–4.5), so an
// idle machine is faster. A head row (49,152 × 576 multiply-adds) is
// counted at the token's rate of multiply-adds, 0.5 ms.
//
// Attention in key blocks (smollm's keyblocks.go) then made a pair cheaper
// by the factor keyBlockPairFactor, measured apart from the fit; the
// token's and the head row's costs are as fitted.
var BenchCost = Cost{PerToken: 1.85e-3, PerPair: 1.85e-6 * keyBlockPairFactor, PerHeadRow: 0.5e-3}

// keyBlockPairFactor is a pair's cost in key blocks of 512 over its cost
// with the whole score tensor: cmd/model-bench --worker built from both
// engines and run alternately on XLA CPU, prefill 8,192 tokens in chunks
// of 512 (35.7 million pairs), 4 timed runs a side in 2 processes each,
// minimum against minimum: 74.8 s and 59.0 s. With the token's cost the
// same on both (2.33 ms, fitted to the whole-score engine's 8.87 s at
// 2,048 tokens and its 74.8 s at 8,192), a pair took 1.56 µs and 1.12 µs.
// The machine was shared then (another job training on both cores, load
// 5–8), so only the ratio is used. At 2,048 tokens, where a chunk reads
// at most 4 blocks, the gain was within the noise (8.87 s and 8.31 s).
const keyBlockPairFactor = 0.72

// Duration is w's time at cost c.
func (w Work) Duration(c Cost) time.Duration {
	s := w.Tokens*c.PerToken + w.Pairs*c.PerPair + w.HeadRows*c.PerHeadRow
	return time.Duration(s * float64(time.Second))
}

// Add returns w + v.
func (w Work) Add(v Work) Work {
	return Work{w.Tokens + v.Tokens, w.Pairs + v.Pairs, w.HeadRows + v.HeadRows}
}

// forwardWork is the work of running positions from … to−1 after from
// cached ones, in chunks of chunk: each chunk reads the slots up to its
// last query's (the cache holds more, rounded up to a chunk, but attention
// in key blocks leaves out the slots after the chunk's last query).
func forwardWork(from, to, chunk int) Work {
	var w Work
	for lo := from; lo < to; lo += chunk {
		hi := min(lo+chunk, to)
		w.Tokens += float64(hi - lo)
		w.Pairs += float64(hi-lo) * float64(hi)
	}
	return w
}

// nllWork is the work of one text's window under one method.
func (c Config) nllWork() Work {
	w := forwardWork(0, c.Window, c.ChunkSize)
	w.HeadRows = float64(c.Window)
	return w
}

// needle is about where a passkey prompt of length n puts its needle at
// depth d (NewPasskeyPrompt: to within a filler sentence).
func needle(n int, d float64) int { return int(d * float64(n)) }

// Work returns the work of every cell of c: each text's window under each
// method, and each passkey cell's shared part before the needle once, then
// each trial from the needle on.
func (c Config) Work() Work {
	var w Work
	for range Methods(c.Factor, c.OriginalLen) {
		for range c.Texts {
			w = w.Add(c.nllWork())
		}
	}
	for _, n := range c.PasskeyLengths {
		for range c.passkeyMethods(n) {
			for _, d := range c.PasskeyDepths {
				w = w.Add(forwardWork(0, needle(n, d), c.ChunkSize))
				for range c.trials(n) {
					w = w.Add(forwardWork(needle(n, d), n, c.ChunkSize))
				}
			}
		}
	}
	return w
}
