package check

import "math"

// Learner-style implementations of exercise 24 (p-RoPE's frequencies),
// correct when bug is "" and otherwise wrong in one classic way: each must
// fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutProportionalSuite) }

func mutProportionalSuite() suite {
	return mutSuite(24, ProportionalRoPE, mutProportional, map[string]*Hint{
		"partial_denominator": hintPropDenominator,
		"rounds":              hintPropRound,
		"only_rotating":       hintPropLength,
		"integer_exponent":    hintPropIntExponent,
		"no_two":              hintPropNoTwo,
		"fraction_of_dims":    hintPropOfDims,
		"keeps_slow_pairs":    hintPropSlow,
		"int_proportion":      hintPropIntProportion,
		"grows":               hintPropExponentSign,
	})
}

func mutProportional(bug string) func(headDim int, proportion, base float64) []float64 {
	return func(headDim int, proportion, base float64) []float64 {
		half := headDim / 2
		k := int(math.Floor(proportion * float64(half)))
		switch bug {
		case "rounds":
			k = int(math.Round(proportion * float64(half)))
		case "fraction_of_dims":
			k = min(int(proportion*float64(headDim)), half)
		case "int_proportion":
			k = int(proportion) * half
		}
		n := half
		if bug == "only_rotating" {
			n = k
		}
		out := make([]float64, n)
		for j := range k {
			i := j
			if bug == "keeps_slow_pairs" {
				i = half - k + j
			}
			var e float64
			switch bug {
			case "partial_denominator":
				e = float64(2*i) / float64(2*k)
			case "integer_exponent":
				e = float64(2 * i / headDim)
			case "no_two":
				e = float64(i) / float64(headDim)
			default:
				e = float64(2*i) / float64(headDim)
			}
			if bug == "grows" {
				e = -e
			}
			out[i] = math.Pow(base, -e)
		}
		return out
	}
}
