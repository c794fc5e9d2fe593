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
	// TODO
	panic("not implemented yet: open exercises/37_decode_positions.go")
}
