package posgraph

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/posenc/course/internal/validate"
)

// Tables that depend only on shapes and configuration are computed by the
// host layer (pkg/posenc) in float64 and enter the graph as constants.

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
	c := graph.ConstTensor(g, tensors.FromFlatDataAndDimensions(f32, dims...))
	if dtype != dtypes.Float32 {
		c = graph.ConvertDType(c, dtype)
	}
	return c
}

// constFilled returns a constant of dtype and the given dimensions whose
// values fill writes into a host tensor of element type T (float32 or
// float64), converted in the graph when dtype is narrower than T. The host
// table is written straight into the tensor that becomes the constant, so
// building it costs the host table plus the one copy the backend makes of
// every constant.
func constFilled[T float32 | float64](g *graph.Graph, dtype dtypes.DType, fill func([]T) error, dims ...int) *graph.Node {
	t := tensors.FromShape(shapes.Make(dtypes.FromGenericsType[T](), dims...))
	defer func() { _ = t.FinalizeAll() }() // the constant holds its own copy
	var err error
	if accessErr := tensors.MutableFlatData(t, func(flat []T) { err = fill(flat) }); accessErr != nil {
		panic(accessErr)
	}
	must(err)
	c := graph.ConstTensor(g, t)
	if c.DType() != dtype {
		c = graph.ConvertDType(c, dtype)
	}
	return c
}

// lastDims returns the sizes of the last two axes of x, panicking with a
// *posenc.ParamError naming param when x has rank < 2.
func lastDims(param string, x *graph.Node) (seq, dim int) {
	if x.Rank() < 2 {
		must(validate.Err("rank("+param+")", x.Rank(), "must be >= 2 ([..., seq, dim])"))
	}
	d := x.Shape().Dimensions
	return d[len(d)-2], d[len(d)-1]
}
