package exercises

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
	// TODO
	panic("not implemented yet: open exercises/01_attention.go")
}
