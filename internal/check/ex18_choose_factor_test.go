package check

import "math"

// Learner-style implementations of exercise 18 (Choosing a scaling factor), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutChooseFactorSuite) }

type mutChooseFuncs struct {
	past   func(d int, base float64, trainLen, targetLen int) []int
	factor func(d int, base float64, trainLen, targetLen int) float64
}

func mutChooseFactorSuite() suite {
	build := func(f mutChooseFuncs, c ChooseFactorCases) *Exercise { return ChooseFactor(f.past, f.factor, c) }
	return mutSuite(18, build, mutChoose, map[string]*Hint{
		"radians_not_turns":      hintPastTwoPi,
		"decides_at_target":      hintPastTargetLen,
		"ignores_length":         hintPastNotLonger,
		"finished_pairs":         hintPastComplement,
		"integer_ratio":          hintFactorIntRatio,
		"integer_exponent":       hintFactorIntExponent,
		"last_pair":              hintFactorExponentOne,
		"exponent_with_d":        hintFactorExponent,
		"zero_when_none":         hintFactorNone,
		"skips_pair_0":           hintFactorImpossible,
		"pairs_from_1":           hintPastFirstPair,
		"pairs_integer_exponent": hintScaledIntDiv,
	})
}

func mutChoose(bug string) mutChooseFuncs {
	past := func(d int, base float64, trainLen, targetLen int) []int {
		var out []int
		if bug != "ignores_length" && targetLen <= trainLen {
			return out
		}
		first := 0
		if bug == "pairs_from_1" {
			first = 1
		}
		for i := first; i < d/2; i++ {
			expo := float64(2*i) / float64(d)
			if bug == "pairs_integer_exponent" {
				expo = float64(2 * i / d)
			}
			theta := 1 / math.Pow(base, expo)
			length := trainLen
			if bug == "decides_at_target" {
				length = targetLen
			}
			turn := 2 * math.Pi
			if bug == "radians_not_turns" {
				turn = 1
			}
			unfinished := float64(length)*theta < turn
			if bug == "finished_pairs" {
				unfinished = !unfinished
			}
			if unfinished {
				out = append(out, i)
			}
		}
		return out
	}
	factor := func(d int, base float64, trainLen, targetLen int) float64 {
		p := past(d, base, trainLen, targetLen)
		if bug == "skips_pair_0" && len(p) > 0 && p[0] == 0 {
			p = p[1:]
		}
		if len(p) == 0 {
			if bug == "zero_when_none" {
				return 0
			}
			return 1
		}
		i := p[0]
		if bug == "last_pair" {
			i = p[len(p)-1]
		}
		r := float64(targetLen) / float64(trainLen)
		if bug == "integer_ratio" {
			r = float64(targetLen / trainLen)
		}
		e := float64(d-2) / float64(2*i)
		switch bug {
		case "integer_exponent":
			e = float64((d - 2) / (2 * i))
		case "exponent_with_d":
			e = float64(d) / float64(2*i)
		}
		return math.Pow(r, e)
	}
	return mutChooseFuncs{past, factor}
}
