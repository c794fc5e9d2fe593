package check

// Learner-style implementations of exercise 25 (Which layers rotate),
// correct when bug is "" and otherwise wrong in one classic way: each must
// fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutLayersSuite) }

func mutLayersSuite() suite {
	return mutSuite(25, LayersWithRoPE, mutLayers, map[string]*Hint{
		"reads_no_rope_as_named": hintNoRoPEInverted,
		"ignores_no_rope_layers": hintNoRoPEIgnored,
		"linear_rotates":         hintLinearRotates,
		"cohere_rule_for_all":    hintCohereEveryModel,
		"no_cohere_rule":         hintCohereMissing,
		"cohere_rule_inverted":   hintCohereInverted,
		"flips_in_place":         hintLayersMutates,
		"cohere_prefix":          hintCoherePrefix,
		"chunked_is_nope":        hintChunkedNoRoPE,
		"nil_turns_all_off":      hintNilNoRoPE,
	})
}

func mutLayers(bug string) func(modelType string, layerTypes []string, noRoPELayers []int) []bool {
	return func(modelType string, layerTypes []string, noRoPELayers []int) []bool {
		if bug == "flips_in_place" {
			// "no_rope_layers" reads as 1 = no RoPE: flip it to that meaning first.
			for i := range noRoPELayers {
				noRoPELayers[i] = 1 - noRoPELayers[i]
			}
		}
		out := make([]bool, len(layerTypes))
		for i, t := range layerTypes {
			rope := true
			if bug == "nil_turns_all_off" && i >= len(noRoPELayers) { // rope only where listed as 1
				rope = false
			}
			if noRoPELayers != nil && bug != "ignores_no_rope_layers" {
				switch bug {
				case "reads_no_rope_as_named", "flips_in_place":
					rope = noRoPELayers[i] == 0
					if bug == "reads_no_rope_as_named" {
						break
					}
					rope = noRoPELayers[i] == 0 // after the flip, 0 means RoPE
				default:
					rope = noRoPELayers[i] == 1
				}
			}
			if bug == "chunked_is_nope" && t == "chunked_attention" {
				rope = false
			}
			if t == "linear_attention" && bug != "linear_rotates" {
				rope = false
			}
			cohere := modelType == "cohere2" || bug == "cohere_rule_for_all" ||
				bug == "cohere_prefix" && len(modelType) >= 6 && modelType[:6] == "cohere"
			if cohere && bug != "no_cohere_rule" {
				if bug == "cohere_rule_inverted" {
					rope = rope && t != "sliding_attention"
				} else {
					rope = rope && t == "sliding_attention"
				}
			}
			out[i] = rope
		}
		return out
	}
}
