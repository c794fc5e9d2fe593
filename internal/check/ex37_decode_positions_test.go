package check

// Learner-style implementations of exercise 37 (position ids while
// decoding a left-padded batch), correct when bug is "" and otherwise wrong
// in one classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutDecodeSuite) }

func mutDecodeSuite() suite {
	return mutSuite(37, DecodePositions, mutDecode, map[string]*Hint{
		"cache_slot": hintDecodeSlot,
		"last_id":    hintDecodeRepeat,
		"from_one":   hintDecodeOneTooMany,
		"in_place":   hintDecodeMutates,
	})
}

func mutDecode(bug string) func(mask [][]int, steps int) [][]int {
	return func(mask [][]int, steps int) [][]int {
		counts := make([]int, len(mask))
		for r, row := range mask {
			for i, m := range row {
				if m == 1 {
					counts[r]++
				}
				if bug == "in_place" && i > 0 { // a running count written into the mask
					row[i] += row[i-1]
				}
			}
		}
		out := make([][]int, len(mask))
		for r, row := range mask {
			next := counts[r]
			switch bug {
			case "cache_slot":
				next = len(row)
			case "last_id":
				next = counts[r] - 1
			case "from_one":
				next = counts[r] + 1
			}
			for s := range steps {
				out[r] = append(out[r], next+s)
			}
		}
		return out
	}
}
