package exercises

// RoPE rotates each query and key by its own position, so positions can be
// anything an application needs. The three functions below are the two
// cases every inference engine meets.
//
// CachePositions returns the positions of n new tokens appended to a KV
// cache that already holds cacheLen tokens.
//
// PackedPositions returns the position of every token of several documents
// packed one after another in a single row, lengths[i] tokens for document
// i, so that no document sees where the others start or how long they are.
//
// RotateAt returns the rows of x (each one query or key head, interleaved
// layout) rotated with RoPE at base base, row r at position positions[r]
// (you may call your RotateInterleaved from exercise 7). It returns nil when
// positions does not have one entry per row, and leaves x unchanged.
//
// Read lesson 4, “Positions are just indices”. Hints: exercises/README.md.
func CachePositions(cacheLen, n int) []int {
	positions := make([]int, n)
	for i := range positions {
		positions[i] = cacheLen + i // the cache holds 0 … cacheLen−1
	}
	return positions
}

// PackedPositions: see CachePositions's comment above.
func PackedPositions(lengths []int) []int {
	var positions []int
	for _, n := range lengths {
		for p := range n { // every document starts again at 0
			positions = append(positions, p)
		}
	}
	return positions
}

// RotateAt: see CachePositions's comment above.
func RotateAt(x [][]float64, positions []int, base float64) [][]float64 {
	if len(positions) != len(x) {
		return nil
	}
	out := make([][]float64, len(x))
	for r, row := range x {
		out[r] = RotateInterleaved(row, positions[r], base)
	}
	return out
}
