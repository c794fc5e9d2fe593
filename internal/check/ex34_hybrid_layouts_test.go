package check

// Learner-style implementations of exercise 34 (Which layers of a hybrid
// rotate, and how), correct when bug is "" and otherwise wrong in one
// classic way: each must fail with the hint that names its mistake
// (feedback_test.go).

func init() { addSuite(mutHybridSuite) }

func mutHybridSuite() suite {
	return mutSuite(34, HybridLayouts, mutHybrid, map[string]*Hint{
		"blocks_rotate":     hintHybridBlocksRotate,
		"nemotron_rotates":  hintHybridNemotron,
		"granite_ignored":   hintHybridGranite,
		"all_halves":        hintHybridAllHalves,
		"all_interleaved":   hintHybridAllInterleaved,
		"rewrites_in_place": hintHybridMutates,
	})
}

func mutHybrid(bug string) func(modelType string, layerTypes []string, positionEmbeddingType string) []string {
	return func(modelType string, layerTypes []string, positionEmbeddingType string) []string {
		interleaved := map[string]bool{"deepseek_v2": true, "deepseek_v3": true, "llama4_text": true}[modelType]
		out := layerTypes
		if bug != "rewrites_in_place" {
			out = make([]string, len(layerTypes))
		}
		for i, t := range layerTypes {
			switch {
			case (t == "linear_attention" || t == "moe" || t == "mlp") && bug != "blocks_rotate":
				out[i] = "none"
			case modelType == "nemotron_h" && bug != "nemotron_rotates":
				out[i] = "none"
			case modelType == "granitemoehybrid" && positionEmbeddingType != "rope" && bug != "granite_ignored":
				out[i] = "none"
			case bug == "all_halves":
				out[i] = "halves"
			case interleaved || bug == "all_interleaved":
				out[i] = "interleaved"
			default:
				out[i] = "halves"
			}
		}
		return out
	}
}
