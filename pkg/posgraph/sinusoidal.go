package posgraph

import (
	"fmt"
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc"
)

// SinusoidalConst returns the sinusoidal table of s (Vaswani et al. 2017,
// "Attention Is All You Need", https://arxiv.org/abs/1706.03762, section
// 3.5) for positions start, …, start+n−1 as a [n, s.Dim] constant of dtype,
// computed on the host by [posenc.SinusoidalTo] in float64 and rounded once.
// It panics with a *posenc.ParamError for an invalid s, start or n.
//
// Parameters:
//   - g: the graph the constant belongs to.
//   - dtype: a floating-point dtype.
//   - s: the table's configuration (dimension, base, layout).
//   - start, n: the first position and the number of positions.
func SinusoidalConst(g *graph.Graph, dtype dtypes.DType, s posenc.Sinusoidal, start, n int) *graph.Node {
	checkFloatDType("dtype", dtype)
	must(s.Validate())
	must(validate.Positive("n", n))
	must(validate.Elements("n×dim", n, s.Dim))
	if dtype == dtypes.Float64 {
		return constFilled(g, dtype, func(dst []float64) error { return posenc.SinusoidalTo(dst, s, start) }, n, s.Dim)
	}
	return constFilled(g, dtype, func(dst []float32) error { return posenc.SinusoidalTo(dst, s, start) }, n, s.Dim)
}

// AddSinusoidal returns x + PE, or x·√d + PE when scale is true, for token
// embeddings x shaped [..., seq, s.Dim] at positions start, …, start+seq−1.
// It panics with a *posenc.ParamError when x's last axis is not s.Dim or s
// is invalid.
func AddSinusoidal(x *graph.Node, s posenc.Sinusoidal, start int, scale bool) *graph.Node {
	seq, dim := lastDims("x", x)
	if dim != s.Dim {
		must(validate.Err("x's last axis", dim, "must equal dim ("+itoa(s.Dim)+")"))
	}
	pe := SinusoidalConst(x.Graph(), x.DType(), s, start, seq) // [seq, dim]
	pe = graph.ExpandLeftToRank(pe, x.Rank())                  // [1..., seq, dim]
	if scale {
		x = graph.MulScalar(x, math.Sqrt(float64(dim))) // [..., seq, dim]
	}
	return graph.Add(x, pe) // [..., seq, dim]
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
		must(validate.Err("x's last axis", dim, "must equal dim ("+itoa(s.Dim)+")"))
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
