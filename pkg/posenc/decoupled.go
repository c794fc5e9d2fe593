package posenc

import "github.com/posenc/course/internal/validate"

// Decoupled RoPE (DeepSeek-V2, https://arxiv.org/abs/2405.04434, section
// 2.1.3; DeepSeek-V3 keeps it). Multi-head latent attention caches one
// small latent vector c per token and makes each head's key from it,
// k = W_UK·c. Without positions the score q·k = (W_UKᵀq)·c lets W_UK be
// absorbed into the query side, so attention runs on the cached latents
// directly. RoPE breaks this: the score becomes qᵀ·R(n−m)·W_UK·c, and the
// rotation R(n−m) between q and W_UK depends on both positions, so no fixed
// matrix can absorb W_UK. DeepSeek therefore splits each query and key
// head: a position-free part (qk_nope_head_dim, from the latent, absorbable)
// and a small rotary part (qk_rope_head_dim, its key shared by all heads
// and cached beside c), and adds the two dot products.

// DecoupledScore returns the attention logit (before the softmax scale) of
// a query at position m and a key at position n with decoupled RoPE:
//
//	qNope·kNope + ⟨R(m)·qRope, R(n)·kRope⟩
//
// where R rotates with r (r.HeadDim = len(qRope) = len(kRope), the
// qk_rope_head_dim). It returns a *ParamError for mismatched lengths, an
// invalid r or a bad position.
func DecoupledScore(qNope, kNope, qRope, kRope []float64, r RoPE, m, n int) (float64, error) {
	if err := validate.Len("k_nope", len(kNope), len(qNope)); err != nil {
		return 0, err
	}
	rq := make([]float64, len(qRope))
	rk := make([]float64, len(kRope))
	if err := RotateTo(rq, qRope, r, m); err != nil {
		return 0, err
	}
	if err := RotateTo(rk, kRope, r, n); err != nil {
		return 0, err
	}
	var s float64
	for i := range qNope {
		s += qNope[i] * kNope[i]
	}
	for i := range rq {
		s += rq[i] * rk[i]
	}
	return s, nil
}
