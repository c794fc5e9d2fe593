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

// BenchCost is the cost on this project's machine (2 cores of an Intel
// Xeon, XLA CPU, float32, the engine with cpuattention's kernel) fitted to
// cmd/model-bench's committed XLA rows (commit df74c12, idle): prefill 512
// in 0.507 s and 2,048 in 2.526 s in chunks of 512, each the median of its
// 15 runs, not the minimum, as a long run goes at the machine's usual speed
// rather than its best. Their chunks read the slots up to their last query
// (forwardWork: 262,144 and 2,621,440 pairs), which gives 0.827 ms a token
// and 0.318 µs a pair. A head row (49,152 × 576 multiply-adds) is counted
// at the token's rate of multiply-adds (106 million a token, over the 30
// layers' seven matrices): 0.221 ms. The whole grid then comes to about an
// hour; the committed runs took 64 and 65 min (TestEstimateMatchesCommittedRun).
var BenchCost = Cost{PerToken: perToken, PerPair: 0.318e-6, PerHeadRow: perToken * headRowMACs / tokenMACs}

const (
	perToken    = 0.827e-3
	tokenMACs   = 30 * (576*(576+192+192+576) + 3*576*1536) // the 30 layers' q, k, v, o, gate, up and down
	headRowMACs = 49152 * 576
)

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
