package exercises

// Llama3InvFreq returns RoPE's d/2 frequencies under Llama 3.1's scaling
// (Hugging Face rope_type "llama3", low_freq_factor 1, high_freq_factor 4)
// for a model trained on originalLen positions with base base, run on a
// context factor times longer: pairs whose wavelength is short compared with
// originalLen are kept, long ones are divided by factor, and the ones in
// between are blended smoothly. It must equal Hugging Face's inv_freq to
// 1e-9, for any originalLen (not only multiples of 4).
//
// Llama 3.1 itself uses d = 128, base 500000, factor 8 and originalLen 8192.
//
// Read lesson 5, “Llama 3: the same idea, in wavelengths”. Hints:
// exercises/README.md.
func Llama3InvFreq(d int, base, factor float64, originalLen int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/11_llama3.go")
}
