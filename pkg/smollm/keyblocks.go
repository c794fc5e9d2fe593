package smollm

// Attention in key blocks: the softmax over a chunk's cache slots computed
// a block of slots at a time, with a running maximum and a running sum
// rescaled as each block comes in ("online softmax": Milakov and
// Gimelshein 2018, "Online normalizer calculation for softmax",
// https://arxiv.org/abs/1805.02867; the same recurrence is the heart of
// FlashAttention, Dao et al. 2022, https://arxiv.org/abs/2205.14135).
//
// Why: a chunk of c queries reading n slots makes scores [b, k, g, c, n],
// the model's largest tensors (9·1,024·16,384 floats, 604 MB, a layer at
// 16k tokens in chunks of 1,024), and the mask, the maximum, the exp and
// the sum each pass over them through main memory. In blocks of B slots
// each pass covers 9·c·B floats and every block is consumed while it is
// fresh, the peak holds one block instead of the whole row, and the blocks
// before the chunk's first query, which every query reads, need no mask at
// all.
//
// The blocks are unrolled in the graph: the cache's size is fixed in each
// compiled graph, so their number is known as it is built. A graph.While
// over the blocks would compile one block instead of all, but go-xla
// v0.4.5 cannot build the block's maximum and sum inside a loop body
// ("cannot add operation Reduce because reductionFn is not a StableHLO
// closure of main").

import (
	"fmt"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
)

// DefaultKeyBlockSize is the most cache slots attention reads in one block
// by default (Model.KeyBlockSize), chosen by measurement on XLA's CPU
// plugin: a prefill of 8,192 tokens in chunks of 512 took 59.0 s in blocks
// of 512 and 63.1 s in blocks of 1,024 (74.8 s with the whole scores),
// side by side on a shared machine; an attention layer alone was fastest
// in blocks of 256 to 1,024 at chunks of 512 and 1,024.
const DefaultKeyBlockSize = 512

// wholeScores makes attention build the whole score tensor [b, k, g, c, n]
// in one piece, as before key blocks: the tests compare the two.
var wholeScores = false

// keyBlock is the cache slots lo … hi−1, read together; masked says some
// query of the chunk may not read some slot of it, so the mask applies.
type keyBlock struct {
	lo, hi int
	masked bool
}

// keyBlocks splits the slots a chunk of c queries reads, of n, into blocks
// of at most size, for a chunk whose first query sits in slot start. Under
// the causal mask (causal), every query reads every slot before start
// (those blocks need no mask) and none reads a slot from start+c on (those
// are left out), so only the blocks from start on are masked; the first of
// them starts at start, so that no block mixes the two. Under any other
// mask (padding, packing: experiments.go) every block of the n slots is
// masked.
func keyBlocks(n, c, start, size int, causal bool) []keyBlock {
	if !causal {
		return appendBlocks(nil, 0, n, size, true)
	}
	end := min(start+c, n)
	return appendBlocks(appendBlocks(nil, 0, start, size, false), start, end, size, true)
}

// appendBlocks appends the slots lo … hi−1 to blocks in blocks of at most
// size.
func appendBlocks(blocks []keyBlock, lo, hi, size int, masked bool) []keyBlock {
	for ; lo < hi; lo += size {
		blocks = append(blocks, keyBlock{lo: lo, hi: min(lo+size, hi), masked: masked})
	}
	return blocks
}

// checkKeyBlockSize reports a block size that cannot split the slots.
func checkKeyBlockSize(size int) error {
	if size < 1 {
		return fmt.Errorf("smollm: key block size %d, want at least 1 slot", size)
	}
	return nil
}

// keyBlockAttention returns softmax(q·kᵀ) v over the blocks of slots
// ([b, k, g, c, e]) for queries q [b, k, g, c, e], already scaled by 1/√e,
// keys and values [b, k, n, e], and mask [mb, c, n] (mb 1 or b: may query
// i read slot j), read only in the masked blocks.
//
// Each block j gives its scores s_j and their maximum m_j per query; the
// running maximum M = max(M, m_j) rescales what came before by
// exp(M_old − M), so that the sum Σ exp(s − M) and the output Σ exp(s − M)·v
// are as if every slot had been subtracted the same maximum, and one
// division at the end gives the softmax's weighted sum (Milakov and
// Gimelshein 2018, algorithm 3; Dao et al. 2022, algorithm 1). All in
// float32, as the whole-score route.
//
// Masked scores are the lowest finite float rather than −∞: a query may
// read no slot of a block (the chunk's first queries, in its last block),
// and −∞ − (−∞) would be NaN; the lowest float's exp against any score it
// reads later is 0, so it leaves no trace. (A query that reads no slot at
// all, which no caller asks, would get the mean of the values instead of
// the whole-score route's NaN.)
func keyBlockAttention(q, keys, values, mask *graph.Node, blocks []keyBlock) *graph.Node {
	b, k, g, c, e := q.Shape().Dim(0), q.Shape().Dim(1), q.Shape().Dim(2), q.Shape().Dim(3), q.Shape().Dim(4)
	dtype := q.DType()
	lowest := graph.Const(q.Graph(), dtype.LowestValue())
	st := softmaxState{
		top: graph.BroadcastToDims(lowest, b, k, g, c, 1),              // [b, k, g, c, 1]: no score yet
		sum: graph.Zeros(q.Graph(), shapes.Make(dtype, b, k, g, c, 1)), // [b, k, g, c, 1]
		acc: graph.Zeros(q.Graph(), shapes.Make(dtype, b, k, g, c, e)), // [b, k, g, c, e]
	}
	all := graph.AxisRange()
	for _, blk := range blocks {
		slots := graph.AxisRange(blk.lo, blk.hi)
		kb := graph.Slice(keys, all, all, slots, all)      // [b, k, B, e]
		vb := graph.Slice(values, all, all, slots, all)    // [b, k, B, e]
		scores := graph.Einsum("bkgce,bkne->bkgcn", q, kb) // [b, k, g, c, B]: q·k/√e
		if blk.masked {
			width := blk.hi - blk.lo
			allowed := graph.Slice(mask, all, all, slots)                                                                   // [mb, c, B]
			allowed = graph.BroadcastToDims(graph.Reshape(allowed, mask.Shape().Dim(0), 1, 1, c, width), b, k, g, c, width) // [b, k, g, c, B]
			scores = graph.Where(allowed, scores, lowest)                                                                   // [b, k, g, c, B]: lowest where not allowed
		}
		st = st.add(scores, vb)
	}
	return graph.Div(st.acc, st.sum) // [b, k, g, c, e]: the one division
}

// softmaxState is the online softmax's running maximum top, sum Σ exp(s −
// top) and output acc Σ exp(s − top)·v, per query.
type softmaxState struct {
	top, sum, acc *graph.Node // [b, k, g, c, 1], [b, k, g, c, 1], [b, k, g, c, e]
}

// add takes in one block's scores [b, k, g, c, B] and values [b, k, B, e].
func (st softmaxState) add(scores, values *graph.Node) softmaxState {
	blockTop := graph.StopGradient(graph.ReduceAndKeep(scores, graph.ReduceMax, -1))              // [b, k, g, c, 1]
	top := graph.Max(st.top, blockTop)                                                            // [b, k, g, c, 1]
	rescale := graph.Exp(graph.Sub(st.top, top))                                                  // [b, k, g, c, 1]: exp(M_old − M), ≤ 1
	exps := graph.Exp(graph.Sub(scores, top))                                                     // [b, k, g, c, B]: unnormalised weights
	sum := graph.Add(graph.Mul(st.sum, rescale), graph.ReduceAndKeep(exps, graph.ReduceSum, -1))  // [b, k, g, c, 1]
	acc := graph.Add(graph.Mul(st.acc, rescale), graph.Einsum("bkgcn,bkne->bkgce", exps, values)) // [b, k, g, c, e]
	return softmaxState{top: top, sum: sum, acc: acc}
}
