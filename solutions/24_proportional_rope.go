package exercises

import "math"

// ProportionalInvFreq returns the inverse frequencies of p-RoPE
// ("proportional" RoPE, Gemma 4's global layers) for a head of headDim
// dimensions: one frequency per pair, headDim/2 in all. The first
// ⌊proportion·headDim/2⌋ pairs rotate with the frequencies full RoPE gives
// them, ω_i = base^(−2i/headDim), the whole head as the denominator; every
// other pair has frequency 0 and does not rotate.
//
// headDim is even and positive, proportion is in [0, 1], base > 1.
//
// Read lesson 9, “p-RoPE is not partial rotary”.
// Hints: exercises/README.md.
func ProportionalInvFreq(headDim int, proportion, base float64) []float64 {
	half := headDim / 2
	// Floor, as Hugging Face's int(proportion * head_dim // 2): 0.3 of 12
	// dimensions is 1.8 pairs, so 1 rotates.
	rotating := int(math.Floor(proportion * float64(half)))
	freq := make([]float64, half) // the pairs past rotating stay 0
	for i := range rotating {
		// The denominator is the whole head, not the rotating width: these
		// are full RoPE's fastest frequencies, unchanged.
		freq[i] = math.Pow(base, -2*float64(i)/float64(headDim))
	}
	return freq
}
