package posgraph

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
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
	must(checkPositive("n", n))
	must(checkElements("n×dim", n, s.Dim))
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
		must(paramErr("x's last axis", dim, "must equal dim ("+itoa(s.Dim)+")"))
	}
	pe := SinusoidalConst(x.Graph(), x.DType(), s, start, seq) // [seq, dim]
	pe = graph.ExpandLeftToRank(pe, x.Rank())                  // [1..., seq, dim]
	if scale {
		x = graph.MulScalar(x, math.Sqrt(float64(dim))) // [..., seq, dim]
	}
	return graph.Add(x, pe) // [..., seq, dim]
}
