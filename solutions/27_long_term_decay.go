package exercises

import "math"

// KeepsLongTermDecay reports whether RoPE with the given base over a head
// of headDim dimensions keeps the long-term decay property of Men et al.
// (2024) over a context of contextLen tokens: for every distance m from 0
// to contextLen, contextLen included,
//
//	B(m) = Σ_i cos(m·ω_i) ≥ 0,   ω_i = base^(−2i/headDim), i = 0 … headDim/2 − 1
//
// headDim is even and positive, base > 1, contextLen ≥ 0.
//
// Read lesson 9, “How large must the base be?”.
// Hints: exercises/README.md.
func KeepsLongTermDecay(headDim int, base float64, contextLen int) bool {
	freq := make([]float64, headDim/2)
	for i := range freq {
		freq[i] = math.Pow(base, -2*float64(i)/float64(headDim))
	}
	// Every distance counts, not only the last: B(m) dips below zero and
	// can come back up.
	for m := 0; m <= contextLen; m++ {
		b := 0.0
		for _, w := range freq {
			b += math.Cos(float64(m) * w)
		}
		if math.Signbit(b) { // B(m) < 0
			return false
		}
	}
	return true
}
