package posenc

import "github.com/posenc/course/internal/validate"

// Pair returns the dimensions of a head that hold rotation pair i, for i in
// [0, Rot()/2): 2i and 2i+1 with Interleaved pairs, i and i+Rot()/2 with
// Halves. Dimensions from Rot() on belong to no pair.
func (r RoPE) Pair(i int) (a, b int) { return pairIndex(r.Layout, r.Rot(), i) }

// RoPETablesTo writes the two row-major [n, HeadDim] tables C and S with
// which RoPE is elementwise, for positions start, …, start+n−1, where
// n = len(c)/HeadDim:
//
//	rotate(x, m) = x ⊙ C[m] + swap(x) ⊙ S[m]
//
// swap exchanges the two members of every pair (see [RoPE.Pair]). For pair
// i = (a, b) at position m, C[m][a] = C[m][b] = cos(mω_i) and
// S[m][a] = −sin(mω_i), S[m][b] = +sin(mω_i), each times the attention
// factor; dimensions past Rot() have C = 1 and S = 0. This is the form a
// tensor library applies (GoMLX graphs, numpy, PyTorch's rotate_half): two
// multiplications by tables, one swap, one addition, with every angle
// computed here in float64.
//
// It returns a *ParamError for an invalid r, a negative start or a last
// position past 2^40, a len(c) that is not a positive multiple of HeadDim,
// or len(s) ≠ len(c).
func RoPETablesTo(c, s []float64, r RoPE, start int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	hd := r.HeadDim
	if len(c) == 0 || len(c)%hd != 0 {
		return validate.Err("len(c)", len(c), "must be a positive multiple of head_dim ("+itoa(hd)+")")
	}
	if err := validate.Len("s", len(s), len(c)); err != nil {
		return err
	}
	n := len(c) / hd
	if err := validate.Position("start", start); err != nil {
		return err
	}
	if start > validate.MaxPosition-n {
		return validate.Err("start", start, "leaves the last position past 2^40")
	}
	cache := newRoPECacheRange(r, start, n)
	half := cache.half
	for p := range n {
		cr, sr := c[p*hd:(p+1)*hd], s[p*hd:(p+1)*hd]
		for i := range half {
			a, b := r.Pair(i)
			cos, sin := cache.cos[p*half+i], cache.sin[p*half+i]
			cr[a], cr[b] = cos, cos
			sr[a], sr[b] = -sin, sin
		}
		for j := 2 * half; j < hd; j++ {
			cr[j], sr[j] = 1, 0
		}
	}
	return nil
}
