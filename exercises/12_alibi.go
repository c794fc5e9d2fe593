package exercises

// ALiBiSlopes returns the slope of each of heads attention heads for ALiBi
// (Press et al. 2022, "Train Short, Test Long"), exactly as the authors'
// get_slopes computes them, for any head count (not only powers of two).
//
// ALiBiBias returns the bias ALiBi adds to the attention logits of n
// queries over n keys, shaped [len(slopes)][n][n] (head, query, key): a
// penalty that grows with the distance between query and key, in proportion
// to each head's slope. With causal true it also hides the keys after each
// query, so that softmax gives them a weight of exactly 0.
//
// Read lesson 6, “The slopes” and “What the bias looks like”. Hints:
// exercises/README.md.
func ALiBiSlopes(heads int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/12_alibi.go")
}

// ALiBiBias: see ALiBiSlopes's comment above.
func ALiBiBias(slopes []float64, n int, causal bool) [][][]float64 {
	// TODO
	panic("not implemented yet: open exercises/12_alibi.go")
}
