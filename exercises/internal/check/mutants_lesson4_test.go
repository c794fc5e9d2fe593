package check

// Learner-style implementations of the RoPE exercises (lesson 4: 7, 8 and
// 14 to 17), correct when bug is "" and otherwise wrong in one classic way.

import "math"

// mutRotate is a learner's RoPE in either layout ("interleaved" or "halves").
func mutRotate(layout, bug string) func(x []float64, pos int, base float64) []float64 {
	return func(x []float64, pos int, base float64) []float64 {
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
	"float32_angles", "in_place", "overwrite"}

func ropeBugHints(other *Hint) map[string]*Hint {
	return map[string]*Hint{
		"wrong_way":         hintRoPEWrongWay,
		"other_layout":      other,
		"exponent_i_over_d": hintRoPEExponent,
		"integer_division":  hintRoPEIntDiv,
		"ignores_base":      hintRoPEBase,
		"float32_angles":    hintRoPEFloat32,
		"in_place":          hintRoPEMutates,
		"overwrite":         hintRoPEOverwrite,
	}
}

// ---- 07 and 08 -------------------------------------------------------------

func mutRoPESuite() suite {
	return mutSuite(7, RoPEInterleaved,
		func(bug string) func([]float64, int, float64) []float64 { return mutRotate("interleaved", bug) },
		ropeBugHints(hintRoPEHalvesForInterleaved))
}

type mutHalvesFuncs struct {
	rotate  func(x []float64, pos int, base float64) []float64
	convert func(v []float64) []float64
}

func mutRoPEHalvesSuite() suite {
	bugs := ropeBugHints(hintRoPEInterleavedForHalves)
	bugs["inverse_converter"] = hintConvertInverse
	bugs["converter_in_place"] = hintConvertMutates
	return mutSuite(8, func(f mutHalvesFuncs) *Exercise { return RoPEHalves(f.rotate, f.convert) }, func(bug string) mutHalvesFuncs {
		convert := func(v []float64) []float64 {
			h := len(v) / 2
			out := make([]float64, len(v))
			for i := 0; i < h; i++ {
				if bug == "inverse_converter" {
					out[2*i], out[2*i+1] = v[i], v[i+h]
				} else {
					out[i], out[i+h] = v[2*i], v[2*i+1]
				}
			}
			if bug == "converter_in_place" {
				copy(v, out)
				return v
			}
			return out
		}
		return mutHalvesFuncs{mutRotate("halves", bug), convert}
	}, bugs)
}

// ---- 14 explicit positions ---------------------------------------------------

type mutPositionsFuncs struct {
	cache    func(cacheLen, n int) []int
	packed   func(lengths []int) []int
	rotateAt func(x [][]float64, positions []int, base float64) [][]float64
}

func mutRoPEPositionsSuite() suite {
	build := func(f mutPositionsFuncs) *Exercise { return RoPEPositions(f.cache, f.packed, f.rotateAt) }
	return mutSuite(14, build, mutPositions, map[string]*Hint{
		"cache_at_cacheLen-1":  hintCacheOffByOne,
		"cache_at_cacheLen+1":  hintCacheOffByOne,
		"cache_from_zero":      hintCacheRestart,
		"packed_no_restart":    hintPackedNoRestart,
		"packed_from_one":      hintPackedFromOne,
		"rotates_at_row_index": hintRotateAtRowIndex,
		"no_length_check":      hintRotateAtLength,
		"position_0_shares":    hintRotateAtMutates,
	})
}

func mutPositions(bug string) mutPositionsFuncs {
	rotate := mutRotate("interleaved", "")
	cache := func(cacheLen, n int) []int {
		first := cacheLen
		switch bug {
		case "cache_at_cacheLen-1":
			first = cacheLen - 1
		case "cache_at_cacheLen+1":
			first = cacheLen + 1
		case "cache_from_zero":
			first = 0
		}
		var out []int
		for i := 0; i < n; i++ {
			out = append(out, first+i)
		}
		return out
	}
	packed := func(lengths []int) []int {
		var out []int
		next := 0
		for _, n := range lengths {
			if bug != "packed_no_restart" {
				next = 0
			}
			for i := 0; i < n; i++ {
				p := next
				if bug == "packed_from_one" {
					p++
				}
				out = append(out, p)
				next++
			}
		}
		return out
	}
	rotateAt := func(x [][]float64, positions []int, base float64) [][]float64 {
		if bug != "no_length_check" && len(positions) != len(x) {
			return nil
		}
		out := make([][]float64, len(x))
		for r := range x {
			p := positions[r]
			if bug == "rotates_at_row_index" {
				p = r
			}
			if bug == "position_0_shares" && p == 0 {
				out[r] = x[r]
				continue
			}
			out[r] = rotate(x[r], p, base)
		}
		return out
	}
	return mutPositionsFuncs{cache, packed, rotateAt}
}

// ---- 15 relative scores ------------------------------------------------------

type mutRelativeFuncs struct {
	scores func(q, k []float64, n int, base float64) [][]float64
	isT    func(s [][]float64, tol float64) bool
}

func mutRelativeScoresSuite() suite {
	build := func(f mutRelativeFuncs) *Exercise { return RelativeScores(f.scores, f.isT) }
	return mutSuite(15, build, mutRelative, map[string]*Hint{
		"scores_transposed":  hintScoresTransposed,
		"key_not_rotated":    hintScoresKeyUnrotated,
		"same_position":      hintScoresSamePosition,
		"checks_symmetry":    hintToeplitzSymmetry,
		"main_diagonal_only": hintToeplitzMainDiagonal,
		"exact_compare":      hintToeplitzExact,
		"fixed_tolerance":    hintToeplitzTol,
		"strict_tolerance":   hintToeplitzStrict,
		"stops_a_row_early":  hintToeplitzEdges,
		"assumes_square":     hintToeplitzShape,
		"infinities_are_nan": hintToeplitzInf,
	})
}

func mutRelative(bug string) mutRelativeFuncs {
	rotate := mutRotate("interleaved", "")
	scores := func(q, k []float64, n int, base float64) [][]float64 {
		s := make([][]float64, n)
		for a := 0; a < n; a++ {
			s[a] = make([]float64, n)
			for b := 0; b < n; b++ {
				pq, pk := a, b
				switch bug {
				case "scores_transposed":
					pq, pk = b, a
				case "same_position":
					pk = a
				}
				qr, kr := rotate(q, pq, base), rotate(k, pk, base)
				if bug == "key_not_rotated" {
					kr = k
				}
				for c := range qr {
					s[a][b] += qr[c] * kr[c]
				}
			}
		}
		return s
	}
	isT := func(s [][]float64, tol float64) bool {
		rows := len(s)
		if rows == 0 {
			return true
		}
		cols := len(s[0])
		if bug == "assumes_square" {
			cols = rows
		}
		lastRow := rows - 1
		if bug == "stops_a_row_early" {
			lastRow = rows - 2
		}
		for i := 0; i < lastRow; i++ {
			for j := 0; j+1 < cols; j++ {
				a, b := s[i][j], s[i+1][j+1]
				switch bug {
				case "checks_symmetry":
					if i < cols && j < rows && math.Abs(s[i][j]-s[j][i]) > tol {
						return false
					}
					continue
				case "main_diagonal_only":
					if i != j {
						continue
					}
				case "exact_compare":
					if a != b {
						return false
					}
					continue
				case "fixed_tolerance":
					if math.Abs(a-b) > 1e-2 {
						return false
					}
					continue
				case "strict_tolerance":
					if a != b && math.Abs(a-b) >= tol {
						return false
					}
					continue
				case "infinities_are_nan":
					if !(math.Abs(a-b) <= tol) {
						return false
					}
					continue
				}
				if a != b && math.Abs(a-b) > tol {
					return false
				}
			}
		}
		return true
	}
	return mutRelativeFuncs{scores, isT}
}

// ---- 16 partial rotary -------------------------------------------------------

func mutPartialRotarySuite() suite {
	return mutSuite(16, PartialRotary, mutPartial, map[string]*Hint{
		"frequencies_from_d": hintPartialHeadDim,
		"rotates_the_last":   hintPartialWhichDims,
		"drops_the_tail":     hintPartialTail,
		"zeros_the_tail":     hintPartialTail,
		"rotates_everything": hintPartialAll,
		"half_split":         hintPartialHalves,
		"no_validation":      hintPartialInvalid,
		"in_place":           hintPartialMutates,
	})
}

func mutPartial(bug string) func(x []float64, pos int, base float64, rotaryDim int) []float64 {
	return func(x []float64, pos int, base float64, rotaryDim int) []float64 {
		d := len(x)
		if bug != "no_validation" && (rotaryDim < 0 || rotaryDim > d || rotaryDim%2 == 1) {
			return nil
		}
		r := rotaryDim
		if bug == "rotates_everything" {
			r = d
		}
		out := make([]float64, d)
		switch bug {
		case "in_place":
			out = x
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
			angle := float64(pos) * math.Pow(base, -float64(2*i)/float64(dim))
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

// ---- 17 converting Q/K projections -------------------------------------------

type mutConvertFuncs struct {
	convert func(w [][]float64, numHeads int) [][]float64
	scores  func(wq, wk [][]float64, numHeads int, x, y []float64, m, n int, halves bool) []float64
}

func mutConvertQKSuite() suite {
	build := func(f mutConvertFuncs) *Exercise { return ConvertQK(f.convert, f.scores) }
	return mutSuite(17, build, mutConvert, map[string]*Hint{
		"whole_matrix_one_head":    hintConvertQKWhole,
		"inverse_permutation":      hintConvertQKInverse,
		"permutes_columns":         hintConvertQKColumns,
		"no_validation":            hintConvertQKInvalid,
		"shares_rows":              hintConvertQKShares,
		"scores_one_head":          hintHeadScoresOneHead,
		"scores_swapped_positions": hintHeadScoresPositions,
		"scores_layouts_swapped":   hintHeadScoresLayout,
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
		out := make([][]float64, len(w))
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
				a, b := h*hd+i, h*hd+i+hd/2
				src1, src2 := h*hd+2*i, h*hd+2*i+1
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
		return out
	}
	interleaved, halves := mutRotate("interleaved", ""), mutRotate("halves", "")
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
		for h := 0; h < heads; h++ {
			qh, kh := rotate(q[h*hd:(h+1)*hd], m, 10000), rotate(k[h*hd:(h+1)*hd], n, 10000)
			for c := range qh {
				out[h] += qh[c] * kh[c]
			}
		}
		return out
	}
	return mutConvertFuncs{convert, scores}
}
