package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
)

// The long-term decay property of Men et al. 2024, "Base of RoPE Bounds
// Context Length" (https://arxiv.org/abs/2405.14591), section 4: a query
// should attend more to a similar key than to a random one at every
// distance m up to the context length L. For queries and keys whose
// coordinates are i.i.d. with mean zero, the expected gap between the two is
// proportional to
//
//	B(m) = Σ_i cos(m·ω_i)
//
// over the rotary pairs, so the property is B(m) ≥ 0 for 0 ≤ m ≤ L. B(m)
// falls as m grows, and it falls sooner the smaller the base, so each L
// has a smallest base that keeps B non-negative up to it: the base bounds
// the context length.

// MinLongTermDecay returns the smallest value of B(m) = Σ_i cos(m·ω_i) over
// m in [0, maxDist], with r's frequencies (scaling included; p-RoPE's
// zero frequencies add 1 each, as cos 0), and the first distance where it
// is reached. It returns a *ParamError for an invalid r or a maxDist that
// is negative or past 2^32.
func MinLongTermDecay(r RoPE, maxDist int) (minB float64, at int, err error) {
	freq, err := r.InvFreq()
	if err != nil {
		return 0, 0, err
	}
	if maxDist < 0 || maxDist > 1<<32 {
		return 0, 0, validate.Err("max_dist", maxDist, "must be in [0, 2^32]")
	}
	b, at := minDecay(freq, maxDist, math.Inf(-1))
	return b, at, nil
}

// minDecay scans B(m) for m = 0…maxDist, stopping early once B falls below
// stop. Each pair's (cos mω, sin mω) is advanced by one rotation per step,
// in float64, and re-anchored to an exact math.Sincos every decayAnchor
// steps, so the error stays near 1e-13 over any length at a few
// multiplications per pair and step.
func minDecay(freq []float64, maxDist int, stop float64) (float64, int) {
	const decayAnchor = 256
	n := len(freq)
	c, s := make([]float64, n), make([]float64, n)
	dc, ds := make([]float64, n), make([]float64, n)
	for i, w := range freq {
		ds[i], dc[i] = math.Sincos(w)
		c[i] = 1
	}
	minB, at := float64(n), 0
	for m := 1; m <= maxDist; m++ {
		b := 0.0
		if m%decayAnchor == 0 {
			for i, w := range freq {
				s[i], c[i] = math.Sincos(float64(m) * w)
				b += c[i]
			}
		} else {
			for i := range c {
				c[i], s[i] = c[i]*dc[i]-s[i]*ds[i], s[i]*dc[i]+c[i]*ds[i]
				b += c[i]
			}
		}
		if b < minB {
			minB, at = b, m
			if b < stop {
				break
			}
		}
	}
	return minB, at
}

// RoPEBaseLowerBound returns the smallest base for which plain RoPE over
// headDim dimensions keeps B(m) ≥ 0 for every distance m up to contextLen
// (Men et al. 2024): the first base of the geometric grid 2·1.01^k that has
// the property, refined to a relative 1e-6 by bisection within its grid
// step. The property is not monotonic in the base (a base just below a
// good one can be good too), hence the upward scan rather than a bisection
// over the whole range; a base far below the bound fails within a few
// distances, so the scan is cheap until it nears the bound. It returns a
// *ParamError for an odd or non-positive headDim, a headDim past 65536, or
// a contextLen outside [1, 2^24].
func RoPEBaseLowerBound(headDim, contextLen int) (float64, error) {
	if err := validate.EvenPositive("head_dim", headDim); err != nil {
		return 0, err
	}
	if headDim > 1<<16 {
		return 0, validate.Err("head_dim", headDim, "must be <= 65536")
	}
	if contextLen < 1 || contextLen > 1<<24 {
		return 0, validate.Err("context_len", contextLen, "must be in [1, 2^24]")
	}
	holds := func(base float64) bool {
		freq, _ := NewRoPE(headDim).WithBase(base).InvFreq()
		b, _ := minDecay(freq, contextLen, 0)
		return b >= 0
	}
	const step = 1.01
	base := 2.0
	if holds(base) {
		return base, nil
	}
	for !holds(base * step) {
		base *= step
		if base > 1e15 {
			return math.Inf(1), nil
		}
	}
	lo, hi := math.Log(base), math.Log(base*step)
	for hi-lo > 1e-6 {
		mid := (lo + hi) / 2
		if holds(math.Exp(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Exp(hi), nil
}
