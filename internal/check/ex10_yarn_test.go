package check

import "math"

// Learner-style implementations of exercise 10 (YaRN frequencies and attention factor), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutYaRNSuite) }

type mutYaRNFuncs struct {
	freq func(d int, base, factor float64, originalLen int) []float64
	attn func(factor float64) float64
}

func mutYaRNSuite() suite {
	build := func(f mutYaRNFuncs, c YaRNCases) *Exercise { return YaRN(f.freq, f.attn, c) }
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
