package exercises

// LongRoPEInvFreq returns the inverse frequencies and the attention factor
// of LongRoPE (Phi-3, Phi-3.5, Phi-4-mini) for a head of headDim dimensions
// at the current sequence length seqLen:
//
//	ω_i = 1 / (λ_i · base^(2i/headDim)),  i = 0 … headDim/2 − 1
//
// where λ is short while the sequence fits the originalLen trained
// positions and long once it is longer. The attention factor multiplies
// cos and sin: √(1 + ln(factor)/ln(originalLen)), or 1 when factor ≤ 1.
//
// short and long hold headDim/2 positive values each; factor > 0,
// originalLen ≥ 2, seqLen ≥ 1. Leave the slices unchanged.
//
// Read lesson 9, “YaRN and LongRoPE as shipped”.
// Hints: exercises/README.md.
func LongRoPEInvFreq(headDim int, base float64, short, long []float64, factor float64, originalLen, seqLen int) (invFreq []float64, attention float64) {
	// TODO
	panic("not implemented yet: open exercises/26_longrope.go")
}
