package check

import "math"

// Learner-style implementations of exercise 9 (Linear, NTK-aware and dynamic NTK frequencies), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutNTKSuite) }

// mutFreqs returns base^(−2i/d) for every pair, the way the learner's helper
// would, with 2i/d in integers for the "integer_division" bug.
func mutFreqs(bug string, d int, base float64) []float64 {
	out := []float64{}
	for j := 0; j < d; j += 2 {
		e := float64(j) / float64(d)
		if bug == "integer_division" {
			e = float64(j / d)
		}
		out = append(out, 1/math.Pow(base, e))
	}
	return out
}

type mutNTKFuncs struct {
	linear, ntk func(d int, base, factor float64) []float64
	dynamic     func(d int, base, factor float64, originalLen, seqLen int) []float64
}

func mutNTKSuite() suite {
	build := func(f mutNTKFuncs, c NTKCases) *Exercise { return NTK(f.linear, f.ntk, f.dynamic, c) }
	return mutSuite(9, build, mutNTK, map[string]*Hint{
		"linear_multiplies":        hintLinearMultiplied,
		"integer_division":         hintScaledIntDiv,
		"ntk_no_exponent":          hintNTKExponent,
		"ntk_int_exponent":         hintNTKExponent,
		"ntk_exponent_upside_down": hintNTKInverseExponent,
		"ntk_divides_all":          hintNTKIsLinear,
		"dynamic_no_max":           hintDynamicMax,
		"dynamic_static":           hintDynamicStatic,
		"dynamic_no_offset":        hintDynamicOffset,
		"dynamic_int_ratio":        hintDynamicIntDiv,
	})
}

func mutNTK(bug string) mutNTKFuncs {
	linear := func(d int, base, factor float64) []float64 {
		f := mutFreqs(bug, d, base)
		for i := range f {
			if bug == "linear_multiplies" {
				f[i] *= factor
			} else {
				f[i] /= factor
			}
		}
		return f
	}
	ntkBase := func(d int, base, factor float64) float64 {
		switch bug {
		case "ntk_no_exponent":
			return base * factor
		case "ntk_int_exponent":
			return base * math.Pow(factor, float64(d/(d-2)))
		case "ntk_exponent_upside_down":
			return base * math.Pow(factor, float64(d-2)/float64(d))
		}
		return base * math.Pow(factor, float64(d)/(float64(d)-2))
	}
	ntk := func(d int, base, factor float64) []float64 {
		if bug == "ntk_divides_all" {
			f := mutFreqs(bug, d, base)
			for i := range f {
				f[i] /= factor
			}
			return f
		}
		return mutFreqs(bug, d, ntkBase(d, base, factor))
	}
	dynamic := func(d int, base, factor float64, originalLen, seqLen int) []float64 {
		l := seqLen
		if bug != "dynamic_no_max" && seqLen < originalLen {
			l = originalLen
		}
		ratio := float64(l) / float64(originalLen)
		if bug == "dynamic_int_ratio" {
			ratio = float64(l / originalLen)
		}
		s := factor*ratio - (factor - 1)
		switch bug {
		case "dynamic_static":
			s = factor
		case "dynamic_no_offset":
			s = factor * ratio
		}
		return mutFreqs(bug, d, ntkBase(d, base, s))
	}
	return mutNTKFuncs{linear, ntk, dynamic}
}
