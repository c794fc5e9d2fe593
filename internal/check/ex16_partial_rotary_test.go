package check

import "math"

// Learner-style implementations of exercise 16 (Partial rotary: rotate only the first dimensions), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutPartialRotarySuite) }

func mutPartialRotarySuite() suite {
	return mutSuite(16, PartialRotary, mutPartial, map[string]*Hint{
		"frequencies_from_d":             hintPartialHeadDim,
		"rotates_the_last":               hintPartialWhichDims,
		"drops_the_tail":                 hintPartialTail,
		"zeros_the_tail":                 hintPartialTail,
		"rotates_everything":             hintPartialAll,
		"half_split":                     hintPartialHalves,
		"no_validation":                  hintPartialInvalid,
		"in_place":                       hintPartialMutates,
		"returns_x_when_nothing_rotates": hintPartialMutates,
		"in_place_when_all_rotate":       hintPartialMutates,
		"integer_exponent":               hintRoPEIntDiv,
	})
}

func mutPartial(bug string) func(x []float64, pos int, base float64, rotaryDim int) []float64 {
	return func(x []float64, pos int, base float64, rotaryDim int) []float64 {
		d := len(x)
		if bug != "no_validation" && (rotaryDim < 0 || rotaryDim > d || rotaryDim%2 == 1) {
			return nil
		}
		if bug == "returns_x_when_nothing_rotates" && rotaryDim == 0 {
			return x
		}
		r := rotaryDim
		if bug == "rotates_everything" {
			r = d
		}
		out := make([]float64, d)
		switch bug {
		case "in_place":
			out = x
		case "in_place_when_all_rotate":
			if r == d {
				out = x
			} else {
				copy(out, x)
			}
		case "zeros_the_tail":
		default:
			copy(out, x)
		}
		from := 0
		if bug == "rotates_the_last" {
			from = d - r
		}
		dim := r
		if bug == "frequencies_from_d" {
			dim = d
		}
		part := append([]float64(nil), x[from:from+r]...)
		for i := 0; i < r/2; i++ {
			expo := float64(2*i) / float64(dim)
			if bug == "integer_exponent" {
				expo = float64(2 * i / dim)
			}
			angle := float64(pos) * math.Pow(base, -expo)
			c, s := math.Cos(angle), math.Sin(angle)
			a, b := 2*i, 2*i+1
			if bug == "half_split" {
				a, b = i, i+r/2
			}
			out[from+a] = part[a]*c - part[b]*s
			out[from+b] = part[a]*s + part[b]*c
		}
		if bug == "drops_the_tail" {
			return out[:r]
		}
		return out
	}
}
