package check

import (
	"errors"
	"fmt"
)

// Learner-style implementations of exercise 6 (Learned lookup, with a max-length error), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutLearnedSuite) }

func mutLearnedSuite() suite {
	return mutSuite(6, LearnedLookup, mutLearned, map[string]*Hint{
		"clamps":              hintLearnedClamp,
		"wraps_around":        hintLearnedWrap,
		"less_or_equal":       hintLearnedOffByOne,
		"rejects_last_row":    hintLearnedOffByOne,
		"no_negative_check":   hintLearnedNegative,
		"vague_error":         hintLearnedErrorText,
		"partial_on_error":    hintLearnedNilOnError,
		"shares_table_rows":   hintLearnedAliases,
		"checks_from_index_1": hintLearnedFirstPosition,
	})
}

func mutLearned(bug string) func(table [][]float64, positions []int) ([][]float64, error) {
	return func(table [][]float64, positions []int) ([][]float64, error) {
		if bug == "checks_from_index_1" { // checks first, copies after, but the check skips positions[0]
			for i := 1; i < len(positions); i++ {
				if p := positions[i]; p < 0 || p >= len(table) {
					return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
			}
			var out [][]float64
			for _, p := range positions {
				out = append(out, append([]float64(nil), table[p]...))
			}
			return out, nil
		}
		out := make([][]float64, 0, len(positions))
		for _, p := range positions {
			bad := p < 0 || p >= len(table)
			switch bug {
			case "clamps":
				p, bad = min(max(p, 0), len(table)-1), false
			case "wraps_around":
				p, bad = ((p%len(table))+len(table))%len(table), false
			case "less_or_equal":
				bad = p < 0 || p > len(table)
			case "rejects_last_row":
				bad = p < 0 || p >= len(table)-1
			case "no_negative_check":
				bad = p >= len(table)
			}
			if bad {
				switch bug {
				case "vague_error":
					return nil, errors.New("position out of range")
				case "partial_on_error":
					return out, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
				return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
			}
			if bug == "shares_table_rows" {
				out = append(out, table[p])
			} else {
				out = append(out, append([]float64(nil), table[p]...))
			}
		}
		return out, nil
	}
}
