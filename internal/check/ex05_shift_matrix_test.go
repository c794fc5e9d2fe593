package check

import "math"

// Learner-style implementations of exercise 5 (The shift matrix T_k), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutShiftMatrixSuite) }

func mutShiftMatrixSuite() suite {
	return mutSuite(5, ShiftMatrix, mutShiftMatrix, map[string]*Hint{
		"rotation_convention": hintShiftBackwards,
		"one_step":            hintShiftOneStep,
		"exponent_i_over_d":   hintShiftExponent,
		"integer_division":    hintShiftIntDiv,
		"absolute_k":          hintShiftNegative,
		"loop_up_to_k":        hintShiftNegative,
	})
}

func mutShiftMatrix(bug string) func(d, k int) [][]float64 {
	block := func(d, k int) [][]float64 {
		m := make([][]float64, d)
		for r := range m {
			m[r] = make([]float64, d)
		}
		for i := 0; i < d/2; i++ {
			expo := 2 * float64(i) / float64(d)
			switch bug {
			case "exponent_i_over_d":
				expo = float64(i) / float64(d)
			case "integer_division":
				expo = float64(2 * i / d)
			}
			angle := float64(k) / math.Pow(10000, expo)
			if bug == "one_step" {
				angle = 1 / math.Pow(10000, expo)
			}
			c, s := math.Cos(angle), math.Sin(angle)
			a, b := 2*i, 2*i+1
			if bug == "rotation_convention" { // the textbook rotation [[c, −s], [s, c]]
				m[a][a], m[a][b], m[b][a], m[b][b] = c, -s, s, c
				continue
			}
			m[a][a], m[a][b], m[b][a], m[b][b] = c, s, -s, c
		}
		return m
	}
	return func(d, k int) [][]float64 {
		switch bug {
		case "absolute_k":
			if k < 0 {
				k = -k
			}
		case "loop_up_to_k": // T_1 multiplied k times
			m := block(d, 0)
			one := block(d, 1)
			for step := 0; step < k; step++ {
				next := block(d, 0)
				for r := range next {
					for c := range next[r] {
						next[r][c] = 0
						for x := range d {
							next[r][c] += one[r][x] * m[x][c]
						}
					}
				}
				m = next
			}
			return m
		}
		return block(d, k)
	}
}
