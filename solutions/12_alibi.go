package exercises

import "math"

// ALiBiSlopes returns the slope m_h of each of heads attention heads for
// ALiBi (Press et al. 2022, "Train Short, Test Long"), as the authors'
// get_slopes computes them:
//
//   - when heads is a power of two, the geometric sequence
//     m_k = 2^(−8k/heads) for k = 1, …, heads (8 heads: 1/2, 1/4, …, 1/256);
//   - otherwise, with p the largest power of two below heads, the p slopes
//     for p heads, followed by the 1st, 3rd, 5th, … slopes of the sequence for
//     2p heads, until there are heads slopes.
//
// ALiBiBias returns the bias added to the attention logits of n queries over
// n keys, shaped [len(slopes)][n][n]: for head h, query i and key j,
//
//	symmetric (causal false):  −m_h·|i − j|
//	causal:                     −m_h·(i − j) for j ≤ i, and −Inf for j > i
//
// so that a key loses more of its score the farther it is, and in the causal
// case the bias doubles as the mask that hides future keys (math.Inf(-1)).
//
// Lesson 6 (ALiBi).
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
				switch {
				case causal && j > i:
					row[j] = math.Inf(-1) // a future key: masked
				default:
					row[j] = -m * math.Abs(float64(i-j))
				}
			}
			bias[h][i] = row
		}
	}
	return bias
}
