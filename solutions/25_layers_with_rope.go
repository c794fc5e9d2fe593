package exercises

// LayersWithRoPE reads the position settings of a Hugging Face config.json
// and returns, for each layer, whether it applies RoPE, as transformers
// does for these models:
//
//   - layerTypes[i] is the layer's entry of layer_types: "full_attention",
//     "sliding_attention", "chunked_attention" or "linear_attention";
//   - noRoPELayers is the config's no_rope_layers (Llama 4, SmolLM3), one
//     entry per layer, or nil when the config has none;
//   - modelType is the config's model_type.
//
// A linear-attention layer never applies RoPE, and a Cohere 2 model
// (modelType "cohere2") applies it on its sliding-window layers only.
// Leave the arguments unchanged.
//
// Read lesson 9, “Layers without positions, and Llama 4's temperature”.
// Hints: exercises/README.md.
func LayersWithRoPE(modelType string, layerTypes []string, noRoPELayers []int) []bool {
	uses := make([]bool, len(layerTypes))
	for i, t := range layerTypes {
		none := t == "linear_attention" || // a linear-attention (Gated DeltaNet) layer has no rotary embedding
			(modelType == "cohere2" && t != "sliding_attention") || // Cohere 2 rotates where there is a window
			// Despite its name, no_rope_layers[i] is 1 where layer i uses
			// RoPE and 0 where it does not.
			(noRoPELayers != nil && noRoPELayers[i] == 0)
		uses[i] = !none
	}
	return uses
}
