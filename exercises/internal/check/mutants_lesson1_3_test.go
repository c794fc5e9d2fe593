package check

// Learner-style implementations of exercises 1 to 6 and 19, correct when bug
// is "" and otherwise wrong in one classic way.

import (
	"errors"
	"fmt"
	"math"
)

// ---- 01 attention ----------------------------------------------------------

func mutAttentionSuite() suite {
	return mutSuite(1, Attention, mutAttention, map[string]*Hint{
		"no_scale":        hintAttentionNoScale,
		"divide_by_d":     hintAttentionByD,
		"softmax_columns": hintAttentionAxis,
		"weights_only":    hintAttentionWeights,
		"naive_exp":       hintAttentionOverflow,
		"global_max":      hintAttentionGlobalMax,
		"scales_q_inline": hintAttentionMutates,
	})
}

func mutAttention(bug string) func(q, k, v [][]float64) [][]float64 {
	return func(q, k, v [][]float64) [][]float64 {
		d := float64(len(q[0]))
		scale := 1 / math.Sqrt(d)
		switch bug {
		case "no_scale":
			scale = 1
		case "divide_by_d":
			scale = 1 / d
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

// ---- 02 permutation --------------------------------------------------------

type mutPermFuncs struct {
	permute func([][]float64, []int) [][]float64
	isEquiv func(func([][]float64) [][]float64, [][]float64, []int, float64) bool
}

func mutPermutationSuite() suite {
	build := func(p mutPermFuncs) *Exercise { return Permutation(p.permute, p.isEquiv) }
	return mutSuite(2, build, mutPermutation, map[string]*Hint{
		"inverse_permute":  hintPermuteInverse,
		"permute_in_place": hintPermuteMutates,
		"shares_rows":      hintPermuteShares,
		"invariance":       hintEquivInvariance,
		"mixed_perms":      hintEquivMixedPerms,
		"exact_compare":    hintEquivExact,
		"same_side_twice":  hintEquivAlwaysTrue,
		"fixed_tolerance":  hintEquivTol,
		"strict_tolerance": hintEquivStrict,
		"no_shape_check":   hintEquivShape,
	})
}

func mutPermutation(bug string) mutPermFuncs {
	permute := func(x [][]float64, perm []int) [][]float64 {
		out := make([][]float64, len(perm))
		switch bug {
		case "inverse_permute":
			for i := range x {
				out[perm[i]] = append([]float64(nil), x[i]...)
			}
			return out
		case "permute_in_place":
			rows := append([][]float64(nil), x...)
			for i, p := range perm {
				x[i] = rows[p]
			}
			return x
		case "shares_rows":
			for i, p := range perm {
				out[i] = x[p]
			}
			return out
		}
		for i, p := range perm {
			out[i] = append([]float64(nil), x[p]...)
		}
		return out
	}
	inverse := func(x [][]float64, perm []int) [][]float64 {
		out := make([][]float64, len(x))
		for i, p := range perm {
			out[p] = x[i]
		}
		return out
	}
	isEquiv := func(f func([][]float64) [][]float64, x [][]float64, perm []int, tol float64) bool {
		fx := f(x)
		if bug != "no_shape_check" && len(fx) != len(x) {
			return false
		}
		a := f(permute(x, perm))
		var b [][]float64
		switch bug {
		case "invariance":
			b = fx
		case "mixed_perms":
			b = inverse(fx, perm)
		case "same_side_twice":
			b = f(permute(x, perm))
		default:
			b = permute(fx, perm)
		}
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if bug != "no_shape_check" && len(a[i]) != len(b[i]) {
				return false
			}
			for c := range a[i] {
				switch {
				case bug == "exact_compare" && a[i][c] != b[i][c]:
					return false
				case bug == "fixed_tolerance" && math.Abs(a[i][c]-b[i][c]) > 1e-2:
					return false
				case bug == "strict_tolerance" && math.Abs(a[i][c]-b[i][c]) >= tol:
					return false
				case bug != "fixed_tolerance" && math.Abs(a[i][c]-b[i][c]) > tol:
					return false
				}
			}
		}
		return true
	}
	return mutPermFuncs{permute, isEquiv}
}

// ---- 03 sinusoidal ---------------------------------------------------------

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

// ---- 04 add positions ------------------------------------------------------

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

// ---- 05 shift matrix -------------------------------------------------------

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

// ---- 06 learned ------------------------------------------------------------

func mutLearnedSuite() suite {
	return mutSuite(6, LearnedLookup, mutLearned, map[string]*Hint{
		"clamps":            hintLearnedClamp,
		"wraps_around":      hintLearnedWrap,
		"less_or_equal":     hintLearnedOffByOne,
		"rejects_last_row":  hintLearnedOffByOne,
		"no_negative_check": hintLearnedNegative,
		"vague_error":       hintLearnedErrorText,
		"partial_on_error":  hintLearnedNilOnError,
		"shares_table_rows": hintLearnedAliases,
	})
}

func mutLearned(bug string) func(table [][]float64, positions []int) ([][]float64, error) {
	return func(table [][]float64, positions []int) ([][]float64, error) {
		out := make([][]float64, 0, len(positions))
		for _, p := range positions {
			bad := p < 0 || p >= len(table)
			switch bug {
			case "clamps":
				p, bad = min(max(p, 0), len(table)-1), false
			case "wraps_around":
				p, bad = ((p%len(table))+len(table))%len(table), false
			case "less_or_equal":
				bad = p < 0 || p > len(table)
			case "rejects_last_row":
				bad = p < 0 || p >= len(table)-1
			case "no_negative_check":
				bad = p >= len(table)
			}
			if bad {
				switch bug {
				case "vague_error":
					return nil, errors.New("position out of range")
				case "partial_on_error":
					return out, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
				return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
			}
			if bug == "shares_table_rows" {
				out = append(out, table[p])
			} else {
				out = append(out, append([]float64(nil), table[p]...))
			}
		}
		return out, nil
	}
}

// ---- 19 interpolating a learned table ---------------------------------------

func mutInterpolateSuite() suite {
	return mutSuite(19, InterpolateTable, mutInterpolate, map[string]*Hint{
		"integer_step":            hintInterpIntRatio,
		"step_l_over_n":           hintInterpEnds,
		"nearest_row":             hintInterpNearest,
		"weights_swapped":         hintInterpWeights,
		"next_row_past_the_end":   hintInterpLastRow,
		"one_row_divides_by_zero": hintInterpOneRow,
		"shares_rows":             hintInterpShares,
	})
}

func mutInterpolate(bug string) func(table [][]float64, newLen int) [][]float64 {
	return func(table [][]float64, newLen int) [][]float64 {
		l := len(table)
		var step float64
		switch {
		case bug == "integer_step" && newLen > 1:
			step = float64((l - 1) / (newLen - 1))
		case bug == "step_l_over_n":
			step = float64(l) / float64(newLen)
		case bug == "one_row_divides_by_zero" || newLen > 1:
			step = float64(l-1) / float64(newLen-1)
		}
		out := make([][]float64, newLen)
		for p := range out {
			x := float64(p) * step
			lo := int(x)
			if lo > l-1 {
				lo = l - 1
			}
			hi := lo + 1
			if hi > l-1 && bug != "next_row_past_the_end" {
				hi = l - 1
			}
			t := x - float64(lo)
			if bug == "nearest_row" {
				lo = int(math.Round(x))
				if lo > l-1 {
					lo = l - 1
				}
				hi, t = lo, 0
			}
			if bug == "shares_rows" && t == 0 {
				out[p] = table[lo]
				continue
			}
			row := make([]float64, len(table[0]))
			for c := range row {
				if bug == "weights_swapped" {
					row[c] = t*table[lo][c] + (1-t)*table[hi][c]
				} else {
					row[c] = (1-t)*table[lo][c] + t*table[hi][c]
				}
			}
			out[p] = row
		}
		return out
	}
}
