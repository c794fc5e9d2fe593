package check

// Learner-style implementations of exercise 32 (M-RoPE IDs for text, an
// image, text), correct when bug is "" and otherwise wrong in one classic
// way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutImageSuite) }

func mutImageSuite() suite {
	return mutSuite(32, ImagePositions, mutImage, map[string]*Hint{
		"counts_tokens": hintImgCountsTokens,
		"from_zero":     hintImgFromZero,
		"swapped":       hintImgSwapped,
		"width_only":    hintImgWidthOnly,
		"no_gap":        hintImgNoGap,
	})
}

func mutImage(bug string) func(textBefore, gridH, gridW, textAfter int) [][]int {
	return func(textBefore, gridH, gridW, textAfter int) [][]int {
		ids := make([][]int, 0, textBefore+gridH*gridW+textAfter)
		for i := range textBefore {
			ids = append(ids, []int{i, i, i})
		}
		st := textBefore
		if bug == "from_zero" {
			st = 0
		}
		largest := st
		for y := range gridH {
			for x := range gridW {
				h, w := st+y, st+x
				if bug == "swapped" {
					h, w = w, h
				}
				ids = append(ids, []int{st, h, w})
				largest = max(largest, h, w)
			}
		}
		next := largest + 1
		switch bug {
		case "counts_tokens":
			next = textBefore + gridH*gridW
		case "width_only":
			next = st + gridW
		case "no_gap":
			next = largest
		}
		for i := range textAfter {
			ids = append(ids, []int{next + i, next + i, next + i})
		}
		return ids
	}
}
