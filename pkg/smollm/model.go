package smollm

// The network of SmolLM2-135M, a Llama decoder (Touvron et al. 2023,
// "LLaMA", https://arxiv.org/abs/2302.13971), as GoMLX graph code: token
// embeddings; 30 pre-norm blocks of RMSNorm, grouped-query self-attention
// with RoPE on queries and keys, RMSNorm and a SwiGLU feed-forward layer;
// a last RMSNorm; the embedding matrix again as the output head. It is
// lesson 4's attention with a trained model's weights, and the rotation is
// the course's own (posgraph.RoPEEncoder), so any posenc.RoPE applies: a
// scaling, the other layout, positions shifted.
//
// The reference is Hugging Face transformers' modeling_llama.py
// (LlamaRMSNorm, LlamaMLP, LlamaAttention, eager_attention_forward), which
// the golden logits come from (scripts/model/golden_logits.py).
//
// Legend of dimensions, used in the shape comments:
//
//	b  batch: sequences run side by side
//	c  chunk: the query positions of one call (Model.ChunkSize at most)
//	n  the cache's capacity: key/value slots for every position seen so far
//	r  the rows whose logits were asked for
//	d  model width, 576
//	h  query heads, 9           k  key/value heads, 3
//	g  query heads per key/value head, h/k = 3 (grouped-query attention)
//	e  head dimension, 64       f  feed-forward width, 1,536
//	v  vocabulary, 49,152       L  layers, 30

import (
	"math"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/cpuattention"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// network builds the graph of one call: a chunk of tokens in, their keys
// and values appended to the cache, logits and losses out.
type network struct {
	Config
	rope posenc.RoPE
	// observe, when set, is called once per layer, in order, with the
	// rotated queries [b, h, c, e], the chunk's rotated keys [b, k, c, e]
	// and the attention weights [b, k, g, c, n]: the hook of the lesson's
	// probes (experiments.go). Nil in the model's own calls. An observed
	// call takes the whole-score route, which has the weights to hand.
	observe func(q, k, weights *graph.Node)
	// precision, when set, rounds each step of the rotation as it says
	// (precision.go); nil: posgraph's rotation, as the model runs.
	precision *posenc.RoPEPrecision
	// vectors, when set, are RoPE's per-dimension vectors as inputs of the
	// graph (Model.WithScaling); nil: constants of rope's scaling.
	vectors *ropeInputs
	// keyBlock is the most cache slots attention reads in one block
	// (keyBlockAttention); 0: every slot at once (the whole-score route).
	keyBlock int
	// rotation is the call's RoPE tables, shared by its layers (rotate);
	// forward sets it.
	rotation *sharedRotation
	// start is the cache slot of the chunk's first query when it is known
	// as the graph is built, −1 when it is known only at run time (the
	// start input): key blocks need it to tell which blocks need no mask
	// and which no query reads.
	start int
}

// rotate rotates x [b, n, c, e] (queries or keys of n heads) at positions
// [b, c]. Every layer's queries and keys share one rotation, whose cosines
// and sines are computed once per call (posgraph.RoPERotation), not once
// per head and layer.
func (m network) rotate(x, positions *graph.Node) *graph.Node {
	if m.precision != nil {
		return roundedRotation(x, positions, m.rope, *m.precision) // [b, n, c, e]
	}
	if m.rotation.r == nil {
		enc := posgraph.NewRoPEEncoder(m.rope)
		if v := m.vectors; v != nil {
			m.rotation.r = enc.RotationWith(x, positions, -2, v.freq, v.amp, v.sign)
		} else {
			m.rotation.r = enc.Rotation(x, positions, -2)
		}
	}
	return m.rotation.r.Apply(x) // [b, n, c, e]
}

// sharedRotation holds the rotation of one call, built by the first
// rotate and applied by every later one.
type sharedRotation struct{ r *posgraph.RoPERotation }

// ropeInputs are RoPE's frequency, amplitude and signed amplitude, each
// [e] float64, as inputs of a call (posgraph.RoPEVectors).
type ropeInputs struct{ freq, amp, sign *graph.Node }

// stepIn are the inputs of one call.
type stepIn struct {
	tokens    *graph.Node   // [b, c] int32
	positions *graph.Node   // [b, c] int32: the position ids RoPE rotates by
	start     *graph.Node   // scalar int32: cache slot of the chunk's first token
	rows      *graph.Node   // [b, r] int32: chunk rows whose logits to return; nil: none
	targets   *graph.Node   // [b, c] int32: the next tokens, −1 for none; nil: no losses
	mask      *graph.Node   // [b, c, n] bool: which slots each query reads; nil: causal (causalMask)
	cacheK    []*graph.Node // L × [b, k, n, e]: rotated keys of earlier positions
	cacheV    []*graph.Node // L × [b, k, n, e]: their values
}

// stepOut are the outputs of one call.
type stepOut struct {
	logits *graph.Node   // [b, r, v], when rows were given
	nll    *graph.Node   // [b, c]: −log p(target), 0 where the target is −1
	cacheK []*graph.Node // L × [b, k, n, e]: the chunk's keys written at start
	cacheV []*graph.Node // L × [b, k, n, e]
}

// forward is the model.
func (m network) forward(scope *model.Scope, in stepIn) stepOut {
	m.rotation = &sharedRotation{}
	embed := weight(scope, in.tokens, "embed")                // [v, d]
	x := graph.Gather(embed, graph.ExpandAxes(in.tokens, -1)) // [b, c, d]
	mask := in.mask                                           // [b, c, n]: may query i read slot j
	c := in.tokens.Shape().Dim(1)
	if mask == nil {
		n := in.cacheK[0].Shape().Dim(2)
		mask = graph.Reshape(causalMask(in.start, c, in.cacheK), 1, c, n) // [1, c, n]
	}
	out := stepOut{}
	for i := range m.Layers {
		layer := scope.In("layer_%02d", i)
		h := m.rmsNorm(x, weight(layer, x, "attn_norm")) // [b, c, d]
		if i == m.Layers-1 && in.rows == nil && in.targets == nil {
			// Only the caches are asked for: the last layer's queries,
			// output and feed-forward would be dead code, and the pure-Go
			// backend fails on a graph whose parameters (their weights)
			// no output uses.
			_, k, v := m.keysValues(layer, h, in.positions, in.start, in.cacheK[i], in.cacheV[i]) // [b, k, n, e] ×2
			out.cacheK, out.cacheV = append(out.cacheK, k), append(out.cacheV, v)
			return out
		}
		if i == m.Layers-1 && in.targets == nil && m.observe == nil && in.rows != nil && in.rows.Shape().Dim(1) < c/2 && !allLastRows {
			// Only a few rows' logits are asked for (the last, in a
			// prefill): past the keys and values, which the cache keeps
			// for every row, the last layer's attention, output and
			// feed-forward matter only for those rows.
			att, k, v := m.attentionAt(layer, h, in.positions, in.start, mask, in.rows, in.cacheK[i], in.cacheV[i]) // [b, r, d]
			out.cacheK, out.cacheV = append(out.cacheK, k), append(out.cacheV, v)
			x = graph.Add(gatherRows(x, in.rows), att)     // [b, r, d]: residual
			h = m.rmsNorm(x, weight(layer, x, "ffn_norm")) // [b, r, d]
			x = graph.Add(x, m.swiGLU(layer, h))           // [b, r, d]
			x = m.rmsNorm(x, weight(scope, x, "out_norm")) // [b, r, d]
			out.logits = linear(x, embed)                  // [b, r, v]
			return out
		}
		att, k, v := m.attention(layer, h, in.positions, in.start, mask, in.mask == nil, in.cacheK[i], in.cacheV[i]) // [b, c, d]
		out.cacheK, out.cacheV = append(out.cacheK, k), append(out.cacheV, v)
		x = graph.Add(x, att)                          // [b, c, d]: residual
		h = m.rmsNorm(x, weight(layer, x, "ffn_norm")) // [b, c, d]
		x = graph.Add(x, m.swiGLU(layer, h))           // [b, c, d]: residual
	}
	x = m.rmsNorm(x, weight(scope, x, "out_norm")) // [b, c, d]

	// The head is the embedding matrix (tied): logit of token t = x·embed[t].
	if in.rows != nil {
		out.logits = linear(gatherRows(x, in.rows), embed) // [b, r, v]
	}
	if in.targets != nil {
		out.nll = nll(linear(x, embed), in.targets) // [b, c]
	}
	return out
}

// keysValues returns the chunk's rotated keys kNew [b, k, c, e], and the
// caches with its keys and values written at slot start ([b, k, n, e]).
func (m network) keysValues(scope *model.Scope, x, positions, start, cacheK, cacheV *graph.Node) (kNew, keys, values *graph.Node) {
	k, e := m.KVHeads, m.HeadDim
	kNew = m.rotate(splitHeads(linear(x, weight(scope, x, "attn_k")), k, e), positions) // [b, k, c, e]
	vNew := splitHeads(linear(x, weight(scope, x, "attn_v")), k, e)                     // [b, k, c, e]
	return kNew, writeSlots(cacheK, kNew, start), writeSlots(cacheV, vNew, start)       // [b, k, c, e], [b, k, n, e] ×2
}

// attention is grouped-query self-attention (Ainslie et al. 2023, "GQA",
// https://arxiv.org/abs/2305.13245): 9 query heads, each group of 3
// reading the same one of 3 key/value heads. Queries and keys are rotated
// by posgraph's RoPE at their position ids; the chunk's keys and values are
// written into the cache at slot start, and the queries read every slot the
// mask allows; causal says the mask is causalMask's, which key blocks
// need not build for the slots before the chunk (keyBlocks). Where the
// backend runs cpuattention's kernel, the softmax and the values are the
// kernel's, one operation; elsewhere they are GoMLX's, in key blocks. It
// returns the output and the updated caches.
func (m network) attention(scope *model.Scope, x, positions, start, mask *graph.Node, causal bool, cacheK, cacheV *graph.Node) (out, keys, values *graph.Node) {
	b, c := x.Shape().Dim(0), x.Shape().Dim(1)
	h, k, e := m.Heads, m.KVHeads, m.HeadDim
	g := h / k
	q := m.rotate(splitHeads(linear(x, weight(scope, x, "attn_q")), h, e), positions) // [b, h, c, e]
	kNew, keys, values := m.keysValues(scope, x, positions, start, cacheK, cacheV)    // [b, k, c, e], [b, k, n, e] ×2

	// Each group of g query heads reads one key/value head: query head
	// kv·g + i is row i of group kv.
	// The scores [b, k, g, c, n] are the largest tensors of the model
	// (9·c·n per layer), and every pass over them costs more than the
	// arithmetic: the scale 1/√e goes on the queries [c, e] instead, and
	// the softmax's division on the output [c, e] (o = Σ exp(s−max)·v /
	// Σ exp(s−max)), leaving a max and an exp over the scores.
	n := keys.Shape().Dim(2)
	q = graph.Reshape(q, b, k, g, c, e) // [b, k, g, c, e]
	if plainSoftmax {
		return m.plainAttention(scope, x, q, kNew, keys, values, mask)
	}
	qScaled := graph.MulScalar(q, 1/math.Sqrt(float64(e))) // [b, k, g, c, e]: q/√e
	var o *graph.Node
	if fast, ok := m.kernelAttention(qScaled, keys, values, mask); ok {
		o = graph.Reshape(fast, b, k, g, c, e) // [b, k, g, c, e]
	} else if m.keyBlock > 0 && m.start >= 0 && m.observe == nil && !wholeScores {
		shared, parts := attentionPlan(n, c, m.start, m.keyBlock, causal)
		o = keyBlockAttention(qScaled, keys, values, mask, shared, parts) // [b, k, g, c, e]
	} else {
		var observe func(weights *graph.Node)
		if m.observe != nil {
			observe = func(weights *graph.Node) { m.observe(q, kNew, weights) }
		}
		o = wholeScoreAttention(qScaled, keys, values, mask, observe) // [b, k, g, c, e]
	}
	o = mergeHeads(graph.Reshape(o, b, h, c, e))                    // [b, c, d]
	return linear(o, weight(scope, x, "attn_output")), keys, values // [b, c, d]
}

// splitHeads returns y [b, c, n·e] as n heads of e: [b, n, c, e].
func splitHeads(y *graph.Node, n, e int) *graph.Node {
	b, c := y.Shape().Dim(0), y.Shape().Dim(1)
	return graph.Transpose(graph.Reshape(y, b, c, n, e), 1, 2) // [b, n, c, e]
}

// mergeHeads is splitHeads undone: o [b, n, c, e] as [b, c, n·e].
func mergeHeads(o *graph.Node) *graph.Node {
	d := o.Shape().Dimensions
	return graph.Reshape(graph.Transpose(o, 1, 2), d[0], d[2], d[1]*d[3]) // [b, c, n·e]
}

// wholeScoreAttention returns softmax(q·kᵀ) v ([b, k, g, c, e]) for
// queries q [b, k, g, c, e], already scaled by 1/√e, keys and values [b, k,
// n, e] and mask [mb, c, n], from the whole score tensor [b, k, g, c, n];
// observe, when set, gets the attention weights.
func wholeScoreAttention(q, keys, values, mask *graph.Node, observe func(weights *graph.Node)) *graph.Node {
	b, k, g, c := q.Shape().Dim(0), q.Shape().Dim(1), q.Shape().Dim(2), q.Shape().Dim(3)
	n := keys.Shape().Dim(2)
	scores := graph.Einsum("bkgce,bkne->bkgcn", q, keys)                                                  // [b, k, g, c, n]: q·k/√e
	allowed := graph.BroadcastToDims(graph.Reshape(mask, mask.Shape().Dim(0), 1, 1, c, n), b, k, g, c, n) // [b, k, g, c, n]
	scores = graph.Where(allowed, scores, graph.Infinity(q.Graph(), q.DType(), -1))                       // [b, k, g, c, n]: −∞ where not allowed
	top := graph.StopGradient(graph.ReduceAndKeep(scores, graph.ReduceMax, -1))                           // [b, k, g, c, 1]
	exps := graph.Exp(graph.Sub(scores, top))                                                             // [b, k, g, c, n]: unnormalised weights
	sum := graph.ReduceAndKeep(exps, graph.ReduceSum, -1)                                                 // [b, k, g, c, 1]
	if observe != nil {
		observe(graph.Div(exps, sum)) // [b, k, g, c, n]: the attention weights
	}
	return graph.Div(graph.Einsum("bkgcn,bkne->bkgce", exps, values), sum) // [b, k, g, c, e]
}

// attentionAt is attention for the chunk's rows [b, r] only: every row's
// keys and values go into the caches, but only those rows' queries read
// them, through the whole scores [b, k, g, r, n] (r is small). It returns
// the output [b, r, d] and the updated caches.
func (m network) attentionAt(scope *model.Scope, x, positions, start, mask, rows, cacheK, cacheV *graph.Node) (out, keys, values *graph.Node) {
	b, c := x.Shape().Dim(0), x.Shape().Dim(1)
	h, k, e := m.Heads, m.KVHeads, m.HeadDim
	r := rows.Shape().Dim(1)
	q := m.rotate(splitHeads(linear(x, weight(scope, x, "attn_q")), h, e), positions) // [b, h, c, e]: rotated with the call's shared rotation
	q = splitHeads(gatherRows(mergeHeads(q), rows), h, e)                             // [b, h, r, e]: the asked rows
	q = graph.MulScalar(graph.Reshape(q, b, k, h/k, r, e), 1/math.Sqrt(float64(e)))   // [b, k, g, r, e]: q/√e
	_, keys, values = m.keysValues(scope, x, positions, start, cacheK, cacheV)        // [b, k, n, e] ×2
	n := keys.Shape().Dim(2)
	maskAt := gatherRows(graph.BroadcastToDims(mask, b, c, n), rows) // [b, r, n]
	o, ok := m.kernelAttention(q, keys, values, maskAt)              // [b, h, r, e]
	if ok {
		o = graph.Reshape(o, b, k, h/k, r, e) // [b, k, g, r, e]
	} else {
		o = wholeScoreAttention(q, keys, values, maskAt, nil) // [b, k, g, r, e]
	}
	o = mergeHeads(graph.Reshape(o, b, h, r, e))                    // [b, r, d]
	return linear(o, weight(scope, x, "attn_output")), keys, values // [b, r, d]
}

// kernelAttention is softmax(q·kᵀ) v by cpuattention's kernel, for
// queries q [b, k, g, c, e], already scaled, keys and values [b, k, n, e]
// and mask [mb, c, n]: [b, h, c, e], and true, where the backend runs the
// kernel (XLA's CPU plugin on a CPU with AVX-512; New switches it on);
// false elsewhere, and for observed calls, which need the weights.
func (m network) kernelAttention(q, keys, values, mask *graph.Node) (*graph.Node, bool) {
	if m.observe != nil || wholeScores || graphAttention {
		return nil, false
	}
	d := q.Shape().Dimensions
	return cpuattention.Attention(graph.Reshape(q, d[0], d[1]*d[2], d[3], d[4]), keys, values, mask) // [b, h, c, e]
}

// graphAttention makes attention take GoMLX's operations (key blocks)
// where the kernel could run: the tests compare the two.
var graphAttention = false

// allLastRows makes the last layer run every row of the chunk even when
// only a few rows' logits are asked for: the tests compare the two.
var allLastRows = false

// plainSoftmax makes attention take the textbook route, as the model was
// first written: the tests compare the two.
var plainSoftmax = false

// plainAttention is the end of attention as first written: scores scaled,
// masked, softmax, weights times values.
func (m network) plainAttention(scope *model.Scope, x, q, kNew, keys, values, mask *graph.Node) (out, _, _ *graph.Node) {
	b, k, g, c, e := q.Shape().Dim(0), q.Shape().Dim(1), q.Shape().Dim(2), q.Shape().Dim(3), q.Shape().Dim(4)
	n := keys.Shape().Dim(2)
	scores := graph.Einsum("bkgce,bkne->bkgcn", q, keys)                                                  // [b, k, g, c, n]
	scores = graph.MulScalar(scores, 1/math.Sqrt(float64(e)))                                             // [b, k, g, c, n]
	allowed := graph.BroadcastToDims(graph.Reshape(mask, mask.Shape().Dim(0), 1, 1, c, n), b, k, g, c, n) // [b, k, g, c, n]
	scores = graph.Where(allowed, scores, graph.Infinity(x.Graph(), x.DType(), -1))                       // [b, k, g, c, n]: −∞ where not allowed
	weights := graph.Softmax(scores, -1)                                                                  // [b, k, g, c, n]
	if m.observe != nil {
		m.observe(q, kNew, weights)
	}
	o := graph.Einsum("bkgcn,bkne->bkgce", weights, values)         // [b, k, g, c, e]
	o = mergeHeads(graph.Reshape(o, b, k*g, c, e))                  // [b, c, d]
	return linear(o, weight(scope, x, "attn_output")), keys, values // [b, c, d]
}

// writeSlots returns cache [b, k, n, e] with slots start … start+c−1
// replaced by fresh [b, k, c, e]: DynamicUpdateSlice where the backend has
// it (XLA), else the same built from Gather and Where (GoMLX's pure-Go
// backend, compute v0.1.6, lacks the op), which rewrites every slot.
func writeSlots(cache, fresh, start *graph.Node) *graph.Node {
	g := cache.Graph()
	if g.Backend().Capabilities().Operations[compute.OpTypeDynamicUpdateSlice] && !writeByGather {
		zero := graph.ScalarZero(g, dtypes.Int32)
		return graph.DynamicUpdateSlice(cache, fresh, []*graph.Node{zero, zero, start, zero}) // [b, k, n, e]
	}
	return writeSlotsByGather(cache, fresh, start)
}

// writeByGather makes writeSlots take the Gather and Where route on every
// backend: the tests compare the two.
var writeByGather = false

// writeSlotsByGather is writeSlots from Gather and Where: each slot gathers
// the fresh row it would receive, and only the chunk's slots keep it.
func writeSlotsByGather(cache, fresh, start *graph.Node) *graph.Node {
	dims := cache.Shape().Dimensions
	b, k, n, e := dims[0], dims[1], dims[2], dims[3]
	c := fresh.Shape().Dim(2)
	g := cache.Graph()
	offset := graph.Sub(graph.Iota(g, shapes.Make(dtypes.Int32, n), 0), start) // [n]: slot − start
	inChunk := graph.LogicalAnd(graph.GreaterOrEqual(offset, graph.ScalarZero(g, dtypes.Int32)),
		graph.LessThan(offset, graph.Scalar(g, dtypes.Int32, c))) // [n]
	row := graph.ExpandAxes(graph.MinScalar(graph.MaxScalar(offset, 0), c-1), -1) // [n, 1]: fresh row of each slot
	spread := graph.Gather(graph.TransposeAllAxes(fresh, 2, 0, 1, 3), row)        // [n, b, k, e]
	spread = graph.TransposeAllAxes(spread, 1, 2, 0, 3)                           // [b, k, n, e]
	keep := graph.BroadcastToDims(graph.Reshape(inChunk, 1, 1, n, 1), b, k, n, e) // [b, k, n, e]
	return graph.Where(keep, spread, cache)                                       // [b, k, n, e]
}

// causalMask says which cache slots each query of the chunk reads: query i,
// in slot start+i, reads slots 0 … start+i (earlier chunks and itself), not
// the later ones, which hold the chunk's future or nothing yet.
func causalMask(start *graph.Node, c int, cacheK []*graph.Node) *graph.Node {
	g, n := start.Graph(), cacheK[0].Shape().Dim(2)
	query := graph.AddScalar(graph.Iota(g, shapes.Make(dtypes.Int32, c, 1), 0), 0)                  // [c, 1]: i
	query = graph.Add(query, start)                                                                 // [c, 1]: start + i
	slot := graph.Iota(g, shapes.Make(dtypes.Int32, 1, n), 1)                                       // [1, n]: j
	return graph.LessOrEqual(graph.BroadcastToDims(slot, c, n), graph.BroadcastToDims(query, c, n)) // [c, n]
}

// rmsNorm is RMSNorm (Zhang and Sennrich 2019,
// https://arxiv.org/abs/1910.07467): x / √(mean(x²) + ε) · scale, over the
// last axis, as LlamaRMSNorm computes it.
func (m network) rmsNorm(x, scale *graph.Node) *graph.Node {
	meanSq := graph.ReduceAndKeep(graph.Square(x), graph.ReduceMean, -1)                                                     // [..., 1]
	return graph.Mul(graph.Mul(x, graph.Rsqrt(graph.AddScalar(meanSq, m.NormEps))), graph.ExpandLeftToRank(scale, x.Rank())) // x's shape
}

// swiGLU is the feed-forward layer (Shazeer 2020, "GLU Variants Improve
// Transformer", https://arxiv.org/abs/2002.05202): down(silu(gate(x)) ⊙
// up(x)), silu(z) = z·σ(z).
func (m network) swiGLU(scope *model.Scope, x *graph.Node) *graph.Node {
	gate := linear(x, weight(scope, x, "ffn_gate"))            // [b, c, f]
	up := linear(x, weight(scope, x, "ffn_up"))                // [b, c, f]
	act := graph.Mul(graph.Mul(gate, graph.Sigmoid(gate)), up) // [b, c, f]
	return linear(act, weight(scope, x, "ffn_down"))           // [b, c, d]
}

// linear returns x·Wᵀ for x [..., in] and w [out, in] (PyTorch's and
// GGUF's storage): [..., out].
func linear(x, w *graph.Node) *graph.Node {
	return graph.DotGeneral(x, []int{x.Rank() - 1}, nil, w, []int{1}, nil) // [..., out]
}

// gatherRows picks rows [b, r] of x [b, c, d]: [b, r, d].
func gatherRows(x, rows *graph.Node) *graph.Node {
	b, r := rows.Shape().Dim(0), rows.Shape().Dim(1)
	batch := graph.Iota(x.Graph(), shapes.Make(dtypes.Int32, b, r, 1), 0)          // [b, r, 1]
	idx := graph.Concatenate([]*graph.Node{batch, graph.ExpandAxes(rows, -1)}, -1) // [b, r, 2]
	return graph.Gather(x, idx)                                                    // [b, r, d]
}

// nll returns −log softmax(logits)[target] at each position, and 0 where
// the target is −1.
func nll(logits, targets *graph.Node) *graph.Node {
	b, c := targets.Shape().Dim(0), targets.Shape().Dim(1)
	g := logits.Graph()
	valid := graph.GreaterOrEqual(targets, graph.ScalarZero(g, dtypes.Int32))       // [b, c]
	t := graph.Where(valid, targets, graph.ScalarZero(g, dtypes.Int32))             // [b, c]
	bi := graph.Iota(g, shapes.Make(dtypes.Int32, b, c, 1), 0)                      // [b, c, 1]
	ci := graph.Iota(g, shapes.Make(dtypes.Int32, b, c, 1), 1)                      // [b, c, 1]
	idx := graph.Concatenate([]*graph.Node{bi, ci, graph.ExpandAxes(t, -1)}, -1)    // [b, c, 3]
	logp := graph.Gather(graph.LogSoftmax(logits, -1), idx)                         // [b, c]
	return graph.Where(valid, graph.Neg(logp), graph.ScalarZero(g, logits.DType())) // [b, c]
}

// weight returns the variable called name in scope, as a node of g's graph.
func weight(scope *model.Scope, g graph.GraphProvider, name string) *graph.Node {
	return scope.GetVariable(name).NodeValue(g)
}
