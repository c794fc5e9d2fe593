package exercises

import "math"

// The three functions below return RoPE's d/2 frequencies (radians per
// position, fastest pair first) for a model trained with base base, scaled
// to run on a context factor times longer. d is even and greater than 2;
// factor ≥ 1.
//
// LinearInvFreq is position interpolation (Chen et al. 2023).
//
// NTKInvFreq is "NTK-aware" scaling (bloc97, 2023), which changes the base:
// the fastest pair keeps its frequency and the slowest one is divided by
// exactly factor.
//
// DynamicNTKInvFreq is Hugging Face's "dynamic" NTK for an input of seqLen
// tokens, on a model trained on originalLen: it changes nothing up to
// originalLen and grows with the input beyond it.
//
// Each must equal Hugging Face's inv_freq to 1e-9. Read lesson 5, from
// “Position interpolation: divide every frequency by s” to “Dynamic NTK: let
// the base grow with the input”. Hints: exercises/README.md.
func LinearInvFreq(d int, base, factor float64) []float64 {
	freq := ropeFrequencies(d, base)
	for i := range freq {
		freq[i] /= factor
	}
	return freq
}

// NTKInvFreq: see the comment above LinearInvFreq.
func NTKInvFreq(d int, base, factor float64) []float64 {
	return ropeFrequencies(d, base*math.Pow(factor, float64(d)/float64(d-2)))
}

// DynamicNTKInvFreq: see the comment above LinearInvFreq.
func DynamicNTKInvFreq(d int, base, factor float64, originalLen, seqLen int) []float64 {
	l := float64(max(seqLen, originalLen))
	grown := factor*l/float64(originalLen) - (factor - 1) // 1 up to originalLen
	return ropeFrequencies(d, base*math.Pow(grown, float64(d)/float64(d-2)))
}

// ropeFrequencies returns base^(−2i/d) for i = 0, …, d/2−1.
func ropeFrequencies(d int, base float64) []float64 {
	freq := make([]float64, d/2)
	for i := range freq {
		freq[i] = math.Pow(base, -float64(2*i)/float64(d))
	}
	return freq
}
