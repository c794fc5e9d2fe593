package exercises

// ShiftMatrix returns T_k, the d×d matrix that moves a sinusoidal encoding
// k positions forward: T_k · PE(pos) = PE(pos+k) for every position pos,
// with PE the interleaved table of exercise 3.
//
// Lesson 2 (sinusoidal encodings). Each pair (sin pω_i, cos pω_i) at
// dimensions (2i, 2i+1) is turned by the angle kω_i. Write sin((p+k)ω) and
// cos((p+k)ω) with the angle-addition formulas to find the 2×2 block, and put
// it on the diagonal at rows and columns 2i, 2i+1; every other entry is 0.
// T_k depends on k only, never on pos: that is why a linear layer can learn
// to attend by relative offset. k may be negative.
func ShiftMatrix(d, k int) [][]float64 {
	// TODO
	panic("not implemented yet: open exercises/05_shift_matrix.go")
}
