package posenc

import (
	"cmp"
	"math"
	"slices"

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
	b, at := minDecay(freq, maxDist)
	return b, at, nil
}

// minDecay returns the smallest B(m) for m = 0…maxDist and its first
// distance.
func minDecay(freq []float64, maxDist int) (float64, int) {
	minB, at := float64(len(freq)), 0
	scanDecay(freq, maxDist, func(m int, b float64) {
		if b < minB {
			minB, at = b, m
		}
	})
	return minB, at
}

// scanDecay calls visit(m, B(m)) for m = 1…maxDist. Each pair's
// (cos mω, sin mω) is advanced by one rotation per step, in float64, and
// re-anchored to an exact math.Sincos every decayAnchor steps, so the error
// stays near 1e-13 over any length at a few multiplications per pair and
// step.
func scanDecay(freq []float64, maxDist int, visit func(m int, b float64)) {
	const decayAnchor = 256
	n := len(freq)
	c, s := make([]float64, n), make([]float64, n)
	dc, ds := make([]float64, n), make([]float64, n)
	for i, w := range freq {
		ds[i], dc[i] = math.Sincos(w)
		c[i] = 1
	}
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
		visit(m, b)
	}
}

// RoPEBaseBoundTol is the tolerance of RoPEBaseLowerBound, relative to
// the base: the search certifies every base it passes as failing the
// bound, except inside steps of this relative width that it takes where
// no certificate reaches further.
const RoPEBaseBoundTol = 1e-7

// RoPEBaseLowerBound returns the smallest base for which plain RoPE over
// headDim dimensions keeps B(m) = Σ_i cos(m·ω_i) ≥ 0 for every integer
// distance m up to contextLen (Men et al. 2024), to a relative
// RoPEBaseBoundTol: the base it returns meets the bound, and every smaller
// base fails it, except possibly bases inside a window narrower than
// RoPEBaseBoundTol.
//
// The property is not monotone in the base: above the smallest good base
// lie bases that fail it again (for headDim 64 and 4096 tokens, bases
// between about 1.003e5 and 1.05e5 fail while 1.002e5 holds), so "the
// bound" is the smallest good base, not a threshold above which every base
// is good, and a bisection over the whole range, or a scan on a fixed grid,
// can miss it.
//
// The search follows the bound's structure rather than a grid. A base b
// fails because of a witness distance m with g_m(b) = B(m) < 0. Each g_m is
// a sum of headDim/2 cosines of m·b^(−2i/d), and its slope in t = ln b is at
// most K_m(b) = m·Σ_i ω_i·2i/d, which only falls as b grows, so g_m stays
// negative over the next −g_m/K_m in t: the search advances along the
// witness's own g_m (headDim/2 operations a step) to its next zero, takes
// the furthest zero among the most negative witnesses, and only there
// evaluates every distance again (MinLongTermDecay's scan). It returns a
// *ParamError for an odd or non-positive headDim, a headDim past 65536, or
// a contextLen outside [1, 2^24]; +Inf when no base up to 1e15 holds.
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
	const witnesses, remembered = 32, 256
	tol := math.Log1p(RoPEBaseBoundTol)
	tMax := math.Log(1e15)
	var recent []int // the most negative distances of the last full scan
	for t := math.Log(2); t <= tMax; {
		// A distance that was negative at the last full scan is likely
		// negative again: checking those first (headDim/2 operations
		// each) spares most full scans, and any negative one is a
		// witness as good as a full scan's.
		worst := negativeAmong(headDim, recent, t, witnesses)
		if len(worst) == 0 {
			freq, _ := NewRoPE(headDim).WithBase(math.Exp(t)).InvFreq()
			recent = negativeDistances(freq, contextLen, remembered)
			if len(recent) == 0 {
				return math.Exp(t), nil
			}
			worst = recent[:min(witnesses, len(recent))]
		}
		next := t + tol
		for _, m := range worst {
			next = max(next, witnessZero(headDim, m, t, tol, tMax))
		}
		t = next
	}
	return math.Inf(1), nil
}

// negativeDistances returns up to k distances m in [1, maxDist] where
// B(m) < 0 for freq, the most negative first, or none when B ≥ 0 over the
// whole range.
func negativeDistances(freq []float64, maxDist, k int) []int {
	type neg struct {
		m int
		b float64
	}
	var worst []neg
	scanDecay(freq, maxDist, func(m int, b float64) {
		if b >= 0 || (len(worst) == k && b >= worst[k-1].b) {
			return
		}
		i := len(worst)
		if i < k {
			worst = append(worst, neg{})
		} else {
			i = k - 1
		}
		for ; i > 0 && worst[i-1].b > b; i-- {
			worst[i] = worst[i-1]
		}
		worst[i] = neg{m, b}
	})
	out := make([]int, len(worst))
	for i, w := range worst {
		out[i] = w.m
	}
	return out
}

// negativeAmong returns up to k of the distances ms where g_m(t) =
// Σ_i cos(m·e^(−t·2i/d)) < 0, the most negative first.
func negativeAmong(headDim int, ms []int, t float64, k int) []int {
	type neg struct {
		m int
		g float64
	}
	var out []neg
	for _, m := range ms {
		if g, _, _ := witnessDecay(headDim, m, t); g < 0 {
			out = append(out, neg{m, g})
		}
	}
	slices.SortFunc(out, func(a, b neg) int { return cmp.Compare(a.g, b.g) })
	ms = ms[:0:0]
	for _, n := range out[:min(k, len(out))] {
		ms = append(ms, n.m)
	}
	return ms
}

// witnessDecay returns g_m(t) = Σ_i cos(m·ω_i) with ω_i = e^(−t·2i/d),
// its slope dg/dt = Σ_i sin(m·ω_i)·m·ω_i·e_i (e_i = 2i/d), and
// K2 = Σ_i (m·ω_i·e_i)² + m·ω_i·e_i², which bounds |d²g/dt²| from t on
// (each ω_i only falls as t grows).
func witnessDecay(headDim, m int, t float64) (g, slope, k2 float64) {
	r := math.Exp(-2 * t / float64(headDim))
	w := 1.0
	for i := range headDim / 2 {
		e := float64(2*i) / float64(headDim)
		sin, cos := math.Sincos(float64(m) * w)
		a := float64(m) * w * e
		g += cos
		slope += sin * a
		k2 += a*a + a*e
		w *= r
	}
	return g, slope, k2
}

// witnessZero returns the first t' > t (t = ln base) where g_m(t') ≥ 0. From
// each t it steps by the first zero of g + slope·Δ + K2·Δ²/2, a parabola
// that lies above g_m from t on, so g_m cannot reach 0 inside the step; and
// by at least tol. It returns tMax when g_m stays negative up to there.
func witnessZero(headDim, m int, t, tol, tMax float64) float64 {
	for t < tMax {
		g, slope, k2 := witnessDecay(headDim, m, t)
		if g >= 0 {
			return t
		}
		step := tol
		if k2 > 0 {
			step = max(step, (-slope+math.Sqrt(slope*slope-2*k2*g))/k2)
		}
		t += step
	}
	return tMax
}
