package exercises

// ServeYaRN returns the YaRN settings (rope_scaling's factor and
// original_max_position_embeddings, and the attention factor YaRN then
// applies to queries and keys) for serving prompts of up to longest tokens
// on a RoPE model trained on trainedLen tokens. A static scaling costs
// every request, so a longest prompt that fits (longest ≤ trainedLen)
// gets no scaling: factor 1 and attention factor 1. Otherwise the factor
// stretches the trained length exactly to longest, and the attention
// factor is YaRN's 0.1·ln(factor) + 1. originalLen is the length the
// model was trained on. The tests accept a relative error of 1e-12.
//
// Read lesson 11, “YaRN switched on for every request”.
// Hints: exercises/README.md.
func ServeYaRN(longest, trainedLen int) (factor float64, originalLen int, attention float64) {
	// TODO
	panic("not implemented yet: open exercises/38_serve_yarn.go")
}
