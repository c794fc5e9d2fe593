package exercises

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
	// TODO
	panic("not implemented yet: open exercises/24_proportional_rope.go")
}
