package exercises

// Learner-style implementations of each exercise, correct when bug is "" and
// otherwise wrong in one classic way. They are written the way a learner
// would write them, independently of the references the checks compare with,
// so that the feedback tests exercise the whole path from a wrong answer to
// its hint.

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// mutSuite builds a suite from a parametric implementation: cases(impl(""))
// must pass and cases(impl(bug)) must get hint, for each bug.
func mutSuite[F any](name string, cases func(F) []exCase, impl func(bug string) F, bugs map[string]string) feedbackSuite {
	s := feedbackSuite{name: name, correct: cases(impl(""))}
	for _, bug := range slices.Sorted(maps.Keys(bugs)) {
		s.mutants = append(s.mutants, feedbackMutant{name: bug, hint: bugs[bug], cases: cases(impl(bug))})
	}
	return s
}

// ---- 01 attention ----------------------------------------------------------

func mutAttentionSuite() feedbackSuite {
	return mutSuite("attention", attentionCases, mutAttention, map[string]string{
		"no_scale":        hintAttentionNoScale,
		"divide_by_d":     hintAttentionByD,
		"softmax_columns": hintAttentionAxis,
		"weights_only":    hintAttentionWeights,
		"naive_exp":       hintAttentionOverflow,
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
		for i := range q {
			w[i] = make([]float64, len(k))
			for j := range k {
				dot := 0.0
				for c := range q[i] {
					dot += q[i][c] * k[j][c]
				}
				w[i][j] = dot * scale
			}
		}
		softmax := func(get func(a int) *float64, n int) {
			top := math.Inf(-1)
			if bug == "naive_exp" {
				top = 0
			} else {
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

func mutPermutationSuite() feedbackSuite {
	cases := func(p mutPermFuncs) []exCase { return permutationCases(p.permute, p.isEquiv) }
	return mutSuite("permutation", cases, mutPermutation, map[string]string{
		"inverse_permute":  hintPermuteInverse,
		"permute_in_place": hintPermuteMutates,
		"invariance":       hintEquivInvariance,
		"mixed_perms":      hintEquivMixedPerms,
		"exact_compare":    hintEquivExact,
		"same_side_twice":  hintEquivAlwaysTrue,
	})
}

func mutPermutation(bug string) mutPermFuncs {
	permute := func(x [][]float64, perm []int) [][]float64 {
		switch bug {
		case "inverse_permute":
			out := make([][]float64, len(x))
			for i := range x {
				out[perm[i]] = x[i]
			}
			return out
		case "permute_in_place":
			rows := append([][]float64(nil), x...)
			for i, p := range perm {
				x[i] = rows[p]
			}
			return x
		}
		out := make([][]float64, len(x))
		for i, p := range perm {
			out[i] = x[p]
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
		a := f(permute(x, perm))
		var b [][]float64
		switch bug {
		case "invariance":
			b = f(x)
		case "mixed_perms":
			b = inverse(f(x), perm)
		case "same_side_twice":
			b = f(permute(x, perm))
		default:
			b = permute(f(x), perm)
		}
		for i := range a {
			for c := range a[i] {
				if bug == "exact_compare" && a[i][c] != b[i][c] {
					return false
				}
				if math.Abs(a[i][c]-b[i][c]) > tol {
					return false
				}
			}
		}
		return true
	}
	return mutPermFuncs{permute, isEquiv}
}

// ---- 03 sinusoidal ---------------------------------------------------------

func mutSinusoidalSuite() feedbackSuite {
	return mutSuite("sinusoidal", sinusoidalCases, mutSinusoidal, map[string]string{
		"sin_cos_swapped":   hintSinusoidalSwapped,
		"sin_cos_halves":    hintSinusoidalHalves,
		"exponent_i_over_d": hintSinusoidalExponent,
		"dimension_index":   hintSinusoidalExponent,
		"float32_angles":    hintFloat32,
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

func mutAddPositionsSuite() feedbackSuite {
	return mutSuite("add_positions", addPositionsCases, mutAddPositions, map[string]string{
		"no_scale":          hintAddNoScale,
		"scales_positions":  hintAddScaledPE,
		"divides_by_sqrt_d": hintAddDivided,
		"scales_by_d":       hintAddWrongD,
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
		for r := range emb {
			for j := range emb[r] {
				e, p := emb[r][j], table[r][j]
				switch bug {
				case "no_scale":
				case "scales_positions":
					p *= math.Sqrt(float64(d))
				case "divides_by_sqrt_d":
					e /= math.Sqrt(float64(d))
				case "scales_by_d":
					e *= float64(d)
				default:
					e *= math.Sqrt(float64(d))
				}
				out[r][j] = e + p
			}
		}
		return out
	}
}

// ---- 05 shift matrix -------------------------------------------------------

func mutShiftMatrixSuite() feedbackSuite {
	return mutSuite("shift_matrix", shiftMatrixCases, mutShiftMatrix, map[string]string{
		"rotation_convention": hintShiftBackwards,
		"one_step":            hintShiftOneStep,
		"exponent_i_over_d":   hintShiftExponent,
	})
}

func mutShiftMatrix(bug string) func(d, k int) [][]float64 {
	return func(d, k int) [][]float64 {
		m := make([][]float64, d)
		for r := range m {
			m[r] = make([]float64, d)
		}
		for i := 0; i < d/2; i++ {
			expo := 2 * float64(i) / float64(d)
			if bug == "exponent_i_over_d" {
				expo = float64(i) / float64(d)
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
}

// ---- 06 learned ------------------------------------------------------------

func mutLearnedSuite() feedbackSuite {
	return mutSuite("learned", learnedCases, mutLearned, map[string]string{
		"clamps":            hintLearnedClamp,
		"wraps_around":      hintLearnedWrap,
		"less_or_equal":     hintLearnedOffByOne,
		"rejects_last_row":  hintLearnedOffByOne,
		"vague_error":       hintLearnedErrorText,
		"shares_table_rows": hintLearnedAliases,
	})
}

func mutLearned(bug string) func(table [][]float64, positions []int) ([][]float64, error) {
	return func(table [][]float64, positions []int) ([][]float64, error) {
		out := make([][]float64, 0, len(positions))
		for _, p := range positions {
			switch bug {
			case "clamps":
				p = min(max(p, 0), len(table)-1)
			case "wraps_around":
				p = ((p % len(table)) + len(table)) % len(table)
			case "less_or_equal":
				if p < 0 || p > len(table) {
					return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
			case "rejects_last_row":
				if p < 0 || p >= len(table)-1 {
					return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
			case "vague_error":
				if p < 0 || p >= len(table) {
					return nil, errors.New("position out of range")
				}
			default:
				if p < 0 || p >= len(table) {
					return nil, fmt.Errorf("position %d out of range [0, %d)", p, len(table))
				}
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

// ---- 07 and 08 RoPE --------------------------------------------------------

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
			if bug == "exponent_i_over_d" {
				expo = float64(i) / float64(d)
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
			out[j] = src[j]*c - src[k]*s
			out[k] = src[j]*s + src[k]*c
		}
		return out
	}
}

func mutRoPESuite() feedbackSuite {
	return mutSuite("rope_interleaved", ropeCases,
		func(bug string) func([]float64, int, float64) []float64 { return mutRotate("interleaved", bug) },
		map[string]string{
			"wrong_way":         hintRoPEWrongWay,
			"other_layout":      hintRoPEHalvesForInterleaved,
			"exponent_i_over_d": hintRoPEExponent,
			"ignores_base":      hintRoPEBase,
			"float32_angles":    hintFloat32,
			"in_place":          hintRoPEMutates,
		})
}

type mutHalvesFuncs struct {
	rotate  func(x []float64, pos int, base float64) []float64
	convert func(v []float64) []float64
}

func mutRoPEHalvesSuite() feedbackSuite {
	cases := func(f mutHalvesFuncs) []exCase { return ropeHalvesCases(f.rotate, f.convert) }
	return mutSuite("rope_halves", cases, func(bug string) mutHalvesFuncs {
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
			return out
		}
		return mutHalvesFuncs{mutRotate("halves", bug), convert}
	}, map[string]string{
		"wrong_way":         hintRoPEWrongWay,
		"other_layout":      hintRoPEInterleavedForHalves,
		"exponent_i_over_d": hintRoPEExponent,
		"ignores_base":      hintRoPEBase,
		"float32_angles":    hintFloat32,
		"in_place":          hintRoPEMutates,
		"inverse_converter": hintConvertInverse,
	})
}

// ---- 09 NTK ----------------------------------------------------------------

type mutNTKFuncs struct {
	linear, ntk func(d int, base, factor float64) []float64
	dynamic     func(d int, base, factor float64, originalLen, seqLen int) []float64
}

func mutNTKSuite() feedbackSuite {
	cases := func(f mutNTKFuncs) []exCase { return ntkCases(f.linear, f.ntk, f.dynamic) }
	return mutSuite("ntk", cases, mutNTK, map[string]string{
		"linear_multiplies": hintLinearMultiplied,
		"ntk_no_exponent":   hintNTKExponent,
		"ntk_divides_all":   hintNTKIsLinear,
		"dynamic_no_max":    hintDynamicMax,
		"dynamic_static":    hintDynamicStatic,
		"dynamic_no_offset": hintDynamicOffset,
	})
}

func mutNTK(bug string) mutNTKFuncs {
	freqs := func(d int, base float64) []float64 {
		out := []float64{}
		for j := 0; j < d; j += 2 {
			out = append(out, 1/math.Pow(base, float64(j)/float64(d)))
		}
		return out
	}
	linear := func(d int, base, factor float64) []float64 {
		f := freqs(d, base)
		for i := range f {
			if bug == "linear_multiplies" {
				f[i] *= factor
			} else {
				f[i] /= factor
			}
		}
		return f
	}
	ntkBase := func(d int, base, factor float64) float64 {
		if bug == "ntk_no_exponent" {
			return base * factor
		}
		return base * math.Pow(factor, float64(d)/(float64(d)-2))
	}
	ntk := func(d int, base, factor float64) []float64 {
		if bug == "ntk_divides_all" {
			f := freqs(d, base)
			for i := range f {
				f[i] /= factor
			}
			return f
		}
		return freqs(d, ntkBase(d, base, factor))
	}
	dynamic := func(d int, base, factor float64, originalLen, seqLen int) []float64 {
		l := float64(seqLen)
		if bug != "dynamic_no_max" && seqLen < originalLen {
			l = float64(originalLen)
		}
		s := factor*l/float64(originalLen) - (factor - 1)
		switch bug {
		case "dynamic_static":
			s = factor
		case "dynamic_no_offset":
			s = factor * l / float64(originalLen)
		}
		return freqs(d, ntkBase(d, base, s))
	}
	return mutNTKFuncs{linear, ntk, dynamic}
}

// ---- 10 YaRN ---------------------------------------------------------------

type mutYaRNFuncs struct {
	freq func(d int, base, factor float64, originalLen int) []float64
	attn func(factor float64) float64
}

func mutYaRNSuite() feedbackSuite {
	cases := func(f mutYaRNFuncs) []exCase { return yarnCases(f.freq, f.attn) }
	return mutSuite("yarn", cases, mutYaRN, map[string]string{
		"ramp_reversed": hintYaRNReversed,
		"betas_swapped": hintYaRNReversed,
		"no_truncation": hintYaRNTruncate,
		"no_two_pi":     hintYaRNTwoPi,
		"all_linear":    hintYaRNAllLinear,
		"log10":         hintYaRNLog,
		"no_plus_one":   hintYaRNPlusOne,
	})
}

func mutYaRN(bug string) mutYaRNFuncs {
	freq := func(d int, base, factor float64, originalLen int) []float64 {
		betaFast, betaSlow := 32.0, 1.0
		if bug == "betas_swapped" {
			betaFast, betaSlow = betaSlow, betaFast
		}
		twoPi := 2 * math.Pi
		if bug == "no_two_pi" {
			twoPi = 1
		}
		dimFor := func(rot float64) float64 {
			return float64(d) * math.Log(float64(originalLen)/(rot*twoPi)) / (2 * math.Log(base))
		}
		lo, hi := dimFor(betaFast), dimFor(betaSlow)
		if bug != "no_truncation" {
			lo, hi = math.Floor(lo), math.Ceil(hi)
		}
		lo, hi = math.Max(lo, 0), math.Min(hi, float64(d-1))
		if lo == hi {
			hi += 0.001
		}
		out := make([]float64, d/2)
		for i := range out {
			extrap := math.Pow(base, -float64(2*i)/float64(d))
			interp := extrap / factor
			keep := 1 - math.Min(math.Max((float64(i)-lo)/(hi-lo), 0), 1)
			switch bug {
			case "ramp_reversed":
				keep = 1 - keep
			case "all_linear":
				keep = 0
			}
			out[i] = interp*(1-keep) + extrap*keep
		}
		return out
	}
	attn := func(factor float64) float64 {
		if factor <= 1 {
			return 1
		}
		switch bug {
		case "log10":
			return 0.1*math.Log10(factor) + 1
		case "no_plus_one":
			return 0.1 * math.Log(factor)
		}
		return 0.1*math.Log(factor) + 1
	}
	return mutYaRNFuncs{freq, attn}
}

// ---- 11 Llama 3 ------------------------------------------------------------

func mutLlama3Suite() feedbackSuite {
	return mutSuite("llama3", llama3Cases, mutLlama3, map[string]string{
		"wavelength_without_2pi": hintLlama3Wavelength,
		"bands_swapped":          hintLlama3Bands,
		"blend_reversed":         hintLlama3Smooth,
		"all_divided":            hintLlama3Linear,
	})
}

func mutLlama3(bug string) func(d int, base, factor float64, originalLen int) []float64 {
	return func(d int, base, factor float64, originalLen int) []float64 {
		lowWavelen, highWavelen := float64(originalLen)/1, float64(originalLen)/4
		var out []float64
		for j := 0; j < d; j += 2 {
			f := 1 / math.Pow(base, float64(j)/float64(d))
			wavelen := 2 * math.Pi / f
			if bug == "wavelength_without_2pi" {
				wavelen = 1 / f
			}
			var scaled float64
			switch {
			case bug == "all_divided":
				scaled = f / factor
			case wavelen < highWavelen && bug != "bands_swapped", wavelen > lowWavelen && bug == "bands_swapped":
				scaled = f
			case wavelen > lowWavelen, wavelen < highWavelen:
				scaled = f / factor
			default:
				smooth := (float64(originalLen)/wavelen - 1) / (4 - 1)
				if bug == "blend_reversed" {
					scaled = smooth*f/factor + (1-smooth)*f
				} else {
					scaled = (1-smooth)*f/factor + smooth*f
				}
			}
			out = append(out, scaled)
		}
		return out
	}
}

// ---- 12 ALiBi --------------------------------------------------------------

type mutALiBiFuncs struct {
	slopes func(heads int) []float64
	bias   func(slopes []float64, n int, causal bool) [][][]float64
}

func mutALiBiSuite() feedbackSuite {
	cases := func(f mutALiBiFuncs) []exCase { return alibiCases(f.slopes, f.bias) }
	return mutSuite("alibi", cases, mutALiBi, map[string]string{
		"plain_geometric": hintALiBiGeometric,
		"k_from_zero":     hintALiBiFromZero,
		"even_extras":     hintALiBiParity,
		"positive_bias":   hintALiBiSign,
		"no_causal_mask":  hintALiBiMask,
	})
}

func mutALiBi(bug string) mutALiBiFuncs {
	powerOfTwo := func(n int) []float64 {
		start := math.Pow(2, -8/float64(n))
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
		first := 0
		if bug == "even_extras" {
			first = 1
		}
		out := powerOfTwo(p)
		for k := first; len(out) < heads; k += 2 {
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
					dist := float64(j - i)
					if dist < 0 {
						dist = -dist
					}
					b := -m * dist
					if bug == "positive_bias" {
						b = m * dist
					}
					if causal && j > i && bug != "no_causal_mask" {
						b = math.Inf(-1)
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

func mutT5Suite() feedbackSuite {
	cases := func(f mutT5Funcs) []exCase { return t5Cases(f.bucket, f.matrix) }
	return mutSuite("t5_buckets", cases, mutT5, map[string]string{
		"query_minus_key":    hintT5QueryMinusKey,
		"direction_reversed": hintT5Direction,
		"no_clamp":           hintT5Clamp,
		"no_halving":         hintT5Halve,
	})
}

func mutT5(bug string) mutT5Funcs {
	bucket := func(rel int, bidirectional bool, numBuckets, maxDistance int) int {
		ret := 0
		n := -rel // HF's code negates first: n = −(key − query)
		if bug == "direction_reversed" {
			n = rel
		}
		if bidirectional {
			if bug != "no_halving" {
				numBuckets /= 2
			}
			if n < 0 {
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
		val := maxExact + int(math.Log(float64(n)/float64(maxExact))/math.Log(float64(maxDistance)/float64(maxExact))*float64(numBuckets-maxExact))
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
