package exercises

import "math"

// Attention returns softmax(q·kᵀ/√d)·v, scaled dot-product attention
// (Vaswani et al. 2017, equation 1), with no positions anywhere.
//
// Lesson 1 (permutation invariance). q holds n queries and k holds m keys,
// all of the same width d; v holds m values of width dv. Row i of the result
// is a weighted average of the rows of v, with weights
//
//	w_ij = exp(s_ij) / Σ_j' exp(s_ij'),   s_ij = (q_i · k_j) / √d
//
// The softmax runs over the keys j, separately for each query i. Subtract
// each row's largest score before exp so that large scores do not overflow.
// Return a new n×dv table; do not modify q, k or v.
func Attention(q, k, v [][]float64) [][]float64 {
	out := make([][]float64, len(q))
	scores := make([]float64, len(k))
	for i, qi := range q {
		// Scores of query i against every key, scaled by 1/√d.
		top := math.Inf(-1)
		for j, kj := range k {
			dot := 0.0
			for c := range qi {
				dot += qi[c] * kj[c]
			}
			scores[j] = dot / math.Sqrt(float64(len(qi)))
			top = math.Max(top, scores[j])
		}
		// Softmax over the keys; exp(s − max) ≤ 1 cannot overflow.
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - top)
			sum += scores[j]
		}
		row := make([]float64, len(v[0]))
		for j, vj := range v {
			w := scores[j] / sum
			for c := range row {
				row[c] += w * vj[c]
			}
		}
		out[i] = row
	}
	return out
}
