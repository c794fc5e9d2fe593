package posgraph

import (
	"math"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/internal/validate"
)

// AttentionWeights returns softmax(q·kᵀ/√d + bias) over the keys, for q
// shaped [..., seqQ, d] and k shaped [..., seqK, d]: row i says how much
// query i reads from each key. bias, when not nil, must broadcast to
// [..., seqQ, seqK] after being expanded on the left (an ALiBi or T5 bias
// [heads, seqQ, seqK], or a mask).
//
// Nothing here knows where a token is: permuting the keys permutes each row
// of the weights the same way. That is lesson 1.
func AttentionWeights(q, k, bias *graph.Node) *graph.Node {
	_, dq := lastDims("q", q)
	_, dk := lastDims("k", k)
	if dq != dk {
		must(validate.Err("k's last axis", dk, "must equal q's ("+itoa(dq)+")"))
	}
	kT := graph.Transpose(k, k.Rank()-1, k.Rank()-2) // [..., d, seqK]
	logits := graph.MatMul(q, kT)                    // [..., seqQ, seqK]
	logits = graph.MulScalar(logits, 1/math.Sqrt(float64(dq)))
	if bias != nil {
		logits = graph.Add(logits, graph.ExpandLeftToRank(bias, logits.Rank())) // [..., seqQ, seqK]
	}
	return graph.Softmax(logits, -1) // [..., seqQ, seqK]
}

// Attention returns softmax(q·kᵀ/√d + bias)·v, scaled dot-product attention
// (Vaswani et al. 2017, equation 1), for q [..., seqQ, d], k [..., seqK, d]
// and v [..., seqK, dv]; bias may be nil (see AttentionWeights).
func Attention(q, k, v, bias *graph.Node) *graph.Node {
	w := AttentionWeights(q, k, bias) // [..., seqQ, seqK]
	return graph.MatMul(w, v)         // [..., seqQ, dv]
}

// SelfAttention projects x [..., seq, dModel] to queries, keys and values
// with wq and wk [dModel, d] and wv [dModel, dv], and attends with no bias:
// one head, no positions, nothing hidden.
func SelfAttention(x, wq, wk, wv *graph.Node) *graph.Node {
	q := graph.MatMul(x, wq)       // [..., seq, d]
	k := graph.MatMul(x, wk)       // [..., seq, d]
	v := graph.MatMul(x, wv)       // [..., seq, dv]
	return Attention(q, k, v, nil) // [..., seq, dv]
}
