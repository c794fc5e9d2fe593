package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/posenc/course/internal/validate"
)

// GoMLX models take a positional encoding through the interfaces of its
// package ml/layers/attention/pos: a pos.QKEncoder rotates queries and keys
// inside attention.MultiHeadAttention (WithPositionalEncoder), and a
// pos.PreEncoder adds positions to the token embeddings before the first
// layer. The encoders below plug posenc's encodings into those places, and
// BiasEncoder covers the third place, the attention logits, which
// MultiHeadAttention takes through WithAttentionBias:
//
//	rope := posgraph.NewRoPEEncoder(posenc.NewRoPE(headDim).WithLayout(posenc.Halves))
//	y := attention.SelfAttention(scope, x, heads, headDim).
//		WithPositionalEncoder(rope).WithCausalMask(true).Done()
//
//	alibi := posgraph.NewALiBiEncoder(true)
//	bias := alibi.AttentionBias(x.Graph(), x.DType(), heads, seq, seq) // [1, heads, seq, seq]
//	y := attention.SelfAttention(scope, x, heads, headDim).WithAttentionBias(bias).Done()
//
// Positions arrive as a graph node whose values are not known while the
// graph is built (GoMLX's KV cache moves them at every step), so the RoPE
// and sinusoidal encoders compute their angles from the positions inside the
// graph, in float64 — m·ω and its sine and cosine to float64 precision,
// rounded once to the model's dtype — rather than gathering rows of a host
// table of fixed length. No angle is ever computed in float32.

// BiasEncoder is a positional encoding that enters attention as an additive
// bias on the logits, softmax(q·kᵀ/√d + bias): ALiBi and T5's relative
// bias. GoMLX's pos package has no interface for this place, so this one is
// posgraph's; MultiHeadAttentionBuilder.WithAttentionBias takes the bias.
type BiasEncoder interface {
	pos.Encoder
	// AttentionBias returns the bias for qLen queries over kLen keys,
	// shaped [1, heads, qLen, kLen] (MultiHeadAttention's [batch, heads,
	// q, k] convention, broadcast over the batch).
	AttentionBias(g *graph.Graph, dtype dtypes.DType, heads, qLen, kLen int) *graph.Node
}

var (
	_ pos.QKEncoder  = (*RoPEEncoder)(nil)
	_ pos.PreEncoder = (*SinusoidalEncoder)(nil)
	_ pos.PreEncoder = (*LearnedEncoder)(nil)
	_ BiasEncoder    = (*ALiBiEncoder)(nil)
	_ BiasEncoder    = (*T5Encoder)(nil)
)

// seqAxisOf returns seqAxis counted from the front of x, panicking with a
// *posenc.ParamError when it is out of range or is x's last axis (which
// holds the features).
func seqAxisOf(x *graph.Node, seqAxis int) int {
	a := seqAxis
	if a < 0 {
		a += x.Rank()
	}
	if a < 0 || a >= x.Rank()-1 {
		must(validate.Err("seq_axis", seqAxis, fmt.Sprintf("must name an axis of %s other than the last", x.Shape())))
	}
	return a
}

// checkPositions panics unless positions is an integer node shaped [seq] or
// [batch, seq] for x with seq on axis seqAxis and batch on axis 0.
func checkPositions(x, positions *graph.Node, seqAxis int) {
	if !positions.DType().IsInt() {
		must(validate.Err("positions' dtype", positions.DType(), "must be an integer dtype"))
	}
	pd, xd := positions.Shape().Dimensions, x.Shape().Dimensions
	seq := xd[seqAxis]
	switch {
	case len(pd) == 1 && pd[0] == seq:
	case len(pd) == 2 && pd[1] == seq && seqAxis > 0 && pd[0] == xd[0]:
	default:
		must(validate.Err("positions' shape", pd, fmt.Sprintf("must be [seq] or [batch, seq] for x %s with seq on axis %d", x.Shape(), seqAxis)))
	}
}

// anglesAt returns positions·w in float64, shaped [[batch,] seq, len(w)],
// for an integer positions node shaped [[batch,] seq].
func anglesAt(positions *graph.Node, w []float64) *graph.Node {
	p := graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Float64), -1) // [[batch,] seq, 1]
	return graph.Mul(p, rowConst(positions.Graph(), w, p.Rank()))            // [[batch,] seq, len(w)]
}

// rowConst returns the float64 vector v as a constant of the given rank,
// [1..., len(v)], to multiply a [..., len(v)] node.
func rowConst(g *graph.Graph, v []float64, rank int) *graph.Node {
	return graph.ExpandLeftToRank(graph.Const(g, v), rank) // [1..., len(v)]
}
