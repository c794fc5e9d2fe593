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
// Under the causal mask the chunk's own slots, from its first query's on,
// are a triangle: query i reads slots start … start+i. Read as one block by
// every query, half of that square is computed and then masked away. So
// the chunk's queries are split into parts (diagonalParts), each reading
// the chunk's slots only up to its last query; m parts compute (m+1)/2m of
// the square, 5/8 for 4. The slots before start, which every query reads
// whole, are still read by all the chunk's queries at once, so the split
// costs a slice of the running softmax per part and one concatenation.
// Measured on XLA's CPU plugin (2-core Intel Xeon, idle, 5 pairs of
// processes alternating, together with the last layer on the asked rows):
// a prefill of 2,048 tokens in chunks of 512 ran a median 1.01× faster,
// 512 tokens 1.07× (docs/performance.md).
//
// Where the backend runs cpuattention's kernel (XLA's CPU plugin on a CPU
// with AVX-512), attention is the kernel's instead, and none of this is
// built; key blocks are the route everywhere else.
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

// maxDiagonalParts is the most parts the chunk's queries are split into
// for the causal diagonal, and minPartRows the fewest queries a part has:
// a chunk of fewer than 2·minPartRows queries is not split.
const maxDiagonalParts = 4

var minPartRows = 64 // a variable: the tests split small chunks

// queryPart is the chunk's queries lo … hi−1 and the blocks of the
// chunk's own slots they read.
type queryPart struct {
	lo, hi int
	blocks []keyBlock
}

// diagonalParts splits a chunk of c queries, whose first sits in slot
// start of n, into parts for the causal diagonal: part [lo, hi) reads the
// slots start … start+hi−1, in blocks of at most size; a block is masked
// when its last slot is past the part's first query, start+lo. Nil when
// the chunk is too small to split.
func diagonalParts(n, c, start, size int) []queryPart {
	m := min(maxDiagonalParts, c/minPartRows)
	if m < 2 {
		return nil
	}
	rows := (c + m - 1) / m
	var parts []queryPart
	for lo := 0; lo < c; lo += rows {
		hi := min(lo+rows, c)
		var blocks []keyBlock
		for first, end := start, min(start+hi, n); first < end; first += size {
			last := min(first+size, end)
			blocks = append(blocks, keyBlock{lo: first, hi: last, masked: last > start+lo+1})
		}
		parts = append(parts, queryPart{lo: lo, hi: hi, blocks: blocks})
	}
	return parts
}

// attentionPlan returns the blocks that every query of a chunk reads
// (shared) and, under the causal mask when the chunk is large enough, the
// parts that read the chunk's own slots; parts nil: the shared blocks are
// all (keyBlocks).
func attentionPlan(n, c, start, size int, causal bool) (shared []keyBlock, parts []queryPart) {
	if causal {
		if parts = diagonalParts(n, c, start, size); parts != nil {
			return appendBlocks(nil, 0, start, size, false), parts
		}
	}
	return keyBlocks(n, c, start, size, causal), nil
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
// i read slot j), read only in the masked blocks: every query reads the
// shared blocks, then each part's queries its own blocks (attentionPlan).
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
func keyBlockAttention(q, keys, values, mask *graph.Node, shared []keyBlock, parts []queryPart) *graph.Node {
	b, k, g, c, e := q.Shape().Dim(0), q.Shape().Dim(1), q.Shape().Dim(2), q.Shape().Dim(3), q.Shape().Dim(4)
	dtype := q.DType()
	st := softmaxState{
		top: graph.BroadcastToDims(graph.Const(q.Graph(), dtype.LowestValue()), b, k, g, c, 1), // [b, k, g, c, 1]: no score yet
		sum: graph.Zeros(q.Graph(), shapes.Make(dtype, b, k, g, c, 1)),                         // [b, k, g, c, 1]
		acc: graph.Zeros(q.Graph(), shapes.Make(dtype, b, k, g, c, e)),                         // [b, k, g, c, e]
	}
	for _, blk := range shared {
		st = st.addBlock(q, keys, values, mask, blk)
	}
	if parts == nil {
		return graph.Div(st.acc, st.sum) // [b, k, g, c, e]: the one division
	}
	all := graph.AxisRange()
	outs := make([]*graph.Node, len(parts))
	for i, p := range parts {
		rows := graph.AxisRange(p.lo, p.hi)
		part := softmaxState{
			top: graph.Slice(st.top, all, all, all, rows, all), // [b, k, g, p, 1]
			sum: graph.Slice(st.sum, all, all, all, rows, all), // [b, k, g, p, 1]
			acc: graph.Slice(st.acc, all, all, all, rows, all), // [b, k, g, p, e]
		}
		qp := graph.Slice(q, all, all, all, rows, all) // [b, k, g, p, e]
		mp := graph.Slice(mask, all, rows, all)        // [mb, p, n]
		for _, blk := range p.blocks {
			part = part.addBlock(qp, keys, values, mp, blk)
		}
		outs[i] = graph.Div(part.acc, part.sum) // [b, k, g, p, e]
	}
	return graph.Concatenate(outs, 3) // [b, k, g, c, e]
}

// softmaxState is the online softmax's running maximum top, sum Σ exp(s −
// top) and output acc Σ exp(s − top)·v, per query.
type softmaxState struct {
	top, sum, acc *graph.Node // [b, k, g, c, 1], [b, k, g, c, 1], [b, k, g, c, e]
}

// addBlock takes in the slots of blk for queries q [b, k, g, c, e], from
// keys and values [b, k, n, e], masked by mask [mb, c, n] if blk is.
func (st softmaxState) addBlock(q, keys, values, mask *graph.Node, blk keyBlock) softmaxState {
	b, k, g, c := q.Shape().Dim(0), q.Shape().Dim(1), q.Shape().Dim(2), q.Shape().Dim(3)
	all, slots := graph.AxisRange(), graph.AxisRange(blk.lo, blk.hi)
	kb := graph.Slice(keys, all, all, slots, all)      // [b, k, B, e]
	vb := graph.Slice(values, all, all, slots, all)    // [b, k, B, e]
	scores := graph.Einsum("bkgce,bkne->bkgcn", q, kb) // [b, k, g, c, B]: q·k/√e
	if blk.masked {
		width := blk.hi - blk.lo
		allowed := graph.Slice(mask, all, all, slots)                                                                   // [mb, c, B]
		allowed = graph.BroadcastToDims(graph.Reshape(allowed, mask.Shape().Dim(0), 1, 1, c, width), b, k, g, c, width) // [b, k, g, c, B]
		scores = graph.Where(allowed, scores, graph.Const(q.Graph(), q.DType().LowestValue()))                          // [b, k, g, c, B]: lowest where not allowed
	}
	return st.add(scores, vb)
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
