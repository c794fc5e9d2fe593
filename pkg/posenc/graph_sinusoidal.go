package posenc

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom: graph code reads as math.
)

// SinusoidalConst returns the table of s for positions start, …,
// start+n−1 as a [n, s.Dim] constant of dtype, computed on the host in
// float64 and rounded once. It panics with a *ParamError for an invalid s,
// start or n.
func SinusoidalConst(g *Graph, dtype dtypes.DType, s Sinusoidal, start, n int) *Node {
	checkFloatDType("dtype", dtype)
	if dtype == dtypes.Float64 {
		table, err := SinusoidalTable[float64](s, start, n)
		must(err)
		return constFromFloat64(g, dtype, table, n, s.Dim) // [n, dim]
	}
	table, err := SinusoidalTable[float32](s, start, n)
	must(err)
	return constFromFloat32(g, dtype, table, n, s.Dim) // [n, dim]
}

// AddSinusoidal returns x + PE, or x·√d + PE when scale is true, for token
// embeddings x shaped [..., seq, s.Dim] at positions start, …, start+seq−1.
// It panics with a *ParamError when x's last axis is not s.Dim or s is
// invalid.
func AddSinusoidal(x *Node, s Sinusoidal, start int, scale bool) *Node {
	seq, dim := lastDims("x", x)
	if dim != s.Dim {
		must(paramErr("x's last axis", dim, "must equal dim ("+itoa(s.Dim)+")"))
	}
	pe := SinusoidalConst(x.Graph(), x.DType(), s, start, seq) // [seq, dim]
	pe = ExpandLeftToRank(pe, x.Rank())                        // [1..., seq, dim]
	if scale {
		x = MulScalar(x, math.Sqrt(float64(dim))) // [..., seq, dim]
	}
	return Add(x, pe) // [..., seq, dim]
}
