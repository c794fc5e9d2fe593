package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc"
)

// The graph RoPE computes y = x·C + swap(x)·S with the two full-width
// tables of posenc.RoPETablesTo: C repeats cos(mω_i) on both members of pair
// i, S holds −sin(mω_i) on the first member and +sin(mω_i) on the second,
// and swap exchanges the members of each pair. Dimensions past the rotary
// ones have C = 1 and S = 0. This is the same rotation as the host layer,
// with no sin or cos of float32 angles inside the graph.
//
// On the pure-Go backend every op is a separate pass over memory, so the
// graph is arranged for few and cheap passes:
//
//   - swap(x)·S is computed as swap(x·S̃) with S̃ = swap(S) built on the host:
//     the same products, so the same bits, but the swap now applies to an
//     intermediate result that nothing else reads, whose buffers the backend
//     reuses in place.
//   - The interleaved swap reinterprets each pair as one integer twice as
//     wide (Bitcast) and rotates it by half its width (two shifts and an or):
//     whole-array integer loops, where a Reverse of the last axis (or slices
//     and a Concatenate) would move one element at a time. The halves swap
//     is a Reverse of a [2, d/2] axis, which moves half rows at a time.
//   - On the pure-Go backend only, the tables are broadcast over the leading
//     axes (batch, heads) by a Concatenate of copies, a sequence of memory
//     copies, so that the multiplications see operands of equal shape and
//     run as plain loops; its implicit broadcasting walks a general index
//     iterator per element. Compiling backends (XLA) fuse an implicit
//     broadcast for free, and would only fold the copies into big constants.
//
// Gradients. Models train through RoPE, but the swaps (Reverse, Bitcast and
// the bitwise ops) have no gradient in GoMLX v0.28.2. So the rotation is
// computed as x + StopGradient(x·(C−1) + swap(x)·S), and the gradient with
// respect to x is given explicitly: a rotation's
// transpose is the rotation by −θ, so the vector–Jacobian product of v is
// v·C + swap(v)·(−S) (v·C + swap(v·(−S̃)) in the fast form). This costs one
// addition over the whole tensor, and one more rounding than x·C.

// ropeTables returns the [n, HeadDim] C and S tables for positions
// start, …, start+n−1 (see above), in float64.
func ropeTables(r posenc.RoPE, start, n int) (c, s []float64) {
	must(r.Validate())
	must(validate.Positive("seq_len", n))
	must(validate.Elements("seq_len×head_dim", n, r.HeadDim))
	c, s = make([]float64, n*r.HeadDim), make([]float64, n*r.HeadDim)
	must(posenc.RoPETablesTo(c, s, r, start))
	return c, s
}

// swapPairs exchanges the two members of every rotary pair of x's last axis
// and leaves the other dimensions in place.
func swapPairs(x *graph.Node, r posenc.RoPE) *graph.Node {
	hd, rot := r.HeadDim, r.Rot()
	rank := x.Rank()
	rotary := x
	if rot < hd {
		rotary = graph.SliceAxis(x, -1, graph.AxisRange(0, rot)) // [..., seq, rot]
	}
	var swapped *graph.Node
	if r.Layout == posenc.Interleaved {
		dims := append([]int(nil), rotary.Shape().Dimensions...)
		pairs := append(dims[:rank-1:rank-1], rot/2, 2)
		swapped = graph.Reshape(rotary, pairs...)                      // [..., seq, rot/2, 2]
		swapped = graph.Reverse(swapped, rank)                         // [..., seq, rot/2, 2]
		swapped = graph.Reshape(swapped, rotary.Shape().Dimensions...) // [..., seq, rot]
	} else {
		first := graph.SliceAxis(rotary, -1, graph.AxisRange(0, rot/2))    // [..., seq, rot/2]
		second := graph.SliceAxis(rotary, -1, graph.AxisRange(rot/2, rot)) // [..., seq, rot/2]
		swapped = graph.Concatenate([]*graph.Node{second, first}, -1)      // [..., seq, rot]
	}
	if rot < hd {
		pass := graph.SliceAxis(x, -1, graph.AxisRange(rot, hd))      // [..., seq, hd−rot]
		swapped = graph.Concatenate([]*graph.Node{swapped, pass}, -1) // [..., seq, hd]
	}
	return swapped
}

// checkRoPEInput validates r and x, shaped [..., seq, r.HeadDim], and
// returns seq.
func checkRoPEInput(x *graph.Node, r posenc.RoPE) (seq int) {
	must(r.Validate())
	checkFloatDType("x's dtype", x.DType())
	seq, hd := lastDims("x", x)
	if hd != r.HeadDim {
		must(validate.Err("x's last axis", hd, "must equal head_dim ("+itoa(r.HeadDim)+")"))
	}
	return seq
}

// ApplyRoPE rotates queries or keys x, shaped [..., seq, r.HeadDim] (for
// example [batch, heads, seq, headDim]), at positions start, …, start+seq−1
// (Su et al. 2021, "RoFormer", https://arxiv.org/abs/2104.09864, equation
// 34), with r's layout, partial rotary dimension and frequency scaling. It
// is differentiable with respect to x. It panics with a *posenc.ParamError
// for an invalid r, a last axis other than r.HeadDim, or a non-float x.
func ApplyRoPE(x *graph.Node, r posenc.RoPE, start int) *graph.Node {
	seq := checkRoPEInput(x, r)
	c, s := ropeTables(r, start, seq)
	g, dtype, hd := x.Graph(), x.DType(), r.HeadDim
	fast := canSwapFast(r, dtype)
	if fast {
		swapTableRows(s, r) // S̃
	}
	table := func(t []float64) *graph.Node { return constFromFloat64(g, dtype, t, seq, hd) } // [seq, hd]
	rot := rotation{r: r, fast: fast,
		cm1:    table(minusOne(c)),
		s:      table(s),
		c:      func() *graph.Node { return table(c) },
		spread: func(t *graph.Node) *graph.Node { return broadcastTable(t, x) },
	}
	return rot.apply(x) // [..., seq, hd]
}

// minusOne returns t − 1, computed in float64.
func minusOne(t []float64) []float64 {
	out := make([]float64, len(t))
	for i, v := range t {
		out[i] = v - 1
	}
	return out
}

// rotation is one application of RoPE as elementwise tables (see the top of
// this file), each broadcastable to the input: C−1 and S (S̃ when fast) for
// the forward pass, C for the backward pass, built only when a gradient is
// asked for; spread shapes a table for a multiplication with the input
// (broadcastTable, or nothing when the tables already broadcast
// implicitly). fast is canSwapFast for r and the input's dtype: it chose
// the layout of S when the tables were built, and chooses the swap that
// goes with it.
type rotation struct {
	r      posenc.RoPE
	fast   bool
	cm1, s *graph.Node
	c      func() *graph.Node
	spread func(t *graph.Node) *graph.Node
}

// mulAddSwap returns x·c + swap(x)·s, or x·c + swap(x·s) in the fast form.
func (rt rotation) mulAddSwap(x, c, s *graph.Node) *graph.Node {
	if rt.spread != nil {
		c, s = rt.spread(c), rt.spread(s)
	}
	if rt.fast {
		return graph.Add(graph.Mul(c, x), swapPairsFast(graph.Mul(s, x), rt.r)) // x's shape
	}
	return graph.Add(graph.Mul(x, c), graph.Mul(swapPairs(x, rt.r), s)) // x's shape
}

// apply returns x rotated, with the gradient explained at the top of this
// file.
func (rt rotation) apply(x *graph.Node) *graph.Node {
	// StopGradient goes after the swap, not on x: GoMLX's autodiff visits
	// every node on a path to x, and would look for the swap's gradient.
	delta := graph.StopGradient(rt.mulAddSwap(x, rt.cm1, rt.s)) // rotate(x) − x
	xg := graph.IdentityWithCustomGradient(x, func(_, v *graph.Node) *graph.Node {
		return rt.mulAddSwap(v, rt.c(), graph.Neg(rt.s)) // the rotation by −θ of v
	})
	return graph.Add(xg, delta) // x's shape
}

// canSwapFast reports whether swapPairsFast applies: every dimension
// rotates, and for the interleaved layout an unsigned integer type twice as
// wide as dtype exists.
func canSwapFast(r posenc.RoPE, dtype dtypes.DType) bool {
	if r.Rot() != r.HeadDim {
		return false
	}
	if r.Layout == posenc.Halves {
		return true
	}
	_, ok := pairUint(dtype)
	return ok
}

// pairUint returns the unsigned integer type holding two values of dtype.
func pairUint(dtype dtypes.DType) (dtypes.DType, bool) {
	switch dtype.Bits() {
	case 16:
		return dtypes.Uint32, true
	case 32:
		return dtypes.Uint64, true
	}
	return dtypes.InvalidDType, false
}

// swapTableRows swaps the members of every pair of each [HeadDim] row of
// table (host side): S becomes S̃.
func swapTableRows(table []float64, r posenc.RoPE) {
	hd, half := r.HeadDim, r.Rot()/2
	for row := 0; row+hd <= len(table); row += hd {
		for i := range half {
			a, b := r.Pair(i)
			table[row+a], table[row+b] = table[row+b], table[row+a]
		}
	}
}

// swapPairsFast exchanges the members of every pair of x's last axis, for
// r and x.DType() accepted by canSwapFast (see the top of this file).
func swapPairsFast(x *graph.Node, r posenc.RoPE) *graph.Node {
	dims := x.Shape().Dimensions
	rank, hd := len(dims), r.HeadDim
	split := append(append(make([]int, 0, rank+1), dims[:rank-1]...), 0, 0)
	if r.Layout == posenc.Halves {
		split[rank-1], split[rank] = 2, hd/2
		return graph.Reshape(graph.Reverse(graph.Reshape(x, split...), rank-1), dims...) // [..., seq, 2, hd/2] reversed
	}
	split[rank-1], split[rank] = hd/2, 2
	wide, _ := pairUint(x.DType())
	bits := x.DType().Bits()
	u := graph.Bitcast(graph.Reshape(x, split...), wide) // [..., seq, hd/2]
	u = graph.BitwiseOr(graph.BitwiseShiftLeftScalar(u, bits),
		graph.BitwiseShiftRightLogicalScalar(u, bits)) // members swapped
	return graph.Reshape(graph.Bitcast(u, x.DType()), dims...) // [..., seq, hd]
}

// broadcastTable shapes t, [seq, hd], to multiply x, [..., seq, hd]: by
// copies (broadcastLeading) on the pure-Go backend, by implicit
// broadcasting elsewhere (see the top of this file).
func broadcastTable(t, x *graph.Node) *graph.Node {
	if x.Graph().Backend().String() == gobackend.BackendName {
		return broadcastLeading(t, x)
	}
	return graph.ExpandLeftToRank(t, x.Rank())
}

// maxConcatInputs bounds the operands of one Concatenate in
// broadcastLeading; more copies take a second level.
const maxConcatInputs = 256

// broadcastLeading returns t, shaped [seq, hd], repeated over the leading
// axes of like (shaped [..., seq, hd]) by concatenating copies: one memory
// copy per repetition, where Mul's implicit broadcasting would walk an index
// iterator per element.
func broadcastLeading(t, like *graph.Node) *graph.Node {
	dims := like.Shape().Dimensions
	lead := 1
	for _, d := range dims[:len(dims)-2] {
		lead *= d
	}
	t = graph.ExpandAxes(t, 0) // [1, seq, hd]
	for n := 1; n < lead; {    // t holds n copies
		k := min(maxConcatInputs, lead/n)
		parts := make([]*graph.Node, k, k+1)
		for i := range parts {
			parts[i] = t
		}
		if rest := lead - n*k; rest > 0 && k < maxConcatInputs {
			parts = append(parts, graph.Slice(t, graph.AxisRange(0, rest)))
			n = lead
		} else {
			n *= k
		}
		t = graph.Concatenate(parts, 0) // [n, seq, hd]
	}
	return graph.Reshape(t, dims...) // [..., seq, hd]
}

// ApplyRoPEAt rotates x, shaped [..., seq, r.HeadDim], at explicit positions:
// an integer node shaped [seq], or [batch, seq] when x's first axis is batch.
// Rows are gathered from host-built tables for positions [0, maxLen). Values
// of a positions node are not known while the graph is built, and Gather
// clamps out-of-range indices, so validate positions on the host (for
// instance with posenc.ApplyRoPEAtTo's rules: 0 ≤ p < maxLen) before feeding
// them. [RoPEEncoder] computes its tables from the positions instead, with
// no maxLen.
func ApplyRoPEAt(x, positions *graph.Node, r posenc.RoPE, maxLen int) *graph.Node {
	checkRoPEInput(x, r)
	checkPositions(x, positions, x.Rank()-2)
	must(validate.Positive("max_len", maxLen)) // before ropeTables, which would call it seq_len
	c, s := ropeTables(r, 0, maxLen)
	g, dtype, hd := x.Graph(), x.DType(), r.HeadDim
	fast := canSwapFast(r, dtype)
	if fast {
		swapTableRows(s, r) // S̃: see the top of this file
	}
	idx := graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Int32), -1) // [[batch,] seq, 1]
	rows := func(t []float64) *graph.Node {                                  // t's rows at positions, aligned with x
		gathered := graph.Gather(constFromFloat64(g, dtype, t, maxLen, hd), idx) // [[batch,] seq, hd]
		return alignTable(gathered, x, x.Rank()-2)                               // broadcasts to x
	}
	rot := rotation{r: r, fast: fast, cm1: rows(minusOne(c)), s: rows(s), c: func() *graph.Node { return rows(c) }}
	return rot.apply(x) // [..., seq, hd]
}

// alignTable reshapes a table shaped [seq, hd] or [batch, seq, hd] to
// broadcast against x: batch on axis 0, seq on seqAxis, hd last, 1
// elsewhere.
func alignTable(t, x *graph.Node, seqAxis int) *graph.Node {
	td := t.Shape().Dimensions
	dims := make([]int, x.Rank())
	for i := range dims {
		dims[i] = 1
	}
	dims[seqAxis], dims[len(dims)-1] = td[len(td)-2], td[len(td)-1]
	if len(td) == 3 {
		dims[0] = td[0]
	}
	return graph.Reshape(t, dims...) // [batch or 1, …, seq at seqAxis, …, hd]
}

// RoPEEncoder applies rotary position embeddings (Su et al. 2021,
// "RoFormer", https://arxiv.org/abs/2104.09864) to queries and keys inside a
// GoMLX attention layer: a pos.QKEncoder for
// attention.MultiHeadAttentionBuilder.WithPositionalEncoder. It rotates with
// RoPE's layout, partial rotary dimension, base and frequency scaling
// (linear, NTK-aware, dynamic NTK, YaRN with its attention factor, Llama 3),
// computing the same rotation as ApplyRoPE and posenc.RotateTo.
//
// Dynamic NTK scaling depends on the current sequence length: a
// RoPE.Scaling.SeqLen of 0 means the length of the sequence axis of the
// queries, as Hugging Face uses max(position)+1 for positions 0…L−1.
type RoPEEncoder struct {
	RoPE posenc.RoPE
}

// NewRoPEEncoder returns an encoder for r. It panics with a
// *posenc.ParamError for an invalid r.
func NewRoPEEncoder(r posenc.RoPE) *RoPEEncoder {
	must(r.Validate())
	return &RoPEEncoder{RoPE: r}
}

// Name implements pos.Encoder.
func (e *RoPEEncoder) Name() string {
	r := e.RoPE
	name := fmt.Sprintf("posenc.RoPE(head_dim=%d, rotary_dim=%d, base=%g, layout=%s", r.HeadDim, r.Rot(), r.Base, r.Layout)
	if r.Scaling.Kind != posenc.ScalingNone {
		name += fmt.Sprintf(", scaling=%s×%g", r.Scaling.Kind, r.Scaling.Factor)
	}
	return name + ")"
}

// EncodeQK implements pos.QKEncoder: it rotates q and k, whose last axis is
// the head dimension and whose axis seqAxis (negative counts from the end)
// is the sequence, at positions, an integer node shaped [seq] or
// [batch, seq].
func (e *RoPEEncoder) EncodeQK(q, k, positions *graph.Node, seqAxis int) (*graph.Node, *graph.Node) {
	return e.Encode(q, positions, seqAxis), e.Encode(k, positions, seqAxis)
}

// Encode rotates one tensor x (queries or keys) as EncodeQK does.
func (e *RoPEEncoder) Encode(x, positions *graph.Node, seqAxis int) *graph.Node {
	r := e.RoPE
	checkRoPEInput(x, r)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	if r.Scaling.Kind == posenc.ScalingDynamic && r.Scaling.SeqLen == 0 {
		r.Scaling.SeqLen = x.Shape().Dimensions[axis]
	}
	return ropeTablesAt(r, positions, x, axis).apply(x) // x's shape
}

// ropeTablesAt returns the rotation of x at an integer positions node
// shaped [[batch,] seq] (seq on x's axis seqAxis): its tables C−1, C and S
// (S̃ when canSwapFast) computed in float64 inside the graph, converted once
// to x's dtype, and aligned to broadcast against x.
func ropeTablesAt(r posenc.RoPE, positions, x *graph.Node, seqAxis int) rotation {
	freq, err := r.InvFreq()
	must(err)
	af, hd, fast := r.AttentionFactor(), r.HeadDim, canSwapFast(r, x.DType())
	w, amp, sign := make([]float64, hd), make([]float64, hd), make([]float64, hd)
	for i, f := range freq {
		a, b := r.Pair(i)
		w[a], w[b] = f, f
		amp[a], amp[b] = af, af
		sign[a], sign[b] = -af, af // S: −sin on the first member, +sin on the second
		if fast {
			sign[a], sign[b] = af, -af // S̃ = swap(S)
		}
	}
	for j := r.Rot(); j < hd; j++ {
		amp[j] = 1 // pass-through dimensions: C = 1, S = 0
	}
	g := positions.Graph()
	angle := anglesAt(positions, w)                                   // [[batch,] seq, hd], float64
	c := graph.Mul(graph.Cos(angle), rowConst(g, amp, angle.Rank()))  // [[batch,] seq, hd]
	s := graph.Mul(graph.Sin(angle), rowConst(g, sign, angle.Rank())) // [[batch,] seq, hd]
	table := func(t *graph.Node) *graph.Node {
		return alignTable(graph.ConvertDType(t, x.DType()), x, seqAxis) // broadcasts to x
	}
	return rotation{r: r, fast: fast,
		cm1: table(graph.AddScalar(c, -1)), // C − 1 in float64, rounded once
		s:   table(s),
		c:   func() *graph.Node { return table(c) },
	}
}
