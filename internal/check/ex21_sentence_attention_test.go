package check

import (
	"fmt"
	"math"
)

// Learner-style implementations of exercise 21 (Attention over a sentence, with the encoding of your choice), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutSentenceSuite) }

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
		"divides_by_the_number_of_words": hintAttentionByKeys,
		"rope_integer_exponent":          hintRoPEIntDiv,
		"scales_tokens_in_place":         hintSentenceMutates,
	})
}

// mutSentence puts the learner's earlier exercises together, with one of
// the classic mistakes of this one.
func mutSentence(bug string) func(tokens, wq, wk, wv [][]float64, encoding string) ([][]float64, error) {
	attention, biased := mutAttention(""), mutBiased("")
	if bug == "divides_by_the_number_of_words" {
		attention, biased = mutAttention("divide_by_keys"), mutBiased("divide_by_keys")
	}
	addPositions, sinusoidal := mutAddPositions(""), mutSinusoidal("")
	alibi := mutALiBi("")
	layout := "interleaved"
	if bug == "rope_half_split" {
		layout = "halves"
	}
	rotate := mutRotate(layout, "")
	if bug == "rope_integer_exponent" {
		rotate = mutRotate(layout, "integer_division")
	}
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
			case "scales_tokens_in_place":
				pe, scale := sinusoidal(0, n, d), math.Sqrt(float64(d))
				for i := range tokens {
					for c := range tokens[i] {
						tokens[i][c] = tokens[i][c]*scale + pe[i][c]
					}
				}
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
