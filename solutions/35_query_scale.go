package exercises

import "math"

// QueryScale returns the factor by which Ministral 3 multiplies the query
// of every layer at position pos (transformers' get_llama_4_attn_scale,
// with the config's rope_parameters llama_4_scaling_beta as beta and
// original_max_position_embeddings as originalLen):
//
//	1 + beta·ln(1 + ⌊pos / originalLen⌋)
//
// with the natural logarithm and the integer part of pos/originalLen. It is
// 1 for the first originalLen positions and grows with the log of the
// number of original contexts after that. Positions count from 0.
// The tests accept a relative error of 1e-12.
//
// Read lesson 9, “Read a hybrid”.
// Hints: exercises/README.md.
func QueryScale(pos int, beta float64, originalLen int) float64 {
	// Integer division is the floor for pos ≥ 0; unlike Llama 4's NoPE
	// temperature, the position is not shifted by one.
	contexts := pos / originalLen
	return 1 + beta*math.Log(1+float64(contexts))
}
