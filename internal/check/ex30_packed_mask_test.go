package check

// Learner-style implementations of exercise 30 (the mask of packed
// documents), correct when bug is "" and otherwise wrong in one classic
// way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutMaskSuite) }

func mutMaskSuite() suite {
	return mutSuite(30, PackedMask, mutMask, map[string]*Hint{
		"plain_causal": hintMaskPlainCausal,
		"full_blocks":  hintMaskFullBlocks,
		"upper":        hintMaskUpper,
		"no_self":      hintMaskNoSelf,
		"in_place":     hintMaskMutates,
		"one_row":      hintMaskSharedRows,
		"no_offset":    hintMaskNoOffset,
		"last_skipped": hintMaskLastMissing,
	})
}

func mutMask(bug string) func(lengths []int) [][]bool {
	return func(lengths []int) [][]bool {
		n := 0
		for _, l := range lengths {
			n += l
		}
		mask := make([][]bool, n)
		row := make([]bool, n)
		for i := range mask {
			mask[i] = make([]bool, n)
			if bug == "one_row" { // one buffer for every row
				mask[i] = row
			}
		}
		start := 0
		for d, l := range lengths {
			if bug == "last_skipped" && d == len(lengths)-1 {
				break
			}
			for i := start; i < start+l; i++ {
				lo, hi := start, i
				switch bug {
				case "no_offset": // positions inside the document used as columns
					lo, hi = 0, i-start
				case "plain_causal":
					lo = 0
				case "full_blocks":
					hi = start + l - 1
				case "no_self":
					hi = i - 1
				}
				for j := lo; j <= hi; j++ {
					if bug == "upper" {
						mask[j][i] = true
					} else {
						mask[i][j] = true
					}
				}
			}
			start += l
			if bug == "in_place" {
				lengths[d] = start // turned into end offsets
			}
		}
		return mask
	}
}
