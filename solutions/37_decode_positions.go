package exercises

// DecodePositions returns the position ids of the next steps tokens that
// greedy generation appends to each row of a left-padded batch, after the
// prompts were prefilled with ids from their masks (transformers' rule:
// the real tokens of a row count 0, 1, 2, …). mask[r][i] is 1 for a real
// token of row r and 0 for a pad; every row has the same length (the
// pads make it so) and at least one real token. Row r's result holds steps
// ids, one per new token, in order. Leave mask unchanged.
//
// Read lesson 11, “Position ids in a batch”.
// Hints: exercises/README.md.
func DecodePositions(mask [][]int, steps int) [][]int {
	out := make([][]int, len(mask))
	for r, row := range mask {
		// The prompt's ids ran 0 … real−1; its cache slot, which counts
		// the pads too, is not its position.
		real := 0
		for _, m := range row {
			real += m
		}
		for s := range steps {
			out[r] = append(out[r], real+s)
		}
	}
	return out
}
