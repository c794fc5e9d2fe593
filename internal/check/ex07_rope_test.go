package check

import "math"

// Learner-style implementations of exercise 7 (RoPE, interleaved), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutRoPESuite) }

// mutRotate is a learner's RoPE in either layout ("interleaved" or "halves").
func mutRotate(layout, bug string) func(x []float64, pos int, base float64) []float64 {
	return func(x []float64, pos int, base float64) []float64 {
		if bug == "returns_x_at_position_0" && pos == 0 { // nothing turns
			return x
		}
		d := len(x)
		out := make([]float64, d)
		if bug == "in_place" {
			out = x
		}
		src := append([]float64(nil), x...)
		for i := 0; i < d/2; i++ {
			expo := float64(2*i) / float64(d)
			switch bug {
			case "exponent_i_over_d":
				expo = float64(i) / float64(d)
			case "integer_division":
				expo = float64(2 * i / d)
			}
			b := base
			if bug == "ignores_base" {
				b = 10000
			}
			angle := float64(pos) * math.Pow(b, -expo)
			if bug == "float32_angles" {
				angle = float64(float32(pos) * float32(math.Pow(b, -expo)))
			}
			if bug == "wrong_way" {
				angle = -angle
			}
			c, s := math.Cos(angle), math.Sin(angle)
			l := layout
			if bug == "other_layout" {
				l = map[string]string{"interleaved": "halves", "halves": "interleaved"}[layout]
			}
			j, k := 2*i, 2*i+1
			if l == "halves" {
				j, k = i, i+d/2
			}
			if bug == "overwrite" { // rotates in place, reading back the new first member
				out[j], out[k] = src[j], src[k]
				out[j] = out[j]*c - out[k]*s
				out[k] = out[j]*s + out[k]*c
				continue
			}
			out[j] = src[j]*c - src[k]*s
			out[k] = src[j]*s + src[k]*c
		}
		return out
	}
}

var ropeBugs = []string{"wrong_way", "other_layout", "exponent_i_over_d", "integer_division", "ignores_base",
	"float32_angles", "in_place", "returns_x_at_position_0", "overwrite"}

func ropeBugHints(other *Hint) map[string]*Hint {
	return map[string]*Hint{
		"wrong_way":               hintRoPEWrongWay,
		"other_layout":            other,
		"exponent_i_over_d":       hintRoPEExponent,
		"integer_division":        hintRoPEIntDiv,
		"ignores_base":            hintRoPEBase,
		"float32_angles":          hintRoPEFloat32,
		"in_place":                hintRoPEMutates,
		"returns_x_at_position_0": hintRoPEMutates,
		"overwrite":               hintRoPEOverwrite,
	}
}

func mutRoPESuite() suite {
	return mutSuite(7, RoPEInterleaved,
		func(bug string) func([]float64, int, float64) []float64 { return mutRotate("interleaved", bug) },
		ropeBugHints(hintRoPEHalvesForInterleaved))
}
