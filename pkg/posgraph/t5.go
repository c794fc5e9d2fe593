package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc"
)

// T5VariableName is the name of T5Bias's [NumBuckets, heads] variable, as in
// Hugging Face's T5Attention.relative_attention_bias.
const T5VariableName = "relative_attention_bias"

// T5InitStddev is the standard deviation of the T5 bias table's initial
// values, as for a learned position table (Hugging Face initialises T5's
// with factor·d_model^−½ instead).
const T5InitStddev = 0.02

// T5Bias returns T5's learned relative bias (Raffel et al. 2020,
// https://arxiv.org/abs/1910.10683, section 2.1) shaped [heads, qLen,
// kLen], ready to add to attention logits: the trainable [t.NumBuckets,
// heads] variable (created in scope on first use, initialised from
// N(0, T5InitStddev²)) gathered at the bucket of key − query for every pair,
// the buckets computed on the host by posenc.T5Buckets.BucketsTo.
func T5Bias(scope *model.Scope, g *graph.Graph, dtype dtypes.DType, t posenc.T5Buckets, heads, qLen, kLen int) *graph.Node {
	checkFloatDType("dtype", dtype)
	must(validate.Positive("heads", heads))
	must(t.Validate())
	must(validate.Positive("q_len", qLen))
	must(validate.Positive("k_len", kLen))
	must(validate.Elements("q_len×k_len", qLen, kLen))
	buckets := make([]int32, qLen*kLen)
	must(t.BucketsTo(buckets, qLen, kLen))
	s := scope.WithInitializer(initializer.RandomNormalFn(scope, T5InitStddev))
	table := s.VariableWithShape(T5VariableName, shapes.Make(dtype, t.NumBuckets, heads)).NodeValue(g) // [buckets, heads]
	idx := graph.Const(g, buckets)                                                                     // [q·k]
	idx = graph.Reshape(idx, qLen, kLen, 1)                                                            // [q, k, 1]
	bias := graph.Gather(table, idx)                                                                   // [q, k, heads]
	return graph.TransposeAllDims(bias, 2, 0, 1)                                                       // [heads, q, k]
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
