package exercises

// ShiftMatrix returns T_k, the d×d matrix that moves a sinusoidal encoding
// (exercise 3's interleaved table) k positions along: T_k · PE(pos) =
// PE(pos+k) for every position pos. k may be negative or zero.
//
// T_k depends on k only, never on pos: that is why a linear layer can learn
// to attend by relative offset.
//
// Read lesson 2, “Shifting is a rotation”. Hints: exercises/README.md.
func ShiftMatrix(d, k int) [][]float64 {
	// TODO
	panic("not implemented yet: open exercises/05_shift_matrix.go")
}
