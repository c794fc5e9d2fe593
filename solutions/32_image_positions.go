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
	var ids [][]int
	for i := range textBefore {
		ids = append(ids, []int{i, i, i})
	}
	st := textBefore // 1 + the largest ID so far
	for y := range gridH {
		for x := range gridW {
			ids = append(ids, []int{st, st + y, st + x})
		}
	}
	// get_rope_index: the next segment starts at the largest ID + 1, which
	// is st + max(gridH, gridW) − 1 + 1, not st + gridH·gridW.
	next := st + max(gridH, gridW)
	for i := range textAfter {
		ids = append(ids, []int{next + i, next + i, next + i})
	}
	return ids
}
