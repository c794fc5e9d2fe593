package exercises

import "math"

// DecoupledScore returns the attention logit, before the softmax scale, of
// a query at position m and a key at position n in DeepSeek's multi-head
// latent attention, whose heads have a position-free part (qNope, kNope)
// and a rotary part (qRope, kRope):
//
//	qNope·kNope + ⟨R(m)·qRope, R(n)·kRope⟩
//
// R is RoPE with the given base in the interleaved layout DeepSeek uses:
// pair i is dimensions (2i, 2i+1), rotated at position p by the angle
// p·base^(−2i/d), d = len(qRope). qNope and kNope have the same length,
// qRope and kRope the same even length. Leave the slices unchanged.
//
// Read lesson 9, “DeepSeek's decoupled RoPE”.
// Hints: exercises/README.md.
func DecoupledScore(qNope, kNope, qRope, kRope []float64, base float64, m, n int) float64 {
	score := 0.0
	for i := range qNope {
		score += qNope[i] * kNope[i] // no rotation: this part carries no position
	}
	d := len(qRope)
	for i := 0; i < d/2; i++ {
		w := math.Pow(base, -2*float64(i)/float64(d))
		// ⟨R(m)q, R(n)k⟩ for one pair is ⟨R(m−n)q, k⟩: rotate the query's
		// pair by (m−n)·ω and take its dot product with the key's.
		s, c := math.Sincos(float64(m-n) * w)
		a, b := qRope[2*i], qRope[2*i+1]
		score += (a*c-b*s)*kRope[2*i] + (a*s+b*c)*kRope[2*i+1]
	}
	return score
}
