package check

import "math"

// Learner-style implementations of exercise 27 (Is the base large enough?),
// correct when bug is "" and otherwise wrong in one classic way: each must
// fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutDecaySuite) }

func mutDecaySuite() suite {
	return mutSuite(27, LongTermDecay, mutDecay, map[string]*Hint{
		"only_the_last_distance": hintDecayOnlyLast,
		"stops_before_context":   hintDecayOffByOne,
		"sums_sines":             hintDecaySin,
		"integer_exponent":       hintDecayIntExponent,
		"sums_dimensions":        hintDecayDims,
		"exponent_i_over_d":      hintDecayNoTwo,
		"float32_angles":         hintDecayFloat32,
	})
}

func mutDecay(bug string) func(headDim int, base float64, contextLen int) bool {
	return func(headDim int, base float64, contextLen int) bool {
		var freq []float64
		if bug == "sums_dimensions" {
			for i := range headDim {
				freq = append(freq, math.Pow(base, -float64(i)/float64(headDim)))
			}
		} else {
			for i := range headDim / 2 {
				e := float64(2*i) / float64(headDim)
				switch bug {
				case "integer_exponent":
					e = float64(2 * i / headDim)
				case "exponent_i_over_d":
					e = float64(i) / float64(headDim)
				}
				freq = append(freq, math.Pow(base, -e))
			}
		}
		b := func(m int) float64 {
			s := 0.0
			for _, w := range freq {
				switch bug {
				case "sums_sines":
					s += math.Sin(float64(m) * w)
				case "float32_angles": // a float32 tensor holds m·ω
					s += math.Cos(float64(float32(float64(m) * w)))
				default:
					s += math.Cos(float64(m) * w)
				}
			}
			return s
		}
		if bug == "only_the_last_distance" {
			return b(contextLen) >= 0
		}
		for m := 0; m < contextLen || (m == contextLen && bug != "stops_before_context"); m++ {
			if b(m) < 0 {
				return false
			}
		}
		return true
	}
}
