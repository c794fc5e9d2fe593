package exercises

import "math"

// The three functions below return RoPE's d/2 frequencies θ_i (radians per
// position, i = 0, …, d/2−1) after scaling them for a context factor times
// longer than the one the model was trained on. Unscaled, θ_i = base^(−2i/d).
//
// LinearInvFreq is position interpolation (Chen et al. 2023): every
// frequency is divided by factor, θ_i = base^(−2i/d) / factor, so that
// position factor·p turns as far as position p used to.
//
// NTKInvFreq is "NTK-aware" scaling (bloc97, 2023): keep the formula but
// raise the base to base' = base · factor^(d/(d−2)). The exponent d/(d−2) is
// what makes the lowest frequency, i = d/2−1, exactly base^(−(d−2)/d)/factor
// while the highest, i = 0, stays 1: fast pairs keep their resolution and
// only slow ones are interpolated.
//
// DynamicNTKInvFreq is Hugging Face's "dynamic" NTK: the factor grows with
// the current sequence length L = max(seqLen, originalLen),
//
//	base' = base · (factor·L/originalLen − (factor−1))^(d/(d−2))
//
// which is the unscaled base up to originalLen.
//
// Lesson 5 (context extension). d is even and greater than 2; factor ≥ 1.
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
