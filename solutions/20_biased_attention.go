package exercises

import "math"

// BiasedAttention returns scaled dot-product attention with an additive
// position bias inside the softmax, as ALiBi and T5 use it: q holds n
// queries and k holds m keys of width d, v holds m values, and bias[i][j]
// is added to the score of query i and key j. A bias of −Inf hides a key
// entirely (weight 0). The result is a new n×dv table; the arguments are
// left unchanged.
//
// Read lesson 6, “What it does to attention”. Hints: exercises/README.md.
func BiasedAttention(q, k, v, bias [][]float64) [][]float64 {
	out := make([][]float64, len(q))
	for i, qi := range q {
		scores := make([]float64, len(k))
		top := math.Inf(-1)
		for j, kj := range k {
			dot := 0.0
			for c := range qi {
				dot += qi[c] * kj[c]
			}
			scores[j] = dot/math.Sqrt(float64(len(qi))) + bias[i][j] // the bias joins the scaled logits
			top = math.Max(top, scores[j])
		}
		sum := 0.0
		for j := range scores {
			scores[j] = math.Exp(scores[j] - top) // exp(−Inf) = 0: a masked key
			sum += scores[j]
		}
		row := make([]float64, len(v[0]))
		for j, vj := range v {
			for c := range row {
				row[c] += scores[j] / sum * vj[c]
			}
		}
		out[i] = row
	}
	return out
}
