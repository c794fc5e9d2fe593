package exercises

// Llama3InvFreq returns RoPE's d/2 frequencies under Llama 3.1's scaling
// (Hugging Face rope_type "llama3", low_freq_factor 1, high_freq_factor 4),
// for a model trained on originalLen positions and a context factor times
// longer.
//
// Each pair i has the unscaled frequency θ_i = base^(−2i/d) and the
// wavelength λ_i = 2π/θ_i, in positions. With L = originalLen:
//
//	λ_i < L/4            (fast: many turns in the context)    keep θ_i
//	λ_i > L              (slow: less than one turn)           θ_i / factor
//	otherwise            smooth = (L/λ_i − 1) / (4 − 1)
//	                     θ'_i = (1 − smooth)·θ_i/factor + smooth·θ_i
//
// Lesson 5 (context extension). Llama 3.1 uses d = 128, base 500000,
// factor 8 and originalLen 8192.
func Llama3InvFreq(d int, base, factor float64, originalLen int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/11_llama3.go")
}
