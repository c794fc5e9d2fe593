package exercises

import "math"

// AddPositions returns the input of a Transformer's first layer for token
// embeddings emb (n×d; row r is the token at position start+r): each
// embedding scaled as the paper scales it, plus the sinusoidal encoding of
// its position (the table of exercise 3; you may call your Sinusoidal).
//
// The result is a new n×d table; emb is left unchanged.
//
// Read lesson 2, “Scaling embeddings by √d_model”. Hints: exercises/README.md.
func AddPositions(emb [][]float64, start int) [][]float64 {
	out := make([][]float64, len(emb))
	for r, e := range emb {
		d := len(e)
		scale := math.Sqrt(float64(d))
		row := make([]float64, d)
		// The positional table is computed inline (rather than by calling
		// Sinusoidal) so that this file stands alone.
		pos := float64(start + r)
		for i := range d / 2 {
			s, c := math.Sincos(pos * math.Pow(10000, -float64(2*i)/float64(d)))
			row[2*i] = e[2*i]*scale + s
			row[2*i+1] = e[2*i+1]*scale + c
		}
		out[r] = row
	}
	return out
}
