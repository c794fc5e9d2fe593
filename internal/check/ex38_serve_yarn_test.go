package check

import "math"

// Learner-style implementations of exercise 38 (YaRN's settings for a
// longer prompt), correct when bug is "" and otherwise wrong in one
// classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutServeSuite) }

func mutServeSuite() suite {
	return mutSuite(38, ServeYaRN, mutServe, map[string]*Hint{
		"int_division":  hintServeIntFactor,
		"inverted":      hintServeInverted,
		"always_scales": hintServeShort,
		"new_length":    hintServeOriginal,
		"squared":       hintServeSquared,
		"log2":          hintServeLogBase,
		"log10":         hintServeLogBase,
	})
}

func mutServe(bug string) func(longest, trainedLen int) (float64, int, float64) {
	return func(longest, trainedLen int) (float64, int, float64) {
		if longest <= trainedLen && bug != "always_scales" {
			return 1, trainedLen, 1
		}
		s := float64(longest) / float64(trainedLen)
		switch bug {
		case "int_division":
			s = float64(longest / trainedLen)
		case "inverted":
			s = float64(trainedLen) / float64(longest)
		}
		orig := trainedLen
		if bug == "new_length" {
			orig = longest
		}
		attn := 1 + 0.1*math.Log(s)
		switch bug {
		case "squared":
			attn *= attn
		case "log2":
			attn = 1 + 0.1*math.Log2(s)
		case "log10":
			attn = 1 + 0.1*math.Log10(s)
		}
		return s, orig, attn
	}
}
