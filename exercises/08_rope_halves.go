package exercises

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
	// TODO
	panic("not implemented yet: open exercises/08_rope_halves.go")
}

// InterleavedToHalves: see RotateHalves's comment above.
func InterleavedToHalves(v []float64) []float64 {
	// TODO
	panic("not implemented yet: open exercises/08_rope_halves.go")
}
