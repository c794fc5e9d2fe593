package check

import "math"

// Learner-style implementations of exercise 4 (Adding positions to token embeddings), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutAddPositionsSuite) }

func mutAddPositionsSuite() suite {
	return mutSuite(4, AddPositions, mutAddPositions, map[string]*Hint{
		"no_scale":          hintAddNoScale,
		"scales_positions":  hintAddScaledPE,
		"divides_by_sqrt_d": hintAddDivided,
		"scales_by_d":       hintAddWrongD,
		"whole_sqrt":        hintAddIntSqrt,
		"ignores_start":     hintAddStart,
		"adds_in_place":     hintAddMutates,
	})
}

func mutAddPositions(bug string) func(emb [][]float64, start int) [][]float64 {
	pe := mutSinusoidal("")
	return func(emb [][]float64, start int) [][]float64 {
		d := len(emb[0])
		from := start
		if bug == "ignores_start" {
			from = 0
		}
		table := pe(from, len(emb), d)
		out := emb
		if bug != "adds_in_place" {
			out = make([][]float64, len(emb))
			for r := range out {
				out[r] = make([]float64, d)
			}
		}
		scale := math.Sqrt(float64(d))
		if bug == "whole_sqrt" {
			scale = float64(int(math.Sqrt(float64(d))))
		}
		for r := range emb {
			for j := range emb[r] {
				e, p := emb[r][j], table[r][j]
				switch bug {
				case "no_scale":
				case "scales_positions":
					p *= scale
				case "divides_by_sqrt_d":
					e /= scale
				case "scales_by_d":
					e *= float64(d)
				default:
					e *= scale
				}
				out[r][j] = e + p
			}
		}
		return out
	}
}
