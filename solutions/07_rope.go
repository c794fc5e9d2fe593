package exercises

import "math"

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
	d := len(x)
	out := make([]float64, d)
	for i := range d / 2 {
		theta := math.Pow(base, -float64(2*i)/float64(d))
		s, c := math.Sincos(float64(pos) * theta)
		a, b := x[2*i], x[2*i+1]
		out[2*i] = a*c - b*s
		out[2*i+1] = a*s + b*c
	}
	return out
}
