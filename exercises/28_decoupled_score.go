package exercises

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
	// TODO
	panic("not implemented yet: open exercises/28_decoupled_score.go")
}
