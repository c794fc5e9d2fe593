package posenc

import (
	"strconv"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// Cached keys. A KV cache stores each key already rotated to its position,
// so that every later step reuses it. Rotations compose, R(a)·R(b) =
// R(a+b), so a key cached at position n can be moved to position n+Δ by
// rotating it by Δ, without its unrotated value: this is how a cache that
// drops tokens (StreamingLLM) gives the keys it keeps new positions, and why
// a cache must be re-rotated, or rebuilt, when the frequencies change under
// it (dynamic NTK, LongRoPE's switch).

// RotateBy rotates one head vector x (length r.HeadDim) by the relative
// offset delta, which may be negative, and writes the result to dst (which
// may be x): each pair turns by delta·ω_i. For a key rotated to position n,
// the result is the key rotated to n+delta, up to rounding. It is the
// re-rotation Hugging Face's SinkCache applied to the keys it kept
// (cos(Δω) and sin(Δω) built from the old and new positions' tables,
// _get_rerotation_cos_sin), and Xiao et al.'s StreamingLLM's positions
// inside the cache need it when keys are cached rotated.
//
// The attention factor (YaRN's, LongRoPE's) is not applied: it scales a
// vector once, when it is first rotated, and re-rotating must not scale it
// again. It returns a *ParamError for an invalid r, a |delta| beyond
// validate.MaxPosition, or lengths that are not r.HeadDim.
func RotateBy(dst, x []float64, r RoPE, delta int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if delta < -validate.MaxPosition || delta > validate.MaxPosition {
		return validate.Err("delta", delta, "must be in [-2^40, 2^40]")
	}
	if err := validate.Len("x", len(x), r.HeadDim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), r.HeadDim); err != nil {
		return err
	}
	rot := r.Rot()
	for i := range rot / 2 {
		s, c := sincos.Product(float64(delta), r.Scaling.invFreq(i, rot, r.Base))
		a, b := pairIndex(r.Layout, rot, i)
		xa, xb := x[a], x[b]
		dst[a], dst[b] = xa*c-xb*s, xa*s+xb*c
	}
	copy(dst[rot:], x[rot:])
	return nil
}

// StreamingKept returns the tokens that StreamingLLM's cache (Xiao et al.
// 2023, "Efficient Streaming Language Models with Attention Sinks",
// https://arxiv.org/abs/2309.17453) holds after total tokens: the first
// sinks tokens, the attention sinks, and the last window tokens, in order.
// While total ≤ sinks+window it holds them all. The reference code's
// StartRecentKVCache keeps k[:start_size] and k[seq_len−recent_size:].
//
// The model gives the kept tokens the positions 0 … len−1 inside the cache,
// not their positions in the text, so the distance from the newest query to
// a sink stays below sinks+window however long the stream runs.
//
// It returns a *ParamError for a negative total, sinks or window, or a
// cache of no tokens at all (sinks+window = 0).
func StreamingKept(total, sinks, window int) ([]int, error) {
	for _, p := range []struct {
		name string
		v    int
	}{{"total", total}, {"sinks", sinks}, {"window", window}} {
		if err := validate.NonNegative(p.name, p.v); err != nil {
			return nil, err
		}
	}
	if sinks+window == 0 || sinks > validate.MaxElements || window > validate.MaxElements {
		return nil, validate.Err("sinks+window", strconv.Itoa(sinks)+"+"+strconv.Itoa(window), "must be in [1, 2^31]")
	}
	if total <= sinks+window {
		kept := make([]int, total)
		for i := range kept {
			kept[i] = i
		}
		return kept, nil
	}
	kept := make([]int, 0, sinks+window)
	for i := range sinks {
		kept = append(kept, i)
	}
	for i := total - window; i < total; i++ {
		kept = append(kept, i)
	}
	return kept, nil
}
