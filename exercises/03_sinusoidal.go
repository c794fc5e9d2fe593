package exercises

// Sinusoidal returns the sinusoidal position table of "Attention Is All You
// Need" (Vaswani et al. 2017, section 3.5), in the paper's interleaved
// layout (sine and cosine of each frequency side by side), for the n
// positions start, start+1, …, start+n−1: row r is the d-dimensional
// encoding of position start+r. d is even.
//
// Every entry must match the paper's formula to 1e-9, including at
// positions around 1,000,000.
//
// Read lesson 2, “Deriving the formula”. Hints: exercises/README.md.
func Sinusoidal(start, n, d int) [][]float64 {
	// TODO
	panic("not implemented yet: open exercises/03_sinusoidal.go")
}
