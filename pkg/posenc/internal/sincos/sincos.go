// Package sincos fills tables of sin(p·ω_i) and cos(p·ω_i) for rows of
// consecutive positions p and a set of frequencies ω_i: the sinusoidal
// encoding's table (Vaswani et al. 2017) and the RoPE cache (Su et al.
// 2021) are both such tables, and posenc builds both here.
//
// A kernel's result is that of the plain loop of its doc comment, one
// [Product] per entry, to within a few float64 ulps before the one rounding
// to the element type. It gets there at memory speed with three devices:
//
//   - The rotation recurrence. sin((p+1)ω) and cos((p+1)ω) are a rotation of
//     sin(pω) and cos(pω) by ω (asm.RotatePairs), four multiplications and
//     two additions instead of a sine and a cosine. Each block of
//     [AnchorRows] rows starts again from an exact anchor, so the error never
//     grows past AnchorRows steps' worth.
//   - Tiles of pairs: one pass of the recurrence keeps [pairTile] pairs on the
//     stack, in L1 with their step tables, whatever the width.
//   - The AVX2 kernels of package asm for float32 rows, and package parallel
//     to spread the blocks over the cores.
package sincos

import "math"

// Product returns sin(p·w) and cos(p·w) for the exact product of p and w,
// p an integer below 2^53.
//
// The rounded product fl(p·w) is off by up to half an ulp of p·w (1.2e-7
// radians at p = 2^30, 1.2e-4 at 2^40), more than float32 can resolve;
// math.FMA recovers that rounding error exactly (p is an integer below 2^53,
// so p·w − fl(p·w) is a float64), and one more rotation by it puts the angle
// back where p·w really is.
func Product(p, w float64) (sin, cos float64) {
	hi := p * w
	lo := math.FMA(p, w, -hi)
	sh, ch := math.Sincos(hi)
	if lo == 0 {
		return sh, ch
	}
	if math.Abs(lo) < 1e-9 {
		// math.Sincos(lo) would return exactly (lo, 1) here: lo³/6 and lo²/2
		// are far below half an ulp of lo and of 1. Skipping it gives the
		// same bits at half the cost; it is the common case below 2^29.
		return sh + ch*lo, ch - sh*lo
	}
	sl, cl := math.Sincos(lo)
	return sh*cl + ch*sl, ch*cl - sh*sl
}
