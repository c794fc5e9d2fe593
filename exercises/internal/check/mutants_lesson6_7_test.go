package check

// Learner-style implementations of the bias exercises (lessons 6 and 7:
// 12, 13, 20 and 21), correct when bug is "" and otherwise wrong in one
// classic way.

import (
	"fmt"
	"math"
)

// ---- 12 ALiBi --------------------------------------------------------------

type mutALiBiFuncs struct {
	slopes func(heads int) []float64
	bias   func(slopes []float64, n int, causal bool) [][][]float64
}

func mutALiBiSuite() suite {
	build := func(f mutALiBiFuncs) *Exercise { return ALiBi(f.slopes, f.bias) }
	return mutSuite(12, build, mutALiBi, map[string]*Hint{
		"plain_geometric":     hintALiBiGeometric,
		"k_from_zero":         hintALiBiFromZero,
		"even_extras":         hintALiBiParity,
		"first_extras":        hintALiBiFirstExtras,
		"integer_division":    hintALiBiIntDiv,
		"positive_bias":       hintALiBiSign,
		"no_absolute_value":   hintALiBiAbs,
		"no_causal_mask":      hintALiBiMask,
		"mask_before_query":   hintALiBiMaskSide,
		"large_negative_mask": hintALiBiLargeNegative,
	})
}

func mutALiBi(bug string) mutALiBiFuncs {
	powerOfTwo := func(n int) []float64 {
		start := math.Pow(2, -8/float64(n))
		if bug == "integer_division" {
			start = math.Pow(2, float64(-8/n))
		}
		out := []float64{}
		m := start
		if bug == "k_from_zero" {
			m = 1
		}
		for range n {
			out = append(out, m)
			m *= start
		}
		return out
	}
	slopes := func(heads int) []float64 {
		if bug == "plain_geometric" || heads&(heads-1) == 0 {
			return powerOfTwo(heads)
		}
		p := 1 << int(math.Floor(math.Log2(float64(heads))))
		extra := powerOfTwo(2 * p)
		first, step := 0, 2
		switch bug {
		case "even_extras":
			first = 1
		case "first_extras":
			step = 1
		}
		out := powerOfTwo(p)
		for k := first; len(out) < heads; k += step {
			out = append(out, extra[k])
		}
		return out
	}
	bias := func(slopes []float64, n int, causal bool) [][][]float64 {
		out := make([][][]float64, len(slopes))
		for h, m := range slopes {
			out[h] = make([][]float64, n)
			for i := range out[h] {
				out[h][i] = make([]float64, n)
				for j := range out[h][i] {
					dist := float64(i - j)
					if dist < 0 && bug != "no_absolute_value" {
						dist = -dist
					}
					b := -m * dist
					if bug == "positive_bias" {
						b = m * dist
					}
					future := j > i
					if bug == "mask_before_query" {
						future = j < i
					}
					if causal && future && bug != "no_causal_mask" {
						b = math.Inf(-1)
						if bug == "large_negative_mask" {
							b = -1e9
						}
					}
					out[h][i][j] = b
				}
			}
		}
		return out
	}
	return mutALiBiFuncs{slopes, bias}
}

// ---- 13 T5 buckets ---------------------------------------------------------

type mutT5Funcs struct {
	bucket func(rel int, bidirectional bool, numBuckets, maxDistance int) int
	matrix func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int
}

func mutT5Suite() suite {
	build := func(f mutT5Funcs) *Exercise { return T5Buckets(f.bucket, f.matrix) }
	return mutSuite(13, build, mutT5, map[string]*Hint{
		"query_minus_key":    hintT5QueryMinusKey,
		"direction_reversed": hintT5Direction,
		"zero_in_upper_half": hintT5ZeroUpper,
		"no_clamp":           hintT5Clamp,
		"no_halving":         hintT5Halve,
		"rounds":             hintT5Round,
		"integer_ratios":     hintT5IntDiv,
	})
}

func mutT5(bug string) mutT5Funcs {
	bucket := func(rel int, bidirectional bool, numBuckets, maxDistance int) int {
		ret := 0
		n := -rel // Hugging Face's code negates first: n = −(key − query)
		if bug == "direction_reversed" {
			n = rel
		}
		if bidirectional {
			if bug != "no_halving" {
				numBuckets /= 2
			}
			if n < 0 || (bug == "zero_in_upper_half" && n == 0) {
				ret += numBuckets
			}
			if n < 0 {
				n = -n
			}
		} else if n < 0 {
			n = 0
		}
		maxExact := numBuckets / 2
		if n < maxExact {
			return ret + n
		}
		ratio, span := float64(n)/float64(maxExact), float64(maxDistance)/float64(maxExact)
		if bug == "integer_ratios" {
			ratio, span = float64(n/maxExact), float64(maxDistance/maxExact)
		}
		x := math.Log(ratio) / math.Log(span) * float64(numBuckets-maxExact)
		if bug == "rounds" {
			x = math.Round(x)
		}
		val := maxExact + int(x)
		if bug != "no_clamp" && val > numBuckets-1 {
			val = numBuckets - 1
		}
		return ret + val
	}
	matrix := func(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int {
		m := make([][]int, qLen)
		for i := range m {
			m[i] = make([]int, kLen)
			for j := range m[i] {
				rel := j - i
				if bug == "query_minus_key" {
					rel = i - j
				}
				m[i][j] = bucket(rel, bidirectional, numBuckets, maxDistance)
			}
		}
		return m
	}
	return mutT5Funcs{bucket, matrix}
}

// ---- 20 biased attention ------------------------------------------------------

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
	})
}

func mutBiased(bug string) func(q, k, v, bias [][]float64) [][]float64 {
	return func(q, k, v, bias [][]float64) [][]float64 {
		scale := math.Sqrt(float64(len(q[0])))
		if bug == "no_sqrt_d" {
			scale = 1
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

// ---- 21 attention over a sentence ----------------------------------------------

func mutSentenceSuite() suite {
	return mutSuite(21, SentenceAttention, mutSentence, map[string]*Hint{
		"positions_after_projections":    hintSentencePEAfter,
		"positions_on_queries_keys_only": hintSentencePEAfter,
		"embeddings_not_scaled":          hintSentencePENoScale,
		"values_rotated":                 hintSentenceRotateV,
		"rotated_before_projecting":      hintSentenceRotateX,
		"rope_half_split":                hintSentenceRoPELayout,
		"causal_alibi":                   hintSentenceCausal,
		"slope_of_one_head":              hintSentenceSlope,
		"projection_on_the_left":         hintSentenceProjection,
		"unknown_is_no_error":            hintSentenceUnknown,
		"unknown_with_a_result":          hintSentenceUnknown,
		"none_adds_the_row_index":        hintSentenceSameWords,
	})
}

// mutSentence puts the learner's earlier exercises together, with one of
// the classic mistakes of this one.
func mutSentence(bug string) func(tokens, wq, wk, wv [][]float64, encoding string) ([][]float64, error) {
	attention, biased := mutAttention(""), mutBiased("")
	addPositions, sinusoidal := mutAddPositions(""), mutSinusoidal("")
	alibi := mutALiBi("")
	layout := "interleaved"
	if bug == "rope_half_split" {
		layout = "halves"
	}
	rotate := mutRotate(layout, "")
	return func(tokens, wq, wk, wv [][]float64, encoding string) ([][]float64, error) {
		n, d := len(tokens), len(tokens[0])
		x := tokens
		switch encoding {
		case "none":
			if bug == "none_adds_the_row_index" {
				x = make([][]float64, n)
				for i := range x {
					x[i] = make([]float64, d)
					for c := range x[i] {
						x[i][c] = tokens[i][c] + 0.01*float64(i)
					}
				}
			}
		case "sinusoidal":
			switch bug {
			case "embeddings_not_scaled":
				pe := sinusoidal(0, n, d)
				x = make([][]float64, n)
				for i := range x {
					x[i] = make([]float64, d)
					for c := range x[i] {
						x[i][c] = tokens[i][c] + pe[i][c]
					}
				}
			case "positions_after_projections", "positions_on_queries_keys_only":
			default:
				x = addPositions(tokens, 0)
			}
		case "rope":
			if bug == "rotated_before_projecting" {
				x = make([][]float64, n)
				for i := range x {
					x[i] = rotate(tokens[i], i, 10000)
				}
			}
		case "alibi":
		default:
			switch bug {
			case "unknown_is_no_error":
				return attention(tokens, tokens, tokens), nil
			case "unknown_with_a_result":
				return [][]float64{}, fmt.Errorf("unknown encoding %q", encoding)
			}
			return nil, fmt.Errorf("unknown encoding %q", encoding)
		}
		project := func(w [][]float64) [][]float64 {
			out := make([][]float64, n)
			for i := range out {
				out[i] = make([]float64, d)
				for j := 0; j < d; j++ {
					for c := 0; c < d; c++ {
						if bug == "projection_on_the_left" {
							out[i][j] += w[j][c] * x[i][c]
						} else {
							out[i][j] += x[i][c] * w[c][j]
						}
					}
				}
			}
			return out
		}
		q, k, v := project(wq), project(wk), project(wv)
		if encoding == "sinusoidal" && (bug == "positions_after_projections" || bug == "positions_on_queries_keys_only") {
			pe := sinusoidal(0, n, d)
			for i := 0; i < n; i++ {
				for c := 0; c < d; c++ {
					q[i][c] += pe[i][c]
					k[i][c] += pe[i][c]
					if bug == "positions_after_projections" {
						v[i][c] += pe[i][c]
					}
				}
			}
		}
		if encoding == "rope" && bug != "rotated_before_projecting" {
			for i := 0; i < n; i++ {
				q[i], k[i] = rotate(q[i], i, 10000), rotate(k[i], i, 10000)
				if bug == "values_rotated" {
					v[i] = rotate(v[i], i, 10000)
				}
			}
		}
		if encoding == "alibi" {
			slopes := []float64{0.5}
			if bug == "slope_of_one_head" {
				slopes = alibi.slopes(1)
			}
			return biased(q, k, v, alibi.bias(slopes, n, bug == "causal_alibi")[0]), nil
		}
		return attention(q, k, v), nil
	}
}
