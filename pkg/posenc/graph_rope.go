package posenc

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
)

// The graph RoPE computes y = x·C + swap(x)·S with two host-built tables of
// the full head width: C repeats cos(mω_i) on both members of pair i, S holds
// −sin(mω_i) on the first member and +sin(mω_i) on the second, and swap
// exchanges the members of each pair. Dimensions past the rotary ones have
// C = 1 and S = 0. This is the same rotation as the host layer, with no
// sin/cos inside the graph.
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

// ropeTables returns the [n, HeadDim] C and S tables for positions
// start, …, start+n−1 (see above), in float64.
func ropeTables(r RoPE, start, n int) (c, s []float64) {
	must(r.Validate())
	must(checkPosition("start", start))
	must(checkPositive("seq_len", n))
	if start > maxPosition-n {
		must(paramErr("start", start, "leaves the last position past 2^40"))
	}
	must(checkElements("seq_len×head_dim", n, r.HeadDim))
	cache := newRoPECacheRange(r, start, n)
	hd, half := r.HeadDim, cache.half
	c, s = make([]float64, n*hd), make([]float64, n*hd)
	for p := range n {
		cr, sr := c[p*hd:(p+1)*hd], s[p*hd:(p+1)*hd]
		for i := range half {
			a, b := pairIndex(r.Layout, 2*half, i)
			cos, sin := cache.cos[p*half+i], cache.sin[p*half+i]
			cr[a], cr[b] = cos, cos
			sr[a], sr[b] = -sin, sin
		}
		for j := 2 * half; j < hd; j++ {
			cr[j] = 1
		}
	}
	return c, s
}

// swapPairs exchanges the two members of every rotary pair of x's last axis
// and leaves the other dimensions in place.
func swapPairs(x *Node, r RoPE) *Node {
	hd, rot := r.HeadDim, r.Rot()
	rank := x.Rank()
	rotary := x
	if rot < hd {
		rotary = SliceAxis(x, -1, AxisRange(0, rot)) // [..., seq, rot]
	}
	var swapped *Node
	if r.Layout == Interleaved {
		dims := append([]int(nil), rotary.Shape().Dimensions...)
		pairs := append(dims[:rank-1:rank-1], rot/2, 2)
		swapped = Reshape(rotary, pairs...)                      // [..., seq, rot/2, 2]
		swapped = Reverse(swapped, rank)                         // [..., seq, rot/2, 2]
		swapped = Reshape(swapped, rotary.Shape().Dimensions...) // [..., seq, rot]
	} else {
		first := SliceAxis(rotary, -1, AxisRange(0, rot/2))    // [..., seq, rot/2]
		second := SliceAxis(rotary, -1, AxisRange(rot/2, rot)) // [..., seq, rot/2]
		swapped = Concatenate([]*Node{second, first}, -1)      // [..., seq, rot]
	}
	if rot < hd {
		pass := SliceAxis(x, -1, AxisRange(rot, hd))      // [..., seq, hd−rot]
		swapped = Concatenate([]*Node{swapped, pass}, -1) // [..., seq, hd]
	}
	return swapped
}

func checkRoPEInput(x *Node, r RoPE) (seq int) {
	must(r.Validate())
	checkFloatDType("x's dtype", x.DType())
	seq, hd := lastDims("x", x)
	if hd != r.HeadDim {
		must(paramErr("x's last axis", hd, "must equal head_dim ("+itoa(r.HeadDim)+")"))
	}
	return seq
}

// ApplyRoPE rotates queries or keys x, shaped [..., seq, r.HeadDim] (for
// example [batch, heads, seq, headDim]), at positions start, …, start+seq−1.
// It panics with a *ParamError for an invalid r, a last axis other than
// r.HeadDim, or a non-float x.
func ApplyRoPE(x *Node, r RoPE, start int) *Node {
	seq := checkRoPEInput(x, r)
	c, s := ropeTables(r, start, seq)
	g, dtype, hd := x.Graph(), x.DType(), r.HeadDim
	if canSwapFast(r, dtype) {
		swapTableRows(s, r)
		cn := broadcastTable(constFromFloat64(g, dtype, c, seq, hd), x) // [1 or ..., seq, hd]
		sn := broadcastTable(constFromFloat64(g, dtype, s, seq, hd), x) // S̃, [1 or ..., seq, hd]
		return Add(Mul(cn, x), swapPairsFast(Mul(sn, x), r))            // [..., seq, hd]
	}
	cn := ExpandLeftToRank(constFromFloat64(g, dtype, c, seq, hd), x.Rank()) // [1..., seq, hd]
	sn := ExpandLeftToRank(constFromFloat64(g, dtype, s, seq, hd), x.Rank()) // [1..., seq, hd]
	return Add(Mul(x, cn), Mul(swapPairs(x, r), sn))                         // [..., seq, hd]
}

// canSwapFast reports whether swapPairsFast applies: every dimension
// rotates, and for the interleaved layout an unsigned integer type twice as
// wide as dtype exists.
func canSwapFast(r RoPE, dtype dtypes.DType) bool {
	if r.Rot() != r.HeadDim {
		return false
	}
	if r.Layout == Halves {
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
func swapTableRows(table []float64, r RoPE) {
	hd, half := r.HeadDim, r.Rot()/2
	for row := 0; row+hd <= len(table); row += hd {
		for i := range half {
			a, b := pairIndex(r.Layout, 2*half, i)
			table[row+a], table[row+b] = table[row+b], table[row+a]
		}
	}
}

// swapPairsFast exchanges the members of every pair of x's last axis, for
// r and x.DType() accepted by canSwapFast (see the top of this file).
func swapPairsFast(x *Node, r RoPE) *Node {
	dims := x.Shape().Dimensions
	rank, hd := len(dims), r.HeadDim
	split := append(append(make([]int, 0, rank+1), dims[:rank-1]...), 0, 0)
	if r.Layout == Halves {
		split[rank-1], split[rank] = 2, hd/2
		return Reshape(Reverse(Reshape(x, split...), rank-1), dims...) // [..., seq, 2, hd/2] reversed
	}
	split[rank-1], split[rank] = hd/2, 2
	wide, _ := pairUint(x.DType())
	bits := x.DType().Bits()
	u := Bitcast(Reshape(x, split...), wide)                                                // [..., seq, hd/2]
	u = BitwiseOr(BitwiseShiftLeftScalar(u, bits), BitwiseShiftRightLogicalScalar(u, bits)) // members swapped
	return Reshape(Bitcast(u, x.DType()), dims...)                                          // [..., seq, hd]
}

// broadcastTable shapes t, [seq, hd], to multiply x, [..., seq, hd]: by
// copies (broadcastLeading) on the pure-Go backend, by implicit
// broadcasting elsewhere (see the top of this file).
func broadcastTable(t, x *Node) *Node {
	if x.Graph().Backend().String() == gobackend.BackendName {
		return broadcastLeading(t, x)
	}
	return ExpandLeftToRank(t, x.Rank())
}

// maxConcatInputs bounds the operands of one Concatenate in
// broadcastLeading; more copies take a second level.
const maxConcatInputs = 256

// broadcastLeading returns t, shaped [seq, hd], repeated over the leading
// axes of like (shaped [..., seq, hd]) by concatenating copies: one memory
// copy per repetition, where Mul's implicit broadcasting would walk an index
// iterator per element.
func broadcastLeading(t, like *Node) *Node {
	dims := like.Shape().Dimensions
	lead := 1
	for _, d := range dims[:len(dims)-2] {
		lead *= d
	}
	t = ExpandAxes(t, 0)    // [1, seq, hd]
	for n := 1; n < lead; { // t holds n copies
		k := min(maxConcatInputs, lead/n)
		parts := make([]*Node, k, k+1)
		for i := range parts {
			parts[i] = t
		}
		if rest := lead - n*k; rest > 0 && k < maxConcatInputs {
			parts = append(parts, Slice(t, AxisRange(0, rest)))
			n = lead
		} else {
			n *= k
		}
		t = Concatenate(parts, 0)
	}
	return Reshape(t, dims...)
}

// ApplyRoPEAt rotates x, shaped [..., seq, r.HeadDim], at explicit positions:
// an integer node shaped [seq], or [batch, seq] when x's first axis is batch.
// Rows are gathered from host-built tables for positions [0, maxLen). Values
// of a positions node are not known while the graph is built, and Gather
// clamps out-of-range indices, so validate positions on the host (for
// instance with ApplyRoPEAtTo's rules: 0 ≤ p < maxLen) before feeding them.
func ApplyRoPEAt(x, positions *Node, r RoPE, maxLen int) *Node {
	seq := checkRoPEInput(x, r)
	if !positions.DType().IsInt() {
		must(paramErr("positions' dtype", positions.DType(), "must be an integer dtype"))
	}
	pd := positions.Shape().Dimensions
	switch {
	case len(pd) == 1 && pd[0] == seq:
	case len(pd) == 2 && pd[1] == seq && x.Rank() >= 3 && pd[0] == x.Shape().Dimensions[0]:
	default:
		must(paramErr("positions' shape", pd, "must be [seq] or [batch, seq] matching x "+x.Shape().String()))
	}
	must(checkPositive("max_len", maxLen)) // before ropeTables, which would call it seq_len
	c, s := ropeTables(r, 0, maxLen)
	g, dtype, hd := x.Graph(), x.DType(), r.HeadDim
	if canSwapFast(r, dtype) {
		swapTableRows(s, r) // S̃: see the top of this file
	}
	idx := ExpandAxes(ConvertDType(positions, dtypes.Int32), -1) // [[batch,] seq, 1]
	cg := Gather(constFromFloat64(g, dtype, c, maxLen, hd), idx) // [[batch,] seq, hd]
	sg := Gather(constFromFloat64(g, dtype, s, maxLen, hd), idx) // [[batch,] seq, hd]
	if len(pd) == 2 {
		// [batch, seq, hd] → [batch, 1..., seq, hd]
		newDims := make([]int, x.Rank())
		for i := range newDims {
			newDims[i] = 1
		}
		newDims[0], newDims[x.Rank()-2], newDims[x.Rank()-1] = pd[0], seq, hd
		cg, sg = Reshape(cg, newDims...), Reshape(sg, newDims...)
	} else {
		cg, sg = ExpandLeftToRank(cg, x.Rank()), ExpandLeftToRank(sg, x.Rank()) // [1..., seq, hd]
	}
	if canSwapFast(r, dtype) {
		return Add(Mul(x, cg), swapPairsFast(Mul(x, sg), r)) // [..., seq, hd]
	}
	return Add(Mul(x, cg), Mul(swapPairs(x, r), sg)) // [..., seq, hd]
}
