package exercises

import "math"

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
	table := make([][]float64, n)
	for r := range table {
		pos := float64(start + r)
		row := make([]float64, d)
		for i := range d / 2 {
			omega := math.Pow(10000, -float64(2*i)/float64(d)) // pair i's frequency
			row[2*i], row[2*i+1] = math.Sincos(pos * omega)
		}
		table[r] = row
	}
	return table
}
