package exercises

import "math"

// RotateHalves is RotateInterleaved (exercise 7) in the half-split layout of
// GPT-NeoX and Hugging Face's rotate_half.
//
// InterleavedToHalves converts a head vector from the interleaved layout to
// the half-split one, so that RotateHalves(InterleavedToHalves(x), pos, base)
// equals InterleavedToHalves(RotateInterleaved(x, pos, base)). Applied to a
// checkpoint's query and key projections, it is what lets Meta's Llama
// weights run with rotate_half, with exactly the same attention scores.
//
// Both return new slices. Read lesson 4, “Two layouts, one rotation” and
// “Converting checkpoints”. Hints: exercises/README.md.
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
