package check

import "math"

// Learner-style implementations of exercise 26 (LongRoPE's switch), correct
// when bug is "" and otherwise wrong in one classic way: each must fail with
// the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutLongRoPESuite) }

func mutLongRoPESuite() suite {
	return mutSuite(26, LongRoPE, mutLongRoPE, map[string]*Hint{
		"switches_at_trained_length": hintLongAtTrained,
		"swaps_the_factors":          hintLongSwapped,
		"multiplies":                 hintLongMultiplies,
		"integer_exponent":           hintLongIntExponent,
		"no_square_root":             hintLongNoSqrt,
		"yarn_attention":             hintLongYaRN,
		"formula_below_one":          hintLongBelowOne,
		"log_ratio_inverted":         hintLongLogRatio,
		"scales_in_place":            hintLongMutates,
		"exponent_i_over_d":          hintLongNoTwo,
		"attention_when_long":        hintLongAttnOnlyLong,
		"attention_from_seq_len":     hintLongFactorFromLen,
	})
}

func mutLongRoPE(bug string) func(int, float64, []float64, []float64, float64, int, int) ([]float64, float64) {
	return func(headDim int, base float64, short, long []float64, factor float64, originalLen, seqLen int) ([]float64, float64) {
		useLong := seqLen > originalLen
		switch bug {
		case "switches_at_trained_length":
			useLong = seqLen >= originalLen
		case "swaps_the_factors":
			useLong = !useLong
		}
		lambda := short
		if useLong {
			lambda = long
		}
		freq := make([]float64, headDim/2)
		if bug == "scales_in_place" {
			freq = lambda[:headDim/2]
		}
		for i := range freq {
			e := float64(2*i) / float64(headDim)
			switch bug {
			case "integer_exponent":
				e = float64(2 * i / headDim)
			case "exponent_i_over_d":
				e = float64(i) / float64(headDim)
			}
			w := math.Pow(base, -e)
			if bug == "multiplies" {
				freq[i] = w * lambda[i]
			} else {
				freq[i] = w / lambda[i]
			}
		}
		l0 := float64(originalLen)
		attn := 1.0
		if bug == "attention_from_seq_len" {
			factor = float64(seqLen) / l0
		}
		if bug == "attention_when_long" && !useLong {
			factor = 1
		}
		if factor > 1 || bug == "formula_below_one" {
			switch bug {
			case "no_square_root":
				attn = 1 + math.Log(factor)/math.Log(l0)
			case "yarn_attention":
				attn = 0.1*math.Log(factor) + 1
			case "log_ratio_inverted":
				attn = math.Sqrt(1 + math.Log(l0)/math.Log(factor))
			default:
				attn = math.Sqrt(1 + math.Log(factor)/math.Log(l0))
			}
		}
		return freq, attn
	}
}
