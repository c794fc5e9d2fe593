package posgraph

import (
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/pkg/posenc"
)

// ALiBiConst returns the ALiBi bias (Press et al. 2022, "Train Short, Test
// Long", https://arxiv.org/abs/2108.12409) of posenc.ALiBiSlopes(heads) as
// a constant [heads, qLen, kLen] of dtype, built on the host by
// posenc.ALiBiBiasTo (see it for the values, including −Inf above the
// diagonal when causal, and for queries being the last qLen of the kLen
// positions).
func ALiBiConst(g *graph.Graph, dtype dtypes.DType, heads, qLen, kLen int, causal bool) *graph.Node {
	checkFloatDType("dtype", dtype)
	slopes, err := posenc.ALiBiSlopes(heads)
	must(err)
	must(checkPositive("q_len", qLen))
	must(checkPositive("k_len", kLen))
	must(checkElements("heads×q_len×k_len", heads, qLen, kLen))
	if dtype == dtypes.Float64 {
		bias := make([]float64, heads*qLen*kLen)
		must(posenc.ALiBiBiasTo(bias, slopes, qLen, kLen, causal))
		return constFromFloat64(g, dtype, bias, heads, qLen, kLen) // [heads, q, k]
	}
	bias := make([]float32, heads*qLen*kLen)
	must(posenc.ALiBiBiasTo(bias, slopes, qLen, kLen, causal))
	return constFromFloat32(g, dtype, bias, heads, qLen, kLen) // [heads, q, k]
}

// AddALiBi adds the ALiBi bias to attention logits shaped
// [..., heads, qLen, kLen], the number of heads read from the logits.
func AddALiBi(logits *graph.Node, causal bool) *graph.Node {
	if logits.Rank() < 3 {
		must(paramErr("rank(logits)", logits.Rank(), "must be >= 3 ([..., heads, q_len, k_len])"))
	}
	d := logits.Shape().Dimensions
	heads, q, k := d[len(d)-3], d[len(d)-2], d[len(d)-1]
	bias := ALiBiConst(logits.Graph(), logits.DType(), heads, q, k, causal) // [heads, q, k]
	return graph.Add(logits, graph.ExpandLeftToRank(bias, logits.Rank()))   // [..., heads, q, k]
}
