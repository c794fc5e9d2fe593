package posenc

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Graph-layer conventions. Every graph function validates its configuration
// and shapes while the graph is being built and panics with the same
// *ParamError the host layer would return: GoMLX's convention for errors in
// graph construction (graph.Exec's non-Must calls turn the panic into an
// error). Tables that depend only on shapes and configuration are computed
// by the host layer in float64 and enter the graph as constants.

// must panics with err when it is not nil: the graph layer's error path.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// checkFloatDType panics unless dtype is a floating-point type.
func checkFloatDType(param string, dtype dtypes.DType) {
	if !dtype.IsFloat() {
		must(paramErr(param, dtype, "must be a floating-point dtype"))
	}
}

// constFromFloat64 returns data, a host table of the given dimensions, as a
// constant of dtype. Float64 and Float32 are rounded once on the host; other
// float types (Float16, BFloat16) go through Float32.
func constFromFloat64(g *graph.Graph, dtype dtypes.DType, data []float64, dims ...int) *graph.Node {
	checkFloatDType("dtype", dtype)
	if dtype == dtypes.Float64 {
		return graph.ConstTensor(g, tensors.FromFlatDataAndDimensions(data, dims...))
	}
	f32 := make([]float32, len(data))
	for i, v := range data {
		f32[i] = float32(v)
	}
	return constFromFloat32(g, dtype, f32, dims...)
}

// constFromFloat32 returns data as a constant of dtype.
func constFromFloat32(g *graph.Graph, dtype dtypes.DType, data []float32, dims ...int) *graph.Node {
	checkFloatDType("dtype", dtype)
	c := graph.ConstTensor(g, tensors.FromFlatDataAndDimensions(data, dims...))
	if dtype != dtypes.Float32 {
		c = graph.ConvertDType(c, dtype)
	}
	return c
}

// lastDims returns the sizes of the last two axes of x, panicking with a
// *ParamError naming param when x has rank < 2.
func lastDims(param string, x *graph.Node) (seq, dim int) {
	if x.Rank() < 2 {
		must(paramErr("rank("+param+")", x.Rank(), "must be >= 2 ([..., seq, dim])"))
	}
	d := x.Shape().Dimensions
	return d[len(d)-2], d[len(d)-1]
}
