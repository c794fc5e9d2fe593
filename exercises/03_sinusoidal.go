package exercises

// Sinusoidal returns the sinusoidal position table of "Attention Is All You
// Need" (Vaswani et al. 2017, section 3.5) for the n positions start,
// start+1, …, start+n−1: row r is the d-dimensional encoding of position
// pos = start+r, with
//
//	PE(pos, 2i)   = sin(pos · ω_i)
//	PE(pos, 2i+1) = cos(pos · ω_i),   ω_i = 1 / 10000^(2i/d),   i = 0, …, d/2−1
//
// Lesson 2 (sinusoidal encodings). d is even. Sine goes in the even
// dimensions and cosine in the odd ones, pair by pair (interleaved), and both
// members of pair i share one frequency. Compute the angle pos·ω_i in
// float64: the tests include positions around 1,000,000.
func Sinusoidal(start, n, d int) [][]float64 {
	// TODO
	panic("not implemented yet: open exercises/03_sinusoidal.go")
}
