package exercises

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
	// TODO
	panic("not implemented yet: open exercises/27_long_term_decay.go")
}
