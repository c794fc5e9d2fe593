package exercises

// SinkLayers and LargestPairs read an analysis of a trained model like
// lesson 11's.
//
// SinkLayers returns, in increasing order, the layers l whose query heads
// pay the first token, on average over heads, at least threshold of their
// attention: firstAttn[l][h] is head h's mean attention weight on token 0.
// It returns an empty slice when there are none.
//
// LargestPairs returns, for each layer l, the rotary pair with the largest
// norm. meanSquare[l][i] is the mean square of dimension i of the rotated
// queries of layer l, for a head of d = len(meanSquare[l]) dimensions in
// Hugging Face's half-split layout: pair i (i < d/2) is dimensions i and
// i + d/2, and its norm is the square root of the sum of their mean
// squares. On a tie, the smaller i. Leave the arguments unchanged.
//
// Read lesson 11, “Which pairs carry what”.
// Hints: exercises/README.md.
func SinkLayers(firstAttn [][]float64, threshold float64) []int {
	// TODO
	panic("not implemented yet: open exercises/39_probe_layers.go")
}

// LargestPairs: see SinkLayers's comment above.
func LargestPairs(meanSquare [][]float64) []int {
	// TODO
	panic("not implemented yet: open exercises/39_probe_layers.go")
}
