package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
)

// RoPEPrecision says in which format each step of computing a rotation is
// rounded. A model in bfloat16 or float16 can round the inverse frequencies
// (a buffer that model.to(torch.bfloat16) downcasts with the weights), the
// position IDs (converted to the model's dtype), the angle position·ω, and
// cos and sin. Hugging Face's rotary modules force float32 for the first
// three (inv_freq.float() @ position_ids.float(), autocast disabled) and
// cast cos and sin to the activations' dtype; this package's own functions
// compute everything in float64.
//
// The zero value computes everything in float64.
type RoPEPrecision struct {
	InvFreq  Format // ω_i as stored
	Position Format // the position, as converted to a float
	Angle    Format // the product position·ω_i, formed exactly and rounded once
	CosSin   Format // cos and sin, computed in float64 from the rounded angle and rounded once
}

// Validate returns a *ParamError for a format that is none of Float64,
// Float32, BFloat16 and Float16.
func (p RoPEPrecision) Validate() error {
	for _, f := range []struct {
		name string
		v    Format
	}{{"inv_freq format", p.InvFreq}, {"position format", p.Position}, {"angle format", p.Angle}, {"cos/sin format", p.CosSin}} {
		if _, ok := formatSpecs[f.v]; !ok {
			return validate.Err(f.name, int(f.v), "must be Float64, Float32, BFloat16 or Float16")
		}
	}
	return nil
}

// RotateRoundedTo rotates one head vector x (length r.HeadDim) to position
// pos as RotateTo does, with each step of the angle rounded as p says; the
// rotation itself (x·cos − y·sin, x·sin + y·cos) is in float64, so the
// result isolates the error of the positions. A rounded angle that is not
// finite (a float16 position past 65504 is +Inf) gives NaN outputs, as it
// does in the model.
//
// It returns a *ParamError for an invalid r or p, a bad pos, or lengths that
// are not r.HeadDim.
func RotateRoundedTo(dst, x []float64, r RoPE, pos int, p RoPEPrecision) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if err := validate.Position("pos", pos); err != nil {
		return err
	}
	if err := validate.Len("x", len(x), r.HeadDim); err != nil {
		return err
	}
	if err := validate.Len("dst", len(dst), r.HeadDim); err != nil {
		return err
	}
	rot, af := r.Rot(), r.AttentionFactor()
	m := p.Position.Round(float64(pos))
	for i := range rot / 2 {
		w := p.InvFreq.Round(r.Scaling.invFreq(i, rot, r.Base))
		angle := p.Angle.Round(m * w) // the product of two ≤ 53-bit values, rounded once
		s, c := math.Sincos(angle)
		s, c = p.CosSin.Round(s)*af, p.CosSin.Round(c)*af
		a, b := pairIndex(r.Layout, rot, i)
		xa, xb := x[a], x[b]
		dst[a], dst[b] = xa*c-xb*s, xa*s+xb*c
	}
	copy(dst[rot:], x[rot:])
	return nil
}

// RelativePropertyError measures how far RoPE computed with precision p
// departs from its relative property, the score of a query at m and a key
// at n depending on m−n only (Su et al. 2021, eq. 11):
//
//	|⟨R̃(m+t)q, R̃(n+t)k⟩ − ⟨R(m)q, R(n)k⟩| / (|q|·|k|)
//
// where R̃ rotates as RotateRoundedTo with p and R exactly (float64). It is
// 0 for exact arithmetic whatever t is; rounded positions and angles make
// it grow with m+t. A non-finite rounded score gives +Inf.
//
// It returns a *ParamError for an invalid r or p, a position m+t or n+t that
// is negative or beyond validate.MaxPosition, lengths of q and k that are
// not r.HeadDim, or a zero q or k.
func RelativePropertyError(q, k []float64, r RoPE, p RoPEPrecision, m, n, t int) (float64, error) {
	for _, v := range []struct {
		name string
		pos  int
	}{{"m", m}, {"n", n}, {"m+t", m + t}, {"n+t", n + t}} {
		if err := validate.Position(v.name, v.pos); err != nil {
			return 0, err
		}
	}
	if err := validate.Len("k", len(k), len(q)); err != nil {
		return 0, err
	}
	nq, nk := math.Sqrt(dot64(q, q)), math.Sqrt(dot64(k, k))
	if nq == 0 || nk == 0 || math.IsNaN(nq*nk) || math.IsInf(nq*nk, 0) {
		return 0, validate.Err("|q|·|k|", nq*nk, "must be finite and non-zero")
	}
	rq, rk := make([]float64, len(q)), make([]float64, len(k))
	if err := RotateRoundedTo(rq, q, r, m+t, p); err != nil {
		return 0, err
	}
	if err := RotateRoundedTo(rk, k, r, n+t, p); err != nil {
		return 0, err
	}
	got := dot64(rq, rk)
	if err := RotateTo(rq, q, r, m); err != nil {
		return 0, err
	}
	if err := RotateTo(rk, k, r, n); err != nil {
		return 0, err
	}
	e := math.Abs(got-dot64(rq, rk)) / (nq * nk)
	if math.IsNaN(e) || math.IsInf(e, 0) {
		return math.Inf(1), nil
	}
	return e, nil
}

func dot64(a, b []float64) (s float64) {
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
