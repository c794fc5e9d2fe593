package check

import "math"

// Learner-style implementations of exercise 1 (Attention without positions), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutAttentionSuite) }

func mutAttentionSuite() suite {
	return mutSuite(1, Attention, mutAttention, map[string]*Hint{
		"no_scale":            hintAttentionNoScale,
		"divide_by_d":         hintAttentionByD,
		"softmax_columns":     hintAttentionAxis,
		"weights_only":        hintAttentionWeights,
		"naive_exp":           hintAttentionOverflow,
		"global_max":          hintAttentionGlobalMax,
		"scales_q_inline":     hintAttentionMutates,
		"one_key_shortcut":    hintAttentionShares,
		"divide_by_keys":      hintAttentionByKeys,
		"divide_by_sqrt_keys": hintAttentionByKeys,
	})
}

func mutAttention(bug string) func(q, k, v [][]float64) [][]float64 {
	return func(q, k, v [][]float64) [][]float64 {
		if bug == "one_key_shortcut" && len(k) == 1 { // all the weight on the one key
			out := make([][]float64, len(q))
			for i := range out {
				out[i] = v[0]
			}
			return out
		}
		d := float64(len(q[0]))
		scale := 1 / math.Sqrt(d)
		switch bug {
		case "no_scale":
			scale = 1
		case "divide_by_d":
			scale = 1 / d
		case "divide_by_keys":
			scale = 1 / float64(len(k))
		case "divide_by_sqrt_keys":
			scale = 1 / math.Sqrt(float64(len(k)))
		case "scales_q_inline":
			for _, row := range q {
				for c := range row {
					row[c] *= scale
				}
			}
			scale = 1
		}
		w := make([][]float64, len(q))
		globalTop := math.Inf(-1)
		for i := range q {
			w[i] = make([]float64, len(k))
			for j := range k {
				dot := 0.0
				for c := range q[i] {
					dot += q[i][c] * k[j][c]
				}
				w[i][j] = dot * scale
				globalTop = max(globalTop, w[i][j])
			}
		}
		softmax := func(get func(a int) *float64, n int) {
			top := math.Inf(-1)
			switch bug {
			case "naive_exp":
				top = 0
			case "global_max":
				top = globalTop
			default:
				for a := range n {
					top = max(top, *get(a))
				}
			}
			sum := 0.0
			for a := range n {
				*get(a) = math.Exp(*get(a) - top)
				sum += *get(a)
			}
			for a := range n {
				*get(a) /= sum
			}
		}
		if bug == "softmax_columns" {
			for j := range k {
				softmax(func(i int) *float64 { return &w[i][j] }, len(q))
			}
		} else {
			for i := range q {
				softmax(func(j int) *float64 { return &w[i][j] }, len(k))
			}
		}
		if bug == "weights_only" {
			return w
		}
		out := make([][]float64, len(q))
		for i := range q {
			out[i] = make([]float64, len(v[0]))
			for j := range v {
				for c := range v[j] {
					out[i][c] += w[i][j] * v[j][c]
				}
			}
		}
		return out
	}
}
