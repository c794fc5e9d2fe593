package check

import "math"

// Learner-style implementations of exercise 35 (Ministral 3's query
// scale), correct when bug is "" and otherwise wrong in one classic way:
// each must fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutQueryScaleSuite) }

func mutQueryScaleSuite() suite {
	return mutSuite(35, QueryScale, mutQueryScale, map[string]*Hint{
		"llama_4_shift": hintScaleShifted,
		"float_ratio":   hintScaleNoFloor,
		"log10":         hintScaleLogBase,
		"log2":          hintScaleLogBase,
		"log_of_count":  hintScaleNoOne,
	})
}

func mutQueryScale(bug string) func(pos int, beta float64, originalLen int) float64 {
	return func(pos int, beta float64, originalLen int) float64 {
		if bug == "llama_4_shift" {
			pos++
		}
		contexts := float64(pos / originalLen)
		if bug == "float_ratio" {
			contexts = float64(pos) / float64(originalLen)
		}
		switch bug {
		case "log10":
			return 1 + beta*math.Log10(1+contexts)
		case "log2":
			return 1 + beta*math.Log2(1+contexts)
		case "log_of_count":
			return 1 + beta*math.Log(contexts)
		}
		return 1 + beta*math.Log1p(contexts)
	}
}
