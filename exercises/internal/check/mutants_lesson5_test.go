package check

// Learner-style implementations of the context-extension exercises (lesson
// 5: 9, 10, 11 and 18), correct when bug is "" and otherwise wrong in one
// classic way.

import "math"

// mutFreqs returns base^(−2i/d) for every pair, the way the learner's helper
// would, with 2i/d in integers for the "integer_division" bug.
func mutFreqs(bug string, d int, base float64) []float64 {
	out := []float64{}
	for j := 0; j < d; j += 2 {
		e := float64(j) / float64(d)
		if bug == "integer_division" {
			e = float64(j / d)
		}
		out = append(out, 1/math.Pow(base, e))
	}
	return out
}

// ---- 09 NTK ----------------------------------------------------------------

type mutNTKFuncs struct {
	linear, ntk func(d int, base, factor float64) []float64
	dynamic     func(d int, base, factor float64, originalLen, seqLen int) []float64
}

func mutNTKSuite() suite {
	build := func(f mutNTKFuncs) *Exercise { return NTK(f.linear, f.ntk, f.dynamic) }
	return mutSuite(9, build, mutNTK, map[string]*Hint{
		"linear_multiplies":        hintLinearMultiplied,
		"integer_division":         hintScaledIntDiv,
		"ntk_no_exponent":          hintNTKExponent,
		"ntk_int_exponent":         hintNTKExponent,
		"ntk_exponent_upside_down": hintNTKInverseExponent,
		"ntk_divides_all":          hintNTKIsLinear,
		"dynamic_no_max":           hintDynamicMax,
		"dynamic_static":           hintDynamicStatic,
		"dynamic_no_offset":        hintDynamicOffset,
		"dynamic_int_ratio":        hintDynamicIntDiv,
	})
}

func mutNTK(bug string) mutNTKFuncs {
	linear := func(d int, base, factor float64) []float64 {
		f := mutFreqs(bug, d, base)
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
		switch bug {
		case "ntk_no_exponent":
			return base * factor
		case "ntk_int_exponent":
			return base * math.Pow(factor, float64(d/(d-2)))
		case "ntk_exponent_upside_down":
			return base * math.Pow(factor, float64(d-2)/float64(d))
		}
		return base * math.Pow(factor, float64(d)/(float64(d)-2))
	}
	ntk := func(d int, base, factor float64) []float64 {
		if bug == "ntk_divides_all" {
			f := mutFreqs(bug, d, base)
			for i := range f {
				f[i] /= factor
			}
			return f
		}
		return mutFreqs(bug, d, ntkBase(d, base, factor))
	}
	dynamic := func(d int, base, factor float64, originalLen, seqLen int) []float64 {
		l := seqLen
		if bug != "dynamic_no_max" && seqLen < originalLen {
			l = originalLen
		}
		ratio := float64(l) / float64(originalLen)
		if bug == "dynamic_int_ratio" {
			ratio = float64(l / originalLen)
		}
		s := factor*ratio - (factor - 1)
		switch bug {
		case "dynamic_static":
			s = factor
		case "dynamic_no_offset":
			s = factor * ratio
		}
		return mutFreqs(bug, d, ntkBase(d, base, s))
	}
	return mutNTKFuncs{linear, ntk, dynamic}
}

// ---- 10 YaRN ---------------------------------------------------------------

type mutYaRNFuncs struct {
	freq func(d int, base, factor float64, originalLen int) []float64
	attn func(factor float64) float64
}

func mutYaRNSuite() suite {
	build := func(f mutYaRNFuncs) *Exercise { return YaRN(f.freq, f.attn) }
	return mutSuite(10, build, mutYaRN, map[string]*Hint{
		"ramp_reversed":        hintYaRNReversed,
		"betas_swapped":        hintYaRNReversed,
		"no_truncation":        hintYaRNTruncate,
		"rounds_both_ends":     hintYaRNTruncate,
		"no_two_pi":            hintYaRNTwoPi,
		"extended_length":      hintYaRNExtended,
		"no_low_clamp":         hintYaRNLowClamp,
		"no_high_clamp":        hintYaRNHighClamp,
		"high_clamp_to_pairs":  hintYaRNHighClamp,
		"no_zero_width_guard":  hintYaRNGuard,
		"integer_division":     hintScaledIntDiv,
		"all_linear":           hintYaRNAllLinear,
		"log10":                hintYaRNLog,
		"no_plus_one":          hintYaRNPlusOne,
		"no_small_factor_rule": hintYaRNSmallFactor,
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
		length := float64(originalLen)
		if bug == "extended_length" {
			length *= factor
		}
		dimFor := func(rot float64) float64 {
			return float64(d) * math.Log(length/(rot*twoPi)) / (2 * math.Log(base))
		}
		lo, hi := dimFor(betaFast), dimFor(betaSlow)
		switch bug {
		case "no_truncation":
		case "rounds_both_ends":
			lo, hi = math.Round(lo), math.Round(hi)
		default:
			lo, hi = math.Floor(lo), math.Ceil(hi)
		}
		if bug != "no_low_clamp" {
			lo = math.Max(lo, 0)
		}
		switch bug {
		case "no_high_clamp":
		case "high_clamp_to_pairs":
			hi = math.Min(hi, float64(d/2-1))
		default:
			hi = math.Min(hi, float64(d-1))
		}
		if lo == hi && bug != "no_zero_width_guard" {
			hi += 0.001
		}
		plain := mutFreqs(bug, d, base)
		out := make([]float64, d/2)
		for i := range out {
			extrap := plain[i]
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
		if factor <= 1 && bug != "no_small_factor_rule" {
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

func mutLlama3Suite() suite {
	return mutSuite(11, Llama3, mutLlama3, map[string]*Hint{
		"wavelength_without_2pi": hintLlama3Wavelength,
		"bands_swapped":          hintLlama3Bands,
		"blend_reversed":         hintLlama3Smooth,
		"smooth_over_4":          hintLlama3Denominator,
		"smooth_without_minus_1": hintLlama3Denominator,
		"integer_quarter":        hintLlama3IntDiv,
		"integer_division":       hintScaledIntDiv,
		"all_divided":            hintLlama3Linear,
	})
}

func mutLlama3(bug string) func(d int, base, factor float64, originalLen int) []float64 {
	return func(d int, base, factor float64, originalLen int) []float64 {
		lowWavelen, highWavelen := float64(originalLen)/1, float64(originalLen)/4
		if bug == "integer_quarter" {
			highWavelen = float64(originalLen / 4)
		}
		var out []float64
		for _, f := range mutFreqs(bug, d, base) {
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
				switch bug {
				case "smooth_over_4":
					smooth = (float64(originalLen)/wavelen - 1) / 4
				case "smooth_without_minus_1":
					smooth = float64(originalLen) / wavelen / 3
				}
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

// ---- 18 choosing a factor ----------------------------------------------------

type mutChooseFuncs struct {
	past   func(d int, base float64, trainLen, targetLen int) []int
	factor func(d int, base float64, trainLen, targetLen int) float64
}

func mutChooseFactorSuite() suite {
	build := func(f mutChooseFuncs) *Exercise { return ChooseFactor(f.past, f.factor) }
	return mutSuite(18, build, mutChoose, map[string]*Hint{
		"radians_not_turns": hintPastTwoPi,
		"decides_at_target": hintPastTargetLen,
		"ignores_length":    hintPastNotLonger,
		"finished_pairs":    hintPastComplement,
		"integer_ratio":     hintFactorIntRatio,
		"integer_exponent":  hintFactorIntExponent,
		"last_pair":         hintFactorExponentOne,
		"exponent_with_d":   hintFactorExponent,
		"zero_when_none":    hintFactorNone,
		"skips_pair_0":      hintFactorImpossible,
	})
}

func mutChoose(bug string) mutChooseFuncs {
	past := func(d int, base float64, trainLen, targetLen int) []int {
		var out []int
		if bug != "ignores_length" && targetLen <= trainLen {
			return out
		}
		for i := 0; i < d/2; i++ {
			theta := 1 / math.Pow(base, float64(2*i)/float64(d))
			length := trainLen
			if bug == "decides_at_target" {
				length = targetLen
			}
			turn := 2 * math.Pi
			if bug == "radians_not_turns" {
				turn = 1
			}
			unfinished := float64(length)*theta < turn
			if bug == "finished_pairs" {
				unfinished = !unfinished
			}
			if unfinished {
				out = append(out, i)
			}
		}
		return out
	}
	factor := func(d int, base float64, trainLen, targetLen int) float64 {
		p := past(d, base, trainLen, targetLen)
		if bug == "skips_pair_0" && len(p) > 0 && p[0] == 0 {
			p = p[1:]
		}
		if len(p) == 0 {
			if bug == "zero_when_none" {
				return 0
			}
			return 1
		}
		i := p[0]
		if bug == "last_pair" {
			i = p[len(p)-1]
		}
		r := float64(targetLen) / float64(trainLen)
		if bug == "integer_ratio" {
			r = float64(targetLen / trainLen)
		}
		e := float64(d-2) / float64(2*i)
		switch bug {
		case "integer_exponent":
			e = float64((d - 2) / (2 * i))
		case "exponent_with_d":
			e = float64(d) / float64(2*i)
		}
		return math.Pow(r, e)
	}
	return mutChooseFuncs{past, factor}
}
