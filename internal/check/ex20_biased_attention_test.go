package check

import "math"

// Learner-style implementations of exercise 20 (A position bias inside softmax attention), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutBiasedAttentionSuite) }

func mutBiasedAttentionSuite() suite {
	return mutSuite(20, BiasedAttention, mutBiased, map[string]*Hint{
		"bias_before_scaling": hintBiasScaled,
		"bias_after_softmax":  hintBiasAfterSoftmax,
		"bias_subtracted":     hintBiasSubtracted,
		"bias_transposed":     hintBiasTransposed,
		"bias_ignored":        hintBiasIgnored,
		"no_sqrt_d":           hintBiasNoScale,
		"naive_exp":           hintAttentionOverflow,
		"scales_q_inline":     hintBiasMutates,
		"masks_in_place":      hintBiasMutates,
		"divide_by_d":         hintAttentionByD,
		"divide_by_keys":      hintAttentionByKeys,
		"divide_by_sqrt_keys": hintAttentionByKeys,
	})
}

func mutBiased(bug string) func(q, k, v, bias [][]float64) [][]float64 {
	return func(q, k, v, bias [][]float64) [][]float64 {
		scale := math.Sqrt(float64(len(q[0])))
		switch bug {
		case "no_sqrt_d":
			scale = 1
		case "divide_by_d":
			scale = float64(len(q[0]))
		case "divide_by_keys":
			scale = float64(len(k))
		case "divide_by_sqrt_keys":
			scale = math.Sqrt(float64(len(k)))
		case "masks_in_place": // exp(−Inf) is fine, but the learner does not trust it
			for _, row := range bias {
				for j := range row {
					if math.IsInf(row[j], -1) {
						row[j] = -1e30
					}
				}
			}
		}
		out := make([][]float64, len(q))
		for i := range q {
			logits := make([]float64, len(k))
			top := math.Inf(-1)
			for j := range k {
				if bug == "scales_q_inline" && j == 0 {
					for c := range q[i] {
						q[i][c] /= scale
					}
				}
				dot := 0.0
				for c := range q[i] {
					dot += q[i][c] * k[j][c]
				}
				b := bias[i][j]
				switch bug {
				case "bias_transposed":
					b = bias[j][i]
				case "bias_subtracted":
					b = -b
				case "bias_ignored", "bias_after_softmax":
					b = 0
				}
				if bug == "bias_before_scaling" {
					logits[j] = (dot + b) / scale
				} else if bug == "scales_q_inline" {
					logits[j] = dot + b
				} else {
					logits[j] = dot/scale + b
				}
				top = max(top, logits[j])
			}
			if bug == "naive_exp" {
				top = 0
			}
			sum := 0.0
			for j := range logits {
				logits[j] = math.Exp(logits[j] - top)
				sum += logits[j]
			}
			out[i] = make([]float64, len(v[0]))
			for j := range logits {
				w := logits[j] / sum
				if bug == "bias_after_softmax" {
					w += bias[i][j]
				}
				for c := range out[i] {
					out[i][c] += w * v[j][c]
				}
			}
		}
		return out
	}
}
