package posenc

import (
	"math"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom: graph code reads as math.
	"github.com/gomlx/gomlx/core/tensors"
)

// SinusoidalConst returns the table of s for positions start, …,
// start+n−1 as a [n, s.Dim] constant of dtype, computed on the host in
// float64 and rounded once. It panics with a *ParamError for an invalid s,
// start or n.
//
// The host table is written straight into the tensor that becomes the
// constant, so building it costs the host table plus the one copy the
// backend makes of every constant.
func SinusoidalConst(g *Graph, dtype dtypes.DType, s Sinusoidal, start, n int) *Node {
	checkFloatDType("dtype", dtype)
	must(s.Validate())
	must(checkPositive("n", n))
	must(checkElements("n×dim", n, s.Dim))
	if dtype == dtypes.Float64 {
		return constFilled(g, dtype, func(dst []float64) error { return SinusoidalTo(dst, s, start) }, n, s.Dim)
	}
	return constFilled(g, dtype, func(dst []float32) error { return SinusoidalTo(dst, s, start) }, n, s.Dim)
}

// constFilled returns a constant of dtype and the given dimensions whose
// values fill writes into a host tensor of element type T (float32 or
// float64), converted in the graph when dtype is narrower than T.
func constFilled[T float32 | float64](g *Graph, dtype dtypes.DType, fill func([]T) error, dims ...int) *Node {
	t := tensors.FromShape(shapes.Make(dtypes.FromGenericsType[T](), dims...))
	defer func() { _ = t.FinalizeAll() }() // the constant holds its own copy
	var err error
	if accessErr := tensors.MutableFlatData(t, func(flat []T) { err = fill(flat) }); accessErr != nil {
		panic(accessErr)
	}
	must(err)
	c := ConstTensor(g, t)
	if c.DType() != dtype {
		c = ConvertDType(c, dtype)
	}
	return c
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
