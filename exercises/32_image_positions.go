package exercises

// ImageTextPositions returns the multimodal (M-RoPE) position IDs of a
// Qwen2-VL prompt made of textBefore text tokens, one image of gridH×gridW
// tokens (after the vision encoder's merge; one frame), and textAfter text
// tokens: one row []int{t, h, w} per token, in order, the image's patches
// row by row. A text token has the same ID on all three axes; the patches
// share one temporal ID and count their row (h) and column (w) from where
// the text stopped; the text after the image resumes just past the largest
// ID used so far.
//
// gridH and gridW are positive; textBefore and textAfter are ≥ 0.
//
// Read lesson 10, “Images: M-RoPE and 2-D RoPE”.
// Hints: exercises/README.md.
func ImageTextPositions(textBefore, gridH, gridW, textAfter int) [][]int {
	// TODO
	panic("not implemented yet: open exercises/32_image_positions.go")
}
