package exercises

// HybridLayouts returns, for each layer of a model, how its attention
// rotates query and key pairs, as transformers does: "interleaved" (pairs
// of adjacent coordinates), "halves" (coordinate i with i + d/2) or "none"
// (the layer applies no RoPE).
//
//   - layerTypes[i] is the layer's entry of layer_types:
//     "full_attention", "sliding_attention", "linear_attention" (a
//     Mamba-2 or Gated DeltaNet mixer), "hybrid" (attention beside a
//     Mamba-2 mixer, Falcon-H1), "moe" or "mlp" (Nemotron-H's blocks
//     without attention);
//   - modelType is the config's model_type;
//   - positionEmbeddingType is the config's position_embedding_type, ""
//     when it has none.
//
// The rules: linear_attention, moe and mlp layers never rotate; a
// Nemotron-H model ("nemotron_h") rotates no layer; a Granite-4.0-H model
// ("granitemoehybrid") rotates only when positionEmbeddingType is "rope";
// every other layer rotates, interleaved for the model types
// "deepseek_v2", "deepseek_v3" and "llama4_text", in halves for all others.
// Return a new slice and leave layerTypes unchanged.
//
// Read lesson 9, “Read a hybrid”.
// Hints: exercises/README.md.
func HybridLayouts(modelType string, layerTypes []string, positionEmbeddingType string) []string {
	layout := "halves" // transformers' rotate_half on x[..., :d/2] and x[..., d/2:]
	switch modelType {
	case "deepseek_v2", "deepseek_v3", "llama4_text": // complex pairs, or rope_interleave's default
		layout = "interleaved"
	}
	out := make([]string, len(layerTypes))
	for i, t := range layerTypes {
		none := t == "linear_attention" || t == "moe" || t == "mlp" || // no attention to rotate
			modelType == "nemotron_h" || // its attention has no rotary embedding
			(modelType == "granitemoehybrid" && positionEmbeddingType != "rope")
		out[i] = layout
		if none {
			out[i] = "none"
		}
	}
	return out
}
