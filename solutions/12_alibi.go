package exercises

import "math"

// ALiBiSlopes returns the slope of each of heads attention heads for ALiBi
// (Press et al. 2022, "Train Short, Test Long"), exactly as the authors'
// get_slopes computes them, for any head count (not only powers of two).
//
// ALiBiBias returns the bias ALiBi adds to the attention logits of n
// queries over n keys, shaped [len(slopes)][n][n] (head, query, key): a
// penalty that grows with the distance between query and key, in proportion
// to each head's slope. With causal true it also hides the keys after each
// query, so that softmax gives them a weight of exactly 0.
//
// Read lesson 6, “The slopes” and “What the bias looks like”. Hints:
// exercises/README.md.
func ALiBiSlopes(heads int) []float64 {
	geometric := func(n, k int) float64 { return math.Exp2(-8 * float64(k) / float64(n)) }
	p := 1
	for p*2 <= heads {
		p *= 2
	}
	slopes := make([]float64, 0, heads)
	for k := 1; k <= p; k++ {
		slopes = append(slopes, geometric(p, k))
	}
	for k := 1; len(slopes) < heads; k += 2 { // odd k of the 2p sequence
		slopes = append(slopes, geometric(2*p, k))
	}
	return slopes
}

// ALiBiBias: see ALiBiSlopes's comment above.
func ALiBiBias(slopes []float64, n int, causal bool) [][][]float64 {
	bias := make([][][]float64, len(slopes))
	for h, m := range slopes {
		bias[h] = make([][]float64, n)
		for i := range n {
			row := make([]float64, n)
			for j := range n {
				row[j] = -m * math.Abs(float64(i-j))
				if causal && j > i {
					row[j] = math.Inf(-1) // a future key: masked
				}
			}
			bias[h][i] = row
		}
	}
	return bias
}
