package check

// Learner-style implementations of exercise 29 (position IDs from a
// padding mask), correct when bug is "" and otherwise wrong in one classic
// way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutIDsSuite) }

func mutIDsSuite() suite {
	return mutSuite(29, PositionIDs, mutIDs, map[string]*Hint{
		"index":        hintIDsIndex,
		"no_minus_one": hintIDsNoMinusOne,
		"no_fill":      hintIDsNoFill,
		"pads_zero":    hintIDsPadsZero,
		"in_place":     hintIDsMutates,
	})
}

func mutIDs(bug string) func(mask []int) []int {
	return func(mask []int) []int {
		if bug == "in_place" { // a cumulative sum written into the mask
			out := make([]int, len(mask))
			for i := range mask {
				if i > 0 {
					mask[i] += mask[i-1]
				}
			}
			for i, m := range mask {
				out[i] = m - 1
				if i > 0 && m == mask[i-1] || i == 0 && m == 0 {
					out[i] = 1
				}
			}
			return out
		}
		out := make([]int, len(mask))
		count := 0
		for i, m := range mask {
			count += m
			switch {
			case bug == "index":
				out[i] = i
			case m == 0 && bug == "no_fill":
				out[i] = count - 1
			case m == 0 && bug == "pads_zero":
				out[i] = 0
			case m == 0:
				out[i] = 1
			case bug == "no_minus_one":
				out[i] = count
			default:
				out[i] = count - 1
			}
		}
		return out
	}
}
