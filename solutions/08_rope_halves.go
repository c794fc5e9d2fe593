package exercises

import "math"

// RotateHalves is RotateInterleaved (exercise 7) in the half-split layout of
// GPT-NeoX and Hugging Face's rotate_half: pair i is (x[i], x[i+d/2]), rotated
// counterclockwise by pos·θ_i with θ_i = base^(−2i/d):
//
//	x'[i]     = x[i]·cos(pos·θ_i) − x[i+d/2]·sin(pos·θ_i)
//	x'[i+d/2] = x[i]·sin(pos·θ_i) + x[i+d/2]·cos(pos·θ_i)
//
// InterleavedToHalves converts a head vector from the interleaved layout to
// the half-split one: the pair at dimensions (2i, 2i+1) moves to (i, i+d/2),
// so out[i] = v[2i] and out[i+d/2] = v[2i+1]. Applied to the rows of a query
// and key projection, it is what lets a Meta Llama checkpoint run with
// Hugging Face's rotate_half, with exactly the same attention scores.
//
// Lesson 4 (RoPE). The two layouts rotate the same pairs with the same
// frequencies; only where the pairs live differs, so
// RotateHalves(InterleavedToHalves(x), pos, base) equals
// InterleavedToHalves(RotateInterleaved(x, pos, base)). Return new slices.
func RotateHalves(x []float64, pos int, base float64) []float64 {
	d := len(x)
	h := d / 2
	out := make([]float64, d)
	for i := range h {
		theta := math.Pow(base, -float64(2*i)/float64(d))
		s, c := math.Sincos(float64(pos) * theta)
		a, b := x[i], x[i+h]
		out[i] = a*c - b*s
		out[i+h] = a*s + b*c
	}
	return out
}

// InterleavedToHalves: see RotateHalves's comment above.
func InterleavedToHalves(v []float64) []float64 {
	h := len(v) / 2
	out := make([]float64, len(v))
	for i := range h {
		out[i], out[i+h] = v[2*i], v[2*i+1]
	}
	return out
}
