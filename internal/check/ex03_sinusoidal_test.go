package check

import "math"

// Learner-style implementations of exercise 3 (The sinusoidal table), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutSinusoidalSuite) }

func mutSinusoidalSuite() suite {
	return mutSuite(3, Sinusoidal, mutSinusoidal, map[string]*Hint{
		"sin_cos_swapped":   hintSinusoidalSwapped,
		"sin_cos_halves":    hintSinusoidalHalves,
		"exponent_i_over_d": hintSinusoidalExponent,
		"dimension_index":   hintSinusoidalExponent,
		"integer_division":  hintSinusoidalIntDiv,
		"float32_angles":    hintSinusoidalFloat32,
		"ignores_start":     hintSinusoidalStart,
		"tensor2tensor":     hintSinusoidalHalves,
	})
}

func mutSinusoidal(bug string) func(start, n, d int) [][]float64 {
	return func(start, n, d int) [][]float64 {
		pe := make([][]float64, n)
		for r := range pe {
			pos := start + r
			if bug == "ignores_start" {
				pos = r
			}
			pe[r] = make([]float64, d)
			if bug == "dimension_index" { // each dimension j gets its own 10000^(j/d)
				for j := range d {
					angle := float64(pos) / math.Pow(10000, float64(j)/float64(d))
					if j%2 == 0 {
						pe[r][j] = math.Sin(angle)
					} else {
						pe[r][j] = math.Cos(angle)
					}
				}
				continue
			}
			for j := 0; j < d; j += 2 {
				i := j / 2
				expo := float64(2*i) / float64(d)
				switch bug {
				case "exponent_i_over_d":
					expo = float64(i) / float64(d)
				case "integer_division":
					expo = float64(2 * i / d)
				case "tensor2tensor": // get_timing_signal_1d: timescales 1 … 10000, [sin | cos]
					expo = float64(i) / float64(d/2-1)
				}
				angle := float64(pos) / math.Pow(10000, expo)
				if bug == "float32_angles" {
					angle = float64(float32(pos) / float32(math.Pow(10000, expo)))
				}
				s, c := math.Sin(angle), math.Cos(angle)
				switch bug {
				case "sin_cos_swapped":
					pe[r][j], pe[r][j+1] = c, s
				case "sin_cos_halves", "tensor2tensor":
					pe[r][i], pe[r][d/2+i] = s, c
				default:
					pe[r][j], pe[r][j+1] = s, c
				}
			}
		}
		return pe
	}
}
