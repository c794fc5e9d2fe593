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
		"height_only":   hintImgHeightOnly,
		"column_major":  hintImgColumnMajor,
		"t_zero":        hintImgTemporalZero,
		"h_plus_w":      hintImgResumesHW,
		"too_far":       hintImgTooFar,
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
		t := st
		if bug == "t_zero" {
			t = 0
		}
		for k := range gridH * gridW {
			y, x := k/gridW, k%gridW
			if bug == "column_major" { // patch k walks down the columns
				y, x = k%gridH, k/gridH
			}
			h, w := st+y, st+x
			if bug == "swapped" {
				h, w = w, h
			}
			ids = append(ids, []int{t, h, w})
			largest = max(largest, h, w)
		}
		next := largest + 1
		switch bug {
		case "counts_tokens":
			next = textBefore + gridH*gridW
		case "width_only":
			next = st + gridW
		case "no_gap":
			next = largest
		case "height_only":
			next = st + gridH
		case "h_plus_w":
			next = st + gridH + gridW
		case "too_far":
			next = largest + 2
		}
		for i := range textAfter {
			ids = append(ids, []int{next + i, next + i, next + i})
		}
		return ids
	}
}
