package exercises

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
	// TODO
	panic("not implemented yet: open exercises/10_yarn.go")
}

// YaRNAttentionFactor: see YaRNInvFreq's comment above.
func YaRNAttentionFactor(factor float64) float64 {
	// TODO
	panic("not implemented yet: open exercises/10_yarn.go")
}
