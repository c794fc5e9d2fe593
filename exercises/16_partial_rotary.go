package exercises

// RotatePartial applies RoPE to the first rotaryDim dimensions of the head x
// only, as GPT-J's rotary_dim does (GPT-J rotates 64 of 256): those
// dimensions rotate exactly as a head of rotaryDim dimensions would in
// exercise 7, and the others pass through unchanged. It returns a new slice
// of len(x) values and leaves x unchanged; for a rotaryDim that cannot be
// rotated (odd, negative, or larger than len(x)) it returns nil.
//
// Read lesson 4, “Positions are just indices”. Hints: exercises/README.md.
func RotatePartial(x []float64, pos int, base float64, rotaryDim int) []float64 {
	// TODO
	panic("not implemented yet: open exercises/16_partial_rotary.go")
}
