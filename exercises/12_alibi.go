package exercises

// ALiBiSlopes returns the slope m_h of each of heads attention heads for
// ALiBi (Press et al. 2022, "Train Short, Test Long"), as the authors'
// get_slopes computes them:
//
//   - when heads is a power of two, the geometric sequence
//     m_k = 2^(−8k/heads) for k = 1, …, heads (8 heads: 1/2, 1/4, …, 1/256);
//   - otherwise, with p the largest power of two below heads, the p slopes
//     for p heads, followed by the 1st, 3rd, 5th, … slopes of the sequence for
//     2p heads, until there are heads slopes.
//
// ALiBiBias returns the bias added to the attention logits of n queries over
// n keys, shaped [len(slopes)][n][n]: for head h, query i and key j,
//
//	symmetric (causal false):  −m_h·|i − j|
//	causal:                     −m_h·(i − j) for j ≤ i, and −Inf for j > i
//
// so that a key loses more of its score the farther it is, and in the causal
// case the bias doubles as the mask that hides future keys (math.Inf(-1)).
//
// Lesson 6 (ALiBi).
func ALiBiSlopes(heads int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/12_alibi.go")
}

// ALiBiBias: see ALiBiSlopes's comment above.
func ALiBiBias(slopes []float64, n int, causal bool) [][][]float64 {
	// TODO
	panic("not implemented yet: open exercises/12_alibi.go")
}
