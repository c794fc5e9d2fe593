package exercises

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
	// TODO
	panic("not implemented yet: open exercises/09_ntk.go")
}

// NTKInvFreq: see the comment above LinearInvFreq.
func NTKInvFreq(d int, base, factor float64) []float64 {
	// TODO
	panic("not implemented yet: open exercises/09_ntk.go")
}

// DynamicNTKInvFreq: see the comment above LinearInvFreq.
func DynamicNTKInvFreq(d int, base, factor float64, originalLen, seqLen int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/09_ntk.go")
}
