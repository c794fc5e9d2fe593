package exercises

// RoPEScores returns the n×n attention scores of one query vector q and one
// key vector k placed at every position 0 … n−1: entry [a][b] is the dot
// product of q rotated to position a and k rotated to position b (RoPE,
// interleaved, base base; you may call your RotateInterleaved).
//
// IsToeplitz reports whether every diagonal of s is constant within tol:
// whether s[i][j] and s[i+1][j+1] agree wherever both exist. Equal values
// agree, infinities included. s is rectangular, with any number of rows and
// columns (possibly none). A score matrix is Toeplitz exactly when each
// score depends on the offset between key and query only: the property that
// makes RoPE, ALiBi and T5 relative encodings.
//
// Read lesson 4, “Why the score depends only on m − n”. Hints:
// exercises/README.md.
func RoPEScores(q, k []float64, n int, base float64) [][]float64 {
	// TODO
	panic("not implemented yet: open exercises/15_relative_scores.go")
}

// IsToeplitz: see RoPEScores's comment above.
func IsToeplitz(s [][]float64, tol float64) bool {
	// TODO
	panic("not implemented yet: open exercises/15_relative_scores.go")
}
