package posgraph

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/posenc/course/pkg/posenc"
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
		must(paramErr("seq_axis", seqAxis, fmt.Sprintf("must name an axis of %s other than the last", x.Shape())))
	}
	return a
}

// checkPositions panics unless positions is an integer node shaped [seq] or
// [batch, seq] for x with seq on axis seqAxis and batch on axis 0.
func checkPositions(x, positions *graph.Node, seqAxis int) {
	if !positions.DType().IsInt() {
		must(paramErr("positions' dtype", positions.DType(), "must be an integer dtype"))
	}
	pd, xd := positions.Shape().Dimensions, x.Shape().Dimensions
	seq := xd[seqAxis]
	switch {
	case len(pd) == 1 && pd[0] == seq:
	case len(pd) == 2 && pd[1] == seq && seqAxis > 0 && pd[0] == xd[0]:
	default:
		must(paramErr("positions' shape", pd, fmt.Sprintf("must be [seq] or [batch, seq] for x %s with seq on axis %d", x.Shape(), seqAxis)))
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
	return rotation{r: r,
		cm1: table(graph.AddScalar(c, -1)), // C − 1 in float64, rounded once
		s:   table(s),
		c:   func() *graph.Node { return table(c) },
	}
}

// SinusoidalEncoder adds the sinusoidal table of Vaswani et al. 2017
// ("Attention Is All You Need", https://arxiv.org/abs/1706.03762, section
// 3.5) to token embeddings: a pos.PreEncoder, applied once after the token
// embedding lookup. With Scale, the embeddings are first multiplied by
// √d_model, as in the paper's section 3.4.
type SinusoidalEncoder struct {
	Sinusoidal posenc.Sinusoidal
	Scale      bool
}

// NewSinusoidalEncoder returns an encoder for s. It panics with a
// *posenc.ParamError for an invalid s.
func NewSinusoidalEncoder(s posenc.Sinusoidal, scale bool) *SinusoidalEncoder {
	must(s.Validate())
	return &SinusoidalEncoder{Sinusoidal: s, Scale: scale}
}

// Name implements pos.Encoder.
func (e *SinusoidalEncoder) Name() string {
	s := e.Sinusoidal
	return fmt.Sprintf("posenc.Sinusoidal(dim=%d, base=%g, layout=%s, scale=%t)", s.Dim, s.Base, s.Layout, e.Scale)
}

// PreEncode implements pos.PreEncoder: it returns x (·√d with Scale) plus
// the table's rows at positions, for x whose last axis is Sinusoidal.Dim and
// whose axis seqAxis is the sequence, and positions an integer node shaped
// [seq] or [batch, seq]. It matches AddSinusoidal for positions
// start, …, start+seq−1.
func (e *SinusoidalEncoder) PreEncode(x, positions *graph.Node, seqAxis int) *graph.Node {
	s := e.Sinusoidal
	must(s.Validate())
	checkFloatDType("x's dtype", x.DType())
	if _, dim := lastDims("x", x); dim != s.Dim {
		must(paramErr("x's last axis", dim, "must equal dim ("+itoa(s.Dim)+")"))
	}
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	freq, err := s.Frequencies()
	must(err)
	d := s.Dim
	w, sinMask, cosMask := make([]float64, d), make([]float64, d), make([]float64, d)
	for i, f := range freq {
		a, b := 2*i, 2*i+1 // sin, cos
		if s.Layout == posenc.Halves {
			a, b = i, i+d/2
		}
		w[a], w[b] = f, f
		sinMask[a], cosMask[b] = 1, 1
	}
	g := positions.Graph()
	angle := anglesAt(positions, w) // [[batch,] seq, d], float64
	pe := graph.Add(graph.Mul(graph.Sin(angle), rowConst(g, sinMask, angle.Rank())),
		graph.Mul(graph.Cos(angle), rowConst(g, cosMask, angle.Rank()))) // [[batch,] seq, d]
	pe = alignTable(graph.ConvertDType(pe, x.DType()), x, axis) // broadcasts to x
	if e.Scale {
		x = graph.MulScalar(x, math.Sqrt(float64(d))) // x's shape
	}
	return graph.Add(x, pe) // x's shape
}

// LearnedEncoder adds learned absolute position embeddings (BERT, GPT-2) to
// token embeddings: a pos.PreEncoder over the trainable table of
// LearnedTable, kept in Scope.
type LearnedEncoder struct {
	Scope   *model.Scope
	Learned posenc.Learned
}

// NewLearnedEncoder returns an encoder whose table lives in scope. It panics
// with a *posenc.ParamError for an invalid l.
func NewLearnedEncoder(scope *model.Scope, l posenc.Learned) *LearnedEncoder {
	must(l.Validate())
	return &LearnedEncoder{Scope: scope, Learned: l}
}

// Name implements pos.Encoder.
func (e *LearnedEncoder) Name() string {
	return fmt.Sprintf("posenc.Learned(max_len=%d, dim=%d)", e.Learned.MaxLen, e.Learned.Dim)
}

// PreEncode implements pos.PreEncoder: x plus the table's rows at positions
// ([seq] or [batch, seq]; seq on x's axis seqAxis). Positions are not known
// while the graph is built and Gather clamps out-of-range indices, so check
// them with Learned.CheckPositions first: a learned table has no row past
// MaxLen.
func (e *LearnedEncoder) PreEncode(x, positions *graph.Node, seqAxis int) *graph.Node {
	checkLearnedInput(x, e.Learned)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	table := LearnedTable(e.Scope, x.Graph(), e.Learned, x.DType())                                // [max_len, dim]
	rows := graph.Gather(table, graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Int32), -1)) // [[batch,] seq, dim]
	rows = alignTable(rows, x, axis)                                                               // broadcasts to x
	return graph.Add(x, rows)                                                                      // x's shape
}

// ALiBiEncoder is ALiBi (Press et al. 2022, "Train Short, Test Long",
// https://arxiv.org/abs/2108.12409) as a BiasEncoder: the bias of
// ALiBiConst, with the authors' slopes for the number of heads. With Causal,
// keys after the query get −Inf, so the bias is also the causal mask.
type ALiBiEncoder struct {
	Causal bool
}

// NewALiBiEncoder returns a causal or symmetric ALiBi encoder.
func NewALiBiEncoder(causal bool) *ALiBiEncoder { return &ALiBiEncoder{Causal: causal} }

// Name implements pos.Encoder.
func (e *ALiBiEncoder) Name() string { return fmt.Sprintf("posenc.ALiBi(causal=%t)", e.Causal) }

// AttentionBias implements BiasEncoder. Queries are the last qLen of the
// kLen positions (see posenc.ALiBiBiasTo).
func (e *ALiBiEncoder) AttentionBias(g *graph.Graph, dtype dtypes.DType, heads, qLen, kLen int) *graph.Node {
	return graph.ExpandAxes(ALiBiConst(g, dtype, heads, qLen, kLen, e.Causal), 0) // [1, heads, q, k]
}

// T5Encoder is T5's learned relative bias (Raffel et al. 2020,
// https://arxiv.org/abs/1910.10683) as a BiasEncoder: the trainable table of
// T5Bias, kept in Scope and shared by every layer that uses this encoder (as
// T5 shares it across layers).
type T5Encoder struct {
	Scope   *model.Scope
	Buckets posenc.T5Buckets
}

// NewT5Encoder returns an encoder whose table lives in scope. It panics with
// a *posenc.ParamError for invalid buckets.
func NewT5Encoder(scope *model.Scope, buckets posenc.T5Buckets) *T5Encoder {
	must(buckets.Validate())
	return &T5Encoder{Scope: scope, Buckets: buckets}
}

// Name implements pos.Encoder.
func (e *T5Encoder) Name() string {
	b := e.Buckets
	return fmt.Sprintf("posenc.T5(buckets=%d, max_distance=%d, bidirectional=%t)", b.NumBuckets, b.MaxDistance, b.Bidirectional)
}

// AttentionBias implements BiasEncoder: query i and key j sit at positions
// i and j (see posenc.T5Buckets.BucketsTo).
func (e *T5Encoder) AttentionBias(g *graph.Graph, dtype dtypes.DType, heads, qLen, kLen int) *graph.Node {
	return graph.ExpandAxes(T5Bias(e.Scope, g, dtype, e.Buckets, heads, qLen, kLen), 0) // [1, heads, q, k]
}
