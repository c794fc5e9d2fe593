package exercises

import "math"

// YaRNInvFreq returns RoPE's d/2 frequencies under YaRN scaling (Peng et al.
// 2023, "YaRN: Efficient Context Window Extension of Large Language
// Models") for a model trained on originalLen positions with base base, run
// on a context factor times longer: fast pairs kept, slow pairs
// interpolated, a linear ramp in between. It must equal what Hugging Face's
// _compute_yarn_parameters returns with its defaults (beta_fast 32,
// beta_slow 1, truncate true) to 1e-9, for any configuration, including
// very short or very long originalLen and small bases, where its
// safeguards matter.
//
// YaRNAttentionFactor returns the factor YaRN multiplies cos and sin by (and
// so both queries and keys), for any factor, including factors ≤ 1.
//
// Read lesson 5, “YaRN: decide per pair, by wavelength”. The recipe, step
// by step, is in exercises/README.md's hints.
func YaRNInvFreq(d int, base, factor float64, originalLen int) []float64 {
	corr := func(rotations float64) float64 {
		return float64(d) * math.Log(float64(originalLen)/(2*math.Pi*rotations)) / (2 * math.Log(base))
	}
	low := math.Max(math.Floor(corr(32)), 0)           // pairs below it spin ≥ 32 times: keep them
	high := math.Min(math.Ceil(corr(1)), float64(d-1)) // pairs above it spin < once: interpolate them
	if low == high {
		high += 0.001
	}
	freq := make([]float64, d/2)
	for i := range freq {
		theta := math.Pow(base, -float64(2*i)/float64(d))
		ramp := math.Min(math.Max((float64(i)-low)/(high-low), 0), 1)
		freq[i] = theta/factor*ramp + theta*(1-ramp)
	}
	return freq
}

// YaRNAttentionFactor: see YaRNInvFreq's comment above.
func YaRNAttentionFactor(factor float64) float64 {
	return 0.1*math.Log(math.Max(factor, 1)) + 1 // ln(1) = 0: a factor ≤ 1 changes nothing
}
