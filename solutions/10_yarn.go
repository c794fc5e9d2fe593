package exercises

import "math"

// YaRNInvFreq returns RoPE's d/2 frequencies under YaRN scaling (Peng et al.
// 2023, "YaRN: Efficient Context Window Extension of Large Language Models"),
// exactly as Hugging Face's _compute_yarn_parameters computes them with
// beta_fast = 32 and beta_slow = 1, for a model trained on originalLen
// positions and a context factor times longer.
//
// YaRN keeps the fast pairs, interpolates the slow ones (divides their
// frequency by factor), and blends linearly in between. Pair i of the
// unscaled θ_i = base^(−2i/d) completes originalLen·θ_i/(2π) rotations over
// the trained context; the pair index at which that number equals β is
//
//	corr(β) = d · ln(originalLen / (2π·β)) / (2 · ln base)
//
// Then, in this order:
//
//	low  = max(floor(corr(32)), 0)
//	high = min(ceil(corr(1)), d−1)         (if low == high, add 0.001 to high)
//	ramp_i = clamp((i − low) / (high − low), 0, 1)     for i = 0, …, d/2−1
//	θ'_i = (θ_i / factor) · ramp_i + θ_i · (1 − ramp_i)
//
// YaRNAttentionFactor returns the factor YaRN multiplies cos and sin by
// (so both q and k), 0.1·ln(factor) + 1 with the natural logarithm, or 1 when
// factor ≤ 1.
//
// Lesson 5 (context extension), advanced.
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
	if factor <= 1 {
		return 1
	}
	return 0.1*math.Log(factor) + 1
}
