package exercises

import "fmt"

// LearnedLookup returns the learned position embeddings at positions: row i
// of the result is a copy of table[positions[i]], where table is a trained
// max_len×d table (row p is the vector of position p, as in BERT and GPT-2).
//
// Lesson 3 (learned positions). A learned table has rows for positions 0,
// 1, …, max_len−1 only, with max_len = len(table). For any other position
// return a nil table and an error that names the offending position and
// max_len, for example "position 9 is past the learned table (max_len 4)":
// never clamp it to the last row or wrap it around, which would silently
// give a token someone else's position. Copy the rows, so that changing the
// result cannot change the table.
func LearnedLookup(table [][]float64, positions []int) ([][]float64, error) {
	// Check every position before copying anything.
	for _, p := range positions {
		if p < 0 || p >= len(table) {
			return nil, fmt.Errorf("position %d is past the learned table (max_len %d): valid positions are 0 to %d",
				p, len(table), len(table)-1)
		}
	}
	out := make([][]float64, len(positions))
	for i, p := range positions {
		out[i] = append([]float64(nil), table[p]...)
	}
	return out, nil
}
