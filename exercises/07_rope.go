package exercises

// RotateInterleaved applies rotary position embedding (RoPE; Su et al. 2021,
// "RoFormer") to one query or key head x, of even length d, at position pos,
// in the interleaved layout of RoFormer, GPT-J and Meta's Llama code, with
// frequency base base (10000 in the paper, 500000 in Llama 3).
//
// It returns a new slice and leaves x unchanged. The result must match the
// paper's rotation to 1e-9, including at positions around 1,000,000.
//
// Read lesson 4, “Rotating a pair”. Hints: exercises/README.md.
func RotateInterleaved(x []float64, pos int, base float64) []float64 {
	// TODO
	panic("not implemented yet: open exercises/07_rope.go")
}
