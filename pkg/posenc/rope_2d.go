package posenc

import (
	"math"
	"strconv"

	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc/internal/sincos"
)

// 2-D RoPE for vision transformers (Heo et al. 2024, "Rotary Position
// Embedding for Vision Transformer", https://arxiv.org/abs/2403.13298, and
// its code, naver-ai/rope-vit). A patch at column x and row y turns pair j
// by x·fx_j + y·fy_j, so the score of two patches depends only on their
// offset (Δx, Δy). Axial RoPE gives half the pairs to x and half to y;
// RoPE-Mixed gives every pair a frequency on both axes, learned, so a pair
// can follow a diagonal direction.

// GridPositions returns the column x and row y of each patch of an h×w grid
// in row-major order, as rope-vit's init_t_xy (t_x = t mod w, t_y = ⌊t/w⌋).
// It returns a *ParamError naming grid_h or grid_w for a side that is not
// positive, or grid for more than 2^31 patches.
func GridPositions(h, w int) (x, y []int, err error) {
	if err := validate.Positive("grid_h", h); err != nil {
		return nil, nil, err
	}
	if err := validate.Positive("grid_w", w); err != nil {
		return nil, nil, err
	}
	if err := validate.Elements("grid", h, w); err != nil {
		return nil, nil, err
	}
	x, y = make([]int, h*w), make([]int, h*w)
	for t := range x {
		x[t], y[t] = t%w, t/w
	}
	return x, y, nil
}

// AxialFreqs returns the per-pair frequencies (fx, fy) of axial 2-D RoPE for
// a head of headDim dimensions (a multiple of 4): headDim/2 pairs, the first
// headDim/4 turning with x at θ^(−4j/headDim) (j < headDim/4) and not with
// y, the others the same frequencies with y, as rope-vit's
// compute_axial_cis (freqs = 1/θ^(arange(0, dim, 4)[:dim/4]/dim), x's
// before y's; its default θ is 100).
//
// It returns a *ParamError naming head_dim when it is not a positive
// multiple of 4, or theta when it is not finite and > 1.
func AxialFreqs(headDim int, theta float64) (fx, fy []float64, err error) {
	mag, err := vitMagnitudes(headDim, theta)
	if err != nil {
		return nil, nil, err
	}
	q := headDim / 4
	fx, fy = make([]float64, 2*q), make([]float64, 2*q)
	copy(fx, mag)
	copy(fy[q:], mag)
	return fx, fy, nil
}

// MixedFreqs returns RoPE-Mixed's initial frequencies (fx, fy) for one head
// of headDim dimensions (a multiple of 4), turned by the head's angle φ, as
// rope-vit's init_random_2d_freqs (which draws φ uniformly in [0, 2π) per
// head; θ is 10 there): with m_j = θ^(−4j/headDim), j < headDim/4,
//
//	fx = [m·cos φ, m·cos(φ+π/2)],  fy = [m·sin φ, m·sin(φ+π/2)]
//
// so the first headDim/4 pairs turn along the direction φ and the others
// along the perpendicular one. Training then learns fx and fy freely.
// With φ = 0 it is axial RoPE (up to sin(π/2+0) rounding).
//
// It returns a *ParamError naming head_dim, theta or phi.
func MixedFreqs(headDim int, theta, phi float64) (fx, fy []float64, err error) {
	if err := validate.Finite("phi", phi); err != nil {
		return nil, nil, err
	}
	mag, err := vitMagnitudes(headDim, theta)
	if err != nil {
		return nil, nil, err
	}
	q := headDim / 4
	fx, fy = make([]float64, 2*q), make([]float64, 2*q)
	for j, m := range mag {
		fx[j], fy[j] = m*math.Cos(phi), m*math.Sin(phi)
		fx[q+j], fy[q+j] = m*math.Cos(math.Pi/2+phi), m*math.Sin(math.Pi/2+phi)
	}
	return fx, fy, nil
}

func vitMagnitudes(headDim int, theta float64) ([]float64, error) {
	if headDim <= 0 || headDim%4 != 0 {
		return nil, validate.Err("head_dim", headDim, "must be a positive multiple of 4")
	}
	if headDim > validate.MaxElements {
		return nil, validate.Err("head_dim", headDim, "must be <= 2^31")
	}
	if err := validate.Base("theta", theta); err != nil {
		return nil, err
	}
	mag := make([]float64, headDim/4)
	for j := range mag {
		mag[j] = math.Pow(theta, -float64(4*j)/float64(headDim))
	}
	return mag, nil
}

// Rotate2DTo rotates one head vector x (length 2·len(fx)) of the patch at
// column px and row py: pair j, at dimensions 2j and 2j+1 (rope-vit views
// consecutive dimensions as one complex number), turns by px·fx_j +
// py·fy_j. It writes the result to dst (which may be x).
//
// It returns a *ParamError for fx and fy of different lengths, lengths of x
// or dst that are not 2·len(fx), a non-finite frequency, or a position that
// is negative or beyond validate.MaxPosition.
func Rotate2DTo(dst, x, fx, fy []float64, px, py int) error {
	if err := validate.Len("fy", len(fy), len(fx)); err != nil {
		return err
	}
	for j := range fx {
		if err := validate.Finite("fx["+strconv.Itoa(j)+"]", fx[j]); err != nil {
			return err
		}
		if err := validate.Finite("fy["+strconv.Itoa(j)+"]", fy[j]); err != nil {
			return err
		}
	}
	if err := validate.Position("px", px); err != nil {
		return err
	}
	if err := validate.Position("py", py); err != nil {
		return err
	}
	if err := validate.Len("x", len(x), 2*len(fx)); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), 2*len(fx)); err != nil {
		return err
	}
	for j := range fx {
		sx, cx := sincos.Product(float64(px), fx[j])
		sy, cy := sincos.Product(float64(py), fy[j])
		s, c := sx*cy+cx*sy, cx*cy-sx*sy // the angle px·fx + py·fy, by the sum formulas
		xa, xb := x[2*j], x[2*j+1]
		dst[2*j], dst[2*j+1] = xa*c-xb*s, xa*s+xb*c
	}
	return nil
}
