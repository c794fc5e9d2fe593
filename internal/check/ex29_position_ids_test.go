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
		"from_first":   hintIDsFromFirst,
		"restart":      hintIDsRestart,
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
		// Written as a learner would, apart from refIDs: a running position
		// for the real tokens, something for the pads.
		out := make([]int, len(mask))
		pos := -1
		if bug == "no_minus_one" {
			pos = 0 // counts real tokens from 1
		}
		sum, first := 0, -1
		for i, m := range mask {
			if m == 1 && first < 0 {
				first = i
			}
			switch {
			case bug == "from_first" && m == 1: // the offset of the first real token
				out[i] = i - first
			case bug == "restart" && m == 0: // a pad ends the sequence
				out[i], pos = 1, -1
			case bug == "index": // the mask ignored: positions 0, 1, 2, …
				out[i] = i
			case bug == "no_fill": // cumsum − 1 everywhere, pads not overwritten
				sum += m
				out[i] = sum - 1
			case m == 1:
				pos++
				out[i] = pos
			case bug == "pads_zero":
				out[i] = 0
			default:
				out[i] = 1
			}
		}
		return out
	}
}
