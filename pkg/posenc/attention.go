package posenc

import (
	"math"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
)

// AttentionWeights returns softmax(q·kᵀ/√d + bias) over the keys, for q
// shaped [..., seqQ, d] and k shaped [..., seqK, d]: row i says how much
// query i reads from each key. bias, when not nil, must broadcast to
// [..., seqQ, seqK] after being expanded on the left (an ALiBi or T5 bias
// [heads, seqQ, seqK], or a mask).
//
// Nothing here knows where a token is: permuting the keys permutes each row
// of the weights the same way. That is lesson 1.
func AttentionWeights(q, k, bias *Node) *Node {
	_, dq := lastDims("q", q)
	_, dk := lastDims("k", k)
	if dq != dk {
		must(paramErr("k's last axis", dk, "must equal q's ("+itoa(dq)+")"))
	}
	kT := Transpose(k, k.Rank()-1, k.Rank()-2) // [..., d, seqK]
	logits := MatMul(q, kT)                    // [..., seqQ, seqK]
	logits = MulScalar(logits, 1/math.Sqrt(float64(dq)))
	if bias != nil {
		logits = Add(logits, ExpandLeftToRank(bias, logits.Rank())) // [..., seqQ, seqK]
	}
	return Softmax(logits, -1) // [..., seqQ, seqK]
}

// Attention returns softmax(q·kᵀ/√d + bias)·v, scaled dot-product attention
// (Vaswani et al. 2017, equation 1), for q [..., seqQ, d], k [..., seqK, d]
// and v [..., seqK, dv]; bias may be nil (see AttentionWeights).
func Attention(q, k, v, bias *Node) *Node {
	w := AttentionWeights(q, k, bias) // [..., seqQ, seqK]
	return MatMul(w, v)               // [..., seqQ, dv]
}

// SelfAttention projects x [..., seq, dModel] to queries, keys and values
// with wq and wk [dModel, d] and wv [dModel, dv], and attends with no bias:
// one head, no positions, nothing hidden.
func SelfAttention(x, wq, wk, wv *Node) *Node {
	q := MatMul(x, wq)             // [..., seq, d]
	k := MatMul(x, wk)             // [..., seq, d]
	v := MatMul(x, wv)             // [..., seq, dv]
	return Attention(q, k, v, nil) // [..., seq, dv]
}
