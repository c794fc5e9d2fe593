package exercises

// PackedCausalMask returns the attention mask of documents packed one after
// another into a single row, lengths[i] tokens for document i: an n×n table
// (n the sum of lengths) where mask[i][j] says whether the token at i may
// attend to the token at j. A token sees itself and the tokens before it in
// its own document, and nothing of any other document.
//
// Every length is positive. Leave lengths unchanged.
//
// Read lesson 10, “Position IDs under padding and packing”.
// Hints: exercises/README.md.
func PackedCausalMask(lengths []int) [][]bool {
	// TODO
	panic("not implemented yet: open exercises/30_packed_mask.go")
}
