package check

import "math"

// Learner-style implementations of exercise 19 (Stretching a learned table to a longer length), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutInterpolateSuite) }

func mutInterpolateSuite() suite {
	return mutSuite(19, InterpolateTable, mutInterpolate, map[string]*Hint{
		"integer_step":            hintInterpIntRatio,
		"step_l_over_n":           hintInterpEnds,
		"nearest_row":             hintInterpNearest,
		"weights_swapped":         hintInterpWeights,
		"next_row_past_the_end":   hintInterpLastRow,
		"one_row_divides_by_zero": hintInterpOneRow,
		"shares_rows":             hintInterpShares,
		"same_length_returns_it":  hintInterpShares,
		"shrinks_in_place":        hintInterpShares,
		"half_pixel_centres":      hintInterpHalfPixel,
		"aligned_at_the_end":      hintInterpEnds,
	})
}

func mutInterpolate(bug string) func(table [][]float64, newLen int) [][]float64 {
	return func(table [][]float64, newLen int) [][]float64 {
		l := len(table)
		if bug == "same_length_returns_it" && newLen == l { // nothing to stretch
			return table
		}
		var step float64
		switch {
		case bug == "integer_step" && newLen > 1:
			step = float64((l - 1) / (newLen - 1))
		case bug == "step_l_over_n":
			step = float64(l) / float64(newLen)
		case bug == "one_row_divides_by_zero" || newLen > 1:
			step = float64(l-1) / float64(newLen-1)
		}
		out := make([][]float64, newLen)
		for p := range out {
			x := float64(p) * step
			switch bug {
			case "half_pixel_centres": // PyTorch's align_corners=False
				x = (float64(p)+0.5)*float64(l)/float64(newLen) - 0.5
			case "aligned_at_the_end":
				x = float64(l-1) - float64(newLen-1-p)*float64(l)/float64(newLen)
			}
			x = math.Min(math.Max(x, 0), float64(l-1))
			lo := int(x)
			if lo > l-1 {
				lo = l - 1
			}
			hi := lo + 1
			if hi > l-1 && bug != "next_row_past_the_end" {
				hi = l - 1
			}
			t := x - float64(lo)
			if bug == "nearest_row" {
				lo = int(math.Round(x))
				if lo > l-1 {
					lo = l - 1
				}
				hi, t = lo, 0
			}
			if bug == "shares_rows" && t == 0 {
				out[p] = table[lo]
				continue
			}
			row := make([]float64, len(table[0]))
			for c := range row {
				if bug == "weights_swapped" {
					row[c] = t*table[lo][c] + (1-t)*table[hi][c]
				} else {
					row[c] = (1-t)*table[lo][c] + t*table[hi][c]
				}
			}
			out[p] = row
			if bug == "shrinks_in_place" && newLen < l { // row p is read no more
				copy(table[p], row)
				out[p] = table[p]
			}
		}
		return out
	}
}
