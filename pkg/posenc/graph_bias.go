package posenc

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/model/initializer"
)

// ALiBiConst returns the ALiBi bias of ALiBiSlopes(heads) as a constant
// [heads, qLen, kLen] of dtype (see ALiBiBiasTo for its values, including
// −Inf above the diagonal when causal).
func ALiBiConst(g *Graph, dtype dtypes.DType, heads, qLen, kLen int, causal bool) *Node {
	checkFloatDType("dtype", dtype)
	slopes, err := ALiBiSlopes(heads)
	must(err)
	must(checkPositive("q_len", qLen))
	must(checkPositive("k_len", kLen))
	must(checkElements("heads×q_len×k_len", heads, qLen, kLen))
	if dtype == dtypes.Float64 {
		bias := make([]float64, heads*qLen*kLen)
		must(ALiBiBiasTo(bias, slopes, qLen, kLen, causal))
		return constFromFloat64(g, dtype, bias, heads, qLen, kLen) // [heads, q, k]
	}
	bias := make([]float32, heads*qLen*kLen)
	must(ALiBiBiasTo(bias, slopes, qLen, kLen, causal))
	return constFromFloat32(g, dtype, bias, heads, qLen, kLen) // [heads, q, k]
}

// AddALiBi adds the ALiBi bias to attention logits shaped
// [..., heads, qLen, kLen], the number of heads read from the logits.
func AddALiBi(logits *Node, causal bool) *Node {
	if logits.Rank() < 3 {
		must(paramErr("rank(logits)", logits.Rank(), "must be >= 3 ([..., heads, q_len, k_len])"))
	}
	d := logits.Shape().Dimensions
	heads, q, k := d[len(d)-3], d[len(d)-2], d[len(d)-1]
	bias := ALiBiConst(logits.Graph(), logits.DType(), heads, q, k, causal) // [heads, q, k]
	return Add(logits, ExpandLeftToRank(bias, logits.Rank()))               // [..., heads, q, k]
}

// T5VariableName is the name of T5Bias's [NumBuckets, heads] variable, as in
// HF's T5Attention.relative_attention_bias.
const T5VariableName = "relative_attention_bias"

// T5Bias returns T5's learned relative bias shaped [heads, qLen, kLen], ready
// to add to attention logits: the trainable [t.NumBuckets, heads] variable
// (created in scope on first use, initialised from N(0, 0.02²)) gathered at
// the bucket of key − query for every pair.
func T5Bias(scope *model.Scope, g *Graph, dtype dtypes.DType, t T5Buckets, heads, qLen, kLen int) *Node {
	checkFloatDType("dtype", dtype)
	must(checkPositive("heads", heads))
	buckets := make([]int32, 0)
	if err := t.Validate(); err == nil {
		must(checkPositive("q_len", qLen))
		must(checkPositive("k_len", kLen))
		must(checkElements("q_len×k_len", qLen, kLen))
		buckets = make([]int32, qLen*kLen)
	}
	must(t.BucketsTo(buckets, qLen, kLen))
	s := scope.WithInitializer(initializer.RandomNormalFn(scope, LearnedInitStddev))
	table := s.VariableWithShape(T5VariableName, shapes.Make(dtype, t.NumBuckets, heads)).NodeValue(g) // [buckets, heads]
	idx := Const(g, buckets)                                                                           // [q·k]
	idx = Reshape(idx, qLen, kLen, 1)                                                                  // [q, k, 1]
	bias := Gather(table, idx)                                                                         // [q, k, heads]
	return TransposeAllDims(bias, 2, 0, 1)                                                             // [heads, q, k]
}
