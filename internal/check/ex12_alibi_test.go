package check

import "math"

// Learner-style implementations of exercise 12 (ALiBi slopes for any head count, and the bias), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutALiBiSuite) }

type mutALiBiFuncs struct {
	slopes func(heads int) []float64
	bias   func(slopes []float64, n int, causal bool) [][][]float64
}

func mutALiBiSuite() suite {
	build := func(f mutALiBiFuncs, c ALiBiCases) *Exercise { return ALiBi(f.slopes, f.bias, c) }
	return mutSuite(12, build, mutALiBi, map[string]*Hint{
		"plain_geometric":     hintALiBiGeometric,
		"k_from_zero":         hintALiBiFromZero,
		"even_extras":         hintALiBiParity,
		"first_extras":        hintALiBiFirstExtras,
		"integer_division":    hintALiBiIntDiv,
		"positive_bias":       hintALiBiSign,
		"no_absolute_value":   hintALiBiAbs,
		"no_causal_mask":      hintALiBiMask,
		"mask_before_query":   hintALiBiMaskSide,
		"large_negative_mask": hintALiBiLargeNegative,
	})
}

func mutALiBi(bug string) mutALiBiFuncs {
	powerOfTwo := func(n int) []float64 {
		start := math.Pow(2, -8/float64(n))
		if bug == "integer_division" {
			start = math.Pow(2, float64(-8/n))
		}
		out := []float64{}
		m := start
		if bug == "k_from_zero" {
			m = 1
		}
		for range n {
			out = append(out, m)
			m *= start
		}
		return out
	}
	slopes := func(heads int) []float64 {
		if bug == "plain_geometric" || heads&(heads-1) == 0 {
			return powerOfTwo(heads)
		}
		p := 1 << int(math.Floor(math.Log2(float64(heads))))
		extra := powerOfTwo(2 * p)
		first, step := 0, 2
		switch bug {
		case "even_extras":
			first = 1
		case "first_extras":
			step = 1
		}
		out := powerOfTwo(p)
		for k := first; len(out) < heads; k += step {
			out = append(out, extra[k])
		}
		return out
	}
	bias := func(slopes []float64, n int, causal bool) [][][]float64 {
		out := make([][][]float64, len(slopes))
		for h, m := range slopes {
			out[h] = make([][]float64, n)
			for i := range out[h] {
				out[h][i] = make([]float64, n)
				for j := range out[h][i] {
					dist := float64(i - j)
					if dist < 0 && bug != "no_absolute_value" {
						dist = -dist
					}
					b := -m * dist
					if bug == "positive_bias" {
						b = m * dist
					}
					future := j > i
					if bug == "mask_before_query" {
						future = j < i
					}
					if causal && future && bug != "no_causal_mask" {
						b = math.Inf(-1)
						if bug == "large_negative_mask" {
							b = -1e9
						}
					}
					out[h][i][j] = b
				}
			}
		}
		return out
	}
	return mutALiBiFuncs{slopes, bias}
}
