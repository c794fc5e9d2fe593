package check

// Learner-style implementations of exercise 8 (RoPE, half-split, and the layout converter), correct when bug
// is "" and otherwise wrong in one classic way: each must fail with the hint
// that names its mistake (feedback_test.go).

func init() { addSuite(mutRoPEHalvesSuite) }

type mutHalvesFuncs struct {
	rotate  func(x []float64, pos int, base float64) []float64
	convert func(v []float64) []float64
}

func mutRoPEHalvesSuite() suite {
	bugs := ropeBugHints(hintRoPEInterleavedForHalves)
	bugs["inverse_converter"] = hintConvertInverse
	bugs["converter_in_place"] = hintConvertMutates
	bugs["converter_returns_v_for_one_pair"] = hintConvertMutates
	return mutSuite(8, func(f mutHalvesFuncs, c RoPEHalvesCases) *Exercise { return RoPEHalves(f.rotate, f.convert, c) }, func(bug string) mutHalvesFuncs {
		convert := func(v []float64) []float64 {
			if bug == "converter_returns_v_for_one_pair" && len(v) == 2 { // nothing moves
				return v
			}
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
