package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/internal/validate"
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
	must(validate.Positive("q_len", qLen))
	must(validate.Positive("k_len", kLen))
	must(validate.Elements("heads×q_len×k_len", heads, qLen, kLen))
	if dtype == dtypes.Float64 {
		return constFilled(g, dtype, func(dst []float64) error { return posenc.ALiBiBiasTo(dst, slopes, qLen, kLen, causal) }, heads, qLen, kLen) // [heads, q, k]
	}
	return constFilled(g, dtype, func(dst []float32) error { return posenc.ALiBiBiasTo(dst, slopes, qLen, kLen, causal) }, heads, qLen, kLen) // [heads, q, k]
}

// AddALiBi adds the ALiBi bias to attention logits shaped
// [..., heads, qLen, kLen], the number of heads read from the logits.
func AddALiBi(logits *graph.Node, causal bool) *graph.Node {
	if logits.Rank() < 3 {
		must(validate.Err("rank(logits)", logits.Rank(), "must be >= 3 ([..., heads, q_len, k_len])"))
	}
	d := logits.Shape().Dimensions
	heads, q, k := d[len(d)-3], d[len(d)-2], d[len(d)-1]
	bias := ALiBiConst(logits.Graph(), logits.DType(), heads, q, k, causal) // [heads, q, k]
	return graph.Add(logits, graph.ExpandLeftToRank(bias, logits.Rank()))   // [..., heads, q, k]
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
