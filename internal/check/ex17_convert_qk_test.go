package check

// Learner-style implementations of exercise 17 (Converting Q/K projections between the two layouts), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutConvertQKSuite) }

type mutConvertFuncs struct {
	convert func(w [][]float64, numHeads int) [][]float64
	scores  func(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, halves bool) []float64
}

func mutConvertQKSuite() suite {
	build := func(f mutConvertFuncs, c ConvertQKCases) *Exercise { return ConvertQK(f.convert, f.scores, c) }
	return mutSuite(17, build, mutConvert, map[string]*Hint{
		"whole_matrix_one_head":    hintConvertQKWhole,
		"inverse_permutation":      hintConvertQKInverse,
		"permutes_columns":         hintConvertQKColumns,
		"no_validation":            hintConvertQKInvalid,
		"shares_rows":              hintConvertQKShares,
		"scores_one_head":          hintHeadScoresOneHead,
		"scores_swapped_positions": hintHeadScoresPositions,
		"scores_layouts_swapped":   hintHeadScoresLayout,
		"strided_heads":            hintHeadsStrided,
		"scores_strided_heads":     hintHeadsStrided,
		"scores_integer_exponent":  hintRoPEIntDiv,
		"returns_w_for_heads_of_2": hintConvertQKShares,
		"permutes_in_place":        hintConvertQKShares,
	})
}

func mutConvert(bug string) mutConvertFuncs {
	convert := func(w [][]float64, numHeads int) [][]float64 {
		if bug != "no_validation" && (numHeads < 1 || len(w)%(2*numHeads) != 0) {
			return nil
		}
		heads := numHeads
		if bug == "whole_matrix_one_head" {
			heads = 1
		}
		hd := len(w) / heads
		if bug == "returns_w_for_heads_of_2" && hd == 2 { // nothing moves
			return w
		}
		out := make([][]float64, len(w))
		row := func(h, i int) int { return h*hd + i }
		if bug == "strided_heads" {
			row = func(h, i int) int { return h + heads*i }
		}
		if bug == "permutes_columns" {
			for r := range w {
				out[r] = make([]float64, len(w[r]))
				cd := len(w[r]) / heads
				for h := 0; h < heads; h++ {
					for i := 0; i < cd/2; i++ {
						out[r][h*cd+i], out[r][h*cd+i+cd/2] = w[r][h*cd+2*i], w[r][h*cd+2*i+1]
					}
				}
			}
			return out
		}
		for h := 0; h < heads; h++ {
			for i := 0; i < hd/2; i++ {
				a, b := row(h, i), row(h, i+hd/2)
				src1, src2 := row(h, 2*i), row(h, 2*i+1)
				if bug == "inverse_permutation" {
					out[src1], out[src2] = append([]float64(nil), w[a]...), append([]float64(nil), w[b]...)
					continue
				}
				if bug == "shares_rows" {
					out[a], out[b] = w[src1], w[src2]
					continue
				}
				out[a], out[b] = append([]float64(nil), w[src1]...), append([]float64(nil), w[src2]...)
			}
		}
		if bug == "permutes_in_place" {
			copy(w, out)
			return w
		}
		return out
	}
	interleaved, halves := mutRotate("interleaved", ""), mutRotate("halves", "")
	if bug == "scores_integer_exponent" { // the learner's own rotation, 2i/d in integers
		interleaved, halves = mutRotate("interleaved", "integer_division"), mutRotate("halves", "integer_division")
	}
	scores := func(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, useHalves bool) []float64 {
		project := func(w [][]float64, v []float64) []float64 {
			out := make([]float64, len(w))
			for r := range w {
				for c := range v {
					out[r] += w[r][c] * v[c]
				}
			}
			return out
		}
		rotate := interleaved
		if useHalves != (bug == "scores_layouts_swapped") {
			rotate = halves
		}
		heads := numHeads
		if bug == "scores_one_head" {
			heads = 1
		}
		if bug == "scores_swapped_positions" {
			m, n = n, m
		}
		q, k := project(wq, x), project(wk, y)
		hd := len(q) / heads
		out := make([]float64, heads)
		head := func(v []float64, h int) []float64 { return v[h*hd : (h+1)*hd] }
		if bug == "scores_strided_heads" {
			head = func(v []float64, h int) []float64 {
				out := make([]float64, hd)
				for i := range out {
					out[i] = v[h+heads*i]
				}
				return out
			}
		}
		for h := 0; h < heads; h++ {
			qh, kh := rotate(head(q, h), m, 10000), rotate(head(k, h), n, 10000)
			for c := range qh {
				out[h] += qh[c] * kh[c]
			}
		}
		return out
	}
	return mutConvertFuncs{convert, scores}
}
