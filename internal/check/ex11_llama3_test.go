package check

import "math"

// Learner-style implementations of exercise 11 (Llama 3 frequencies), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutLlama3Suite) }

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
