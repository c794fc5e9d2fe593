package exercises

// RotateInterleaved applies rotary position embedding (RoPE; Su et al. 2021,
// "RoFormer") to one query or key head x of even length d at position pos:
// each pair (x[2i], x[2i+1]) is rotated counterclockwise by the angle pos·θ_i,
//
//	x'[2i]   = x[2i]·cos(pos·θ_i) − x[2i+1]·sin(pos·θ_i)
//	x'[2i+1] = x[2i]·sin(pos·θ_i) + x[2i+1]·cos(pos·θ_i),   θ_i = base^(−2i/d)
//
// Lesson 4 (RoPE). This is the interleaved layout of RoFormer, GPT-J and
// Meta's Llama code: pair i sits at dimensions 2i and 2i+1. base is 10000 in
// the paper and 500000 in Llama 3. Because rotations compose, the dot
// product of a query rotated to m and a key rotated to n depends on m−n only.
// Compute the angles in float64, and return a new slice: leave x unchanged.
func RotateInterleaved(x []float64, pos int, base float64) []float64 {
	// TODO
	panic("not implemented yet: open exercises/07_rope.go")
}
