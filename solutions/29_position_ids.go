package exercises

// PositionIDsFromMask returns the position ID of each token of one row of a
// padded batch, from its attention mask: 1 for a real token, 0 for a pad.
// Real tokens count from 0, whatever padding comes before them, so that a
// left-padded prompt gets the IDs it would get alone; every pad gets ID 1,
// as Hugging Face transformers fills them. The mask may pad on either side,
// and in the middle: a right-padded prompt followed by generated tokens.
//
// mask holds only 0s and 1s. Leave it unchanged.
//
// Read lesson 10, “Position IDs under padding and packing”.
// Hints: exercises/README.md.
func PositionIDsFromMask(mask []int) []int {
	ids := make([]int, len(mask))
	count := 0 // attention_mask.cumsum(-1): real tokens so far, this one included
	for i, m := range mask {
		count += m
		if m == 0 {
			ids[i] = 1 // masked_fill_(attention_mask == 0, 1): hidden by the mask anyway
			continue
		}
		ids[i] = count - 1
	}
	return ids
}
