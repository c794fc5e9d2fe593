package posenc

import (
	"math"
)

// Spacing selects how a sinusoidal table spaces its frequencies.
type Spacing int

const (
	// SpacingVaswani uses ω_i = base^(−2i/d) for pair i of d dimensions
	// (Vaswani et al. 2017, section 3.5). The lowest frequency is
	// base^(−(d−2)/d), just above 1/base.
	SpacingVaswani Spacing = iota
	// SpacingT2T uses ω_i = base^(−i/(d/2−1)), tensor2tensor's
	// get_timing_signal_1d with min_timescale 1 and max_timescale base: the
	// lowest frequency is exactly 1/base.
	SpacingT2T
)

// Sinusoidal configures the fixed sinusoidal position table of Vaswani et
// al. 2017, "Attention Is All You Need" (https://arxiv.org/abs/1706.03762):
//
//	PE(pos, 2i)   = sin(pos · ω_i)
//	PE(pos, 2i+1) = cos(pos · ω_i),   ω_i = base^(−2i/d)
//
// Create one with NewSinusoidal and adjust it with the With methods; the zero
// value is not valid (its Base is 0).
type Sinusoidal struct {
	// Dim is d_model, the width of each position vector; it must be even.
	Dim int
	// Base sets the range of wavelengths, from 2π to 2π·Base; it must be > 1.
	Base float64
	// Layout is where the sin and cos of each frequency live: Interleaved
	// (even = sin, odd = cos) or Halves ([sin | cos]).
	Layout Layout
	// Spacing is how frequencies are spaced.
	Spacing Spacing
}

// NewSinusoidal returns the table of the paper for d_model = dim: base
// 10000, interleaved, Vaswani spacing.
func NewSinusoidal(dim int) Sinusoidal {
	return Sinusoidal{Dim: dim, Base: 10000, Layout: Interleaved, Spacing: SpacingVaswani}
}

// WithBase returns s with another base (10000 in the paper).
func (s Sinusoidal) WithBase(base float64) Sinusoidal { s.Base = base; return s }

// WithLayout returns s with another layout, keeping its frequency spacing.
func (s Sinusoidal) WithLayout(l Layout) Sinusoidal { s.Layout = l; return s }

// WithTensor2Tensor returns s laid out as tensor2tensor does: [sin | cos]
// halves with SpacingT2T frequencies.
func (s Sinusoidal) WithTensor2Tensor() Sinusoidal {
	s.Layout, s.Spacing = Halves, SpacingT2T
	return s
}

// Validate returns a *ParamError for an odd or non-positive Dim, a Base that
// is not a finite number > 1, or an unknown Layout or Spacing.
func (s Sinusoidal) Validate() error {
	if err := checkEvenPositive("dim", s.Dim); err != nil {
		return err
	}
	if s.Dim > maxElements { // Frequencies and ShiftMatrix allocate by Dim alone
		return paramErr("dim", s.Dim, "must be <= 2^31")
	}
	if err := checkBase("base", s.Base); err != nil {
		return err
	}
	if err := checkLayout("layout", s.Layout); err != nil {
		return err
	}
	if s.Spacing != SpacingVaswani && s.Spacing != SpacingT2T {
		return paramErr("spacing", int(s.Spacing), "must be SpacingVaswani or SpacingT2T")
	}
	return nil
}

// Frequencies returns ω_i for each of the Dim/2 pairs, in radians per
// position, highest first.
func (s Sinusoidal) Frequencies() ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s.frequenciesTo(make([]float64, s.Dim/2)), nil
}

// frequenciesTo fills dst (length Dim/2) with ω_i; s must be valid.
func (s Sinusoidal) frequenciesTo(dst []float64) []float64 {
	half := s.Dim / 2
	logBase := math.Log(s.Base)
	for i := range dst[:half] {
		switch s.Spacing {
		case SpacingT2T:
			// tensor2tensor: log_timescale_increment = log(max/min) / max(num_timescales − 1, 1).
			dst[i] = math.Exp(-float64(i) * logBase / float64(max(half-1, 1)))
		default:
			dst[i] = math.Exp(-float64(2*i) / float64(s.Dim) * logBase)
		}
	}
	return dst
}

// SinusoidalTo fills dst, a row-major [rows, s.Dim] table with
// rows = len(dst)/s.Dim, with the encodings of positions start, start+1, ….
//
// Each pair of row start+r is computed as an exact float64 sin/cos every
// anchorRows rows and as a float64 rotation of the previous row in between
// (PE(pos+1) is a rotation of PE(pos)); each value is rounded once to T. The
// float32 table stays within 6e-8 of a float64 reference at any position up
// to 2^40.
//
// It returns a *ParamError when s is invalid, start is negative or huge, or
// len(dst) is not a positive multiple of s.Dim. It allocates nothing once
// warm.
func SinusoidalTo[T Float](dst []T, s Sinusoidal, start int) error {
	return sinusoidalTo(dst, nil, 1, s, start)
}

// SinusoidalTable returns the [n, s.Dim] row-major table for positions
// start, …, start+n−1. Use Rows to view it as rows.
func SinusoidalTable[T Float](s Sinusoidal, start, n int) ([]T, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := checkPositive("n", n); err != nil {
		return nil, err
	}
	if err := checkElements("n×dim", n, s.Dim); err != nil {
		return nil, err
	}
	dst := make([]T, n*s.Dim)
	if err := SinusoidalTo(dst, s, start); err != nil {
		return nil, err
	}
	return dst, nil
}

// AddSinusoidalTo sets dst = emb·√d + PE when scaleEmb is true, or
// dst = emb + PE otherwise, for emb a row-major [rows, s.Dim] matrix of token
// embeddings at positions start, start+1, …. dst may be emb itself.
//
// Scaling by √d_model (Vaswani et al. 2017, section 3.4) matters when the
// embedding table is shared with the output layer and initialised with
// variance 1/d: its entries are then about 1/√d in size, and without the
// scale the position signal (entries up to 1) would drown the token signal.
func AddSinusoidalTo[T Float](dst, emb []T, s Sinusoidal, start int, scaleEmb bool) error {
	if err := checkLen("dst", len(dst), len(emb)); err != nil {
		return err
	}
	scale := 1.0
	if scaleEmb {
		scale = math.Sqrt(float64(s.Dim))
	}
	if emb == nil {
		emb = dst[:0] // keep the "add" path even for empty slices; sinusoidalTo reports the length
	}
	return sinusoidalTo(dst, emb, scale, s, start)
}

// sinusoidalTo validates and runs the kernel; emb == nil means "no embeddings".
func sinusoidalTo[T Float](dst, emb []T, scale float64, s Sinusoidal, start int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if err := checkPosition("start", start); err != nil {
		return err
	}
	if len(dst) == 0 || len(dst)%s.Dim != 0 {
		return paramErr("len(dst)", len(dst), "must be a positive multiple of dim")
	}
	rows := len(dst) / s.Dim
	if start > maxPosition-rows {
		return paramErr("start", start, "leaves the last position past 2^40")
	}
	k := getKernel[sinusoidalKernel[T]](&sinusoidalKernels)
	k.dst, k.emb, k.scale = dst, emb, scale
	k.dim, k.start, k.rows, k.layout = s.Dim, start, rows, s.Layout
	half := s.Dim / 2
	k.freq = s.frequenciesTo(growFloat64(k.freq, half))
	k.setFrequencies(k.freq)
	k.run()
	k.dst, k.emb = nil, nil
	putKernel(&sinusoidalKernels, k)
	return nil
}

// anchorRows is how many rows share one exact float64 anchor. The rotation
// recurrence loses at most a few ulps of float64 per row, so after
// anchorRows steps the error is still about 1e-14, far below float32's
// resolution (6e-8), and the anchors cost one math.Sincos per pair per
// anchorRows rows. The kernel's units of parallel work are blocks of
// anchorRows rows, so that no anchor is computed twice.
const anchorRows = 128

// sincosProduct returns sin(p·w) and cos(p·w) for the exact product of p
// and w. The rounded product fl(p·w) is off by up to half an ulp of p·w
// (1.2e-7 radians at p = 2^30, 1.2e-4 at 2^40), more than float32 can
// resolve; math.FMA recovers that rounding error exactly (p is an integer
// below 2^53, so p·w − fl(p·w) is a float64), and one more rotation by it
// puts the angle back where p·w really is.
func sincosProduct(p, w float64) (sin, cos float64) {
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

// pairTile is how many pairs one pass of the recurrence keeps on the stack
// (two float64 arrays of 2 KiB: in L1 with the step tables).
const pairTile = 256

// sinusoidalKernel writes sin(pos·ω_i) and cos(pos·ω_i) for rows of
// positions. It serves two tables: the sinusoidal encoding (dst, optionally
// plus scaled embeddings, in the given layout) and the RoPE cache (separate
// sinOut and cosOut tables of dim/2 columns, times amp).
type sinusoidalKernel[T Float] struct {
	parallelJob
	dst, emb               []T
	scale                  float64
	sinOut, cosOut         []T
	amp                    float64
	dim, start, rows       int
	layout                 Layout
	freq, stepSin, stepCos []float64
}

// setFrequencies sets the kernel's frequencies (freq may be k.freq itself)
// and the one-step rotation of each.
func (k *sinusoidalKernel[T]) setFrequencies(freq []float64) {
	n := len(freq)
	k.freq = append(k.freq[:0], freq...)
	k.stepSin, k.stepCos = growFloat64(k.stepSin, n), growFloat64(k.stepCos, n)
	for i, w := range k.freq {
		k.stepSin[i], k.stepCos[i] = math.Sincos(w)
	}
}

// run fills k.rows rows on the calling goroutine and the workers.
func (k *sinusoidalKernel[T]) run() {
	blocks := (k.rows + anchorRows - 1) / anchorRows
	parallelUnits(k, blocks, anchorRows*k.dim, &k.parallelJob)
}

var sinusoidalKernels typedPool[sinusoidalKernel[float32], sinusoidalKernel[float64]]

// runRows fills the anchor blocks [lo, hi): rows [lo·anchorRows,
// hi·anchorRows) of the table.
func (k *sinusoidalKernel[T]) runRows(lo, hi int) {
	var sn, cs [pairTile]float64
	half := k.dim / 2
	for b := lo; b < hi; b++ {
		r0 := b * anchorRows
		r1 := min(r0+anchorRows, k.rows)
		for p0 := 0; p0 < half; p0 += pairTile {
			n := min(pairTile, half-p0)
			freq := k.freq[p0 : p0+n]
			stepSin, stepCos := k.stepSin[p0:p0+n], k.stepCos[p0:p0+n]
			pos := float64(k.start + r0)
			for i, w := range freq {
				sn[i], cs[i] = sincosProduct(pos, w)
			}
			for r := r0; r < r1; r++ {
				// Angle addition: PE(pos+1) = rotation by ω_i of PE(pos).
				// (The step after a block's last row is wasted: 1/128.)
				k.writeRowStep(r, p0, sn[:n], cs[:n], stepSin, stepCos)
			}
		}
	}
}

// writeRowStep stores pairs p0… of row r and advances them by one step.
func (k *sinusoidalKernel[T]) writeRowStep(r, p0 int, sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	cs, stepSin, stepCos = cs[:n], stepSin[:n], stepCos[:n]
	if n4 := n &^ 3; useSIMD && n4 > 0 && is32[T]() && k.sinOut == nil && k.emb == nil {
		row := asF32(k.dst[r*k.dim : (r+1)*k.dim])
		if k.layout == Interleaved {
			out := row[2*p0 : 2*(p0+n4)]
			sinStepInterleavedF32AVX2(&out[0], &sn[0], &cs[0], &stepSin[0], &stepCos[0], n4)
		} else {
			half := k.dim / 2
			outS, outC := row[p0:p0+n4], row[half+p0:half+p0+n4]
			sinStepHalvesF32AVX2(&outS[0], &outC[0], &sn[0], &cs[0], &stepSin[0], &stepCos[0], n4)
		}
		if n4 == n {
			return
		}
		p0, sn, cs, stepSin, stepCos = p0+n4, sn[n4:], cs[n4:], stepSin[n4:], stepCos[n4:]
	}
	k.writeRow(r, p0, sn, cs)
	rotatePairs(sn, cs, stepSin, stepCos)
}

// rotatePairs advances each (sin, cos) pair by one step of its frequency:
//
//	sin(a+ω) = sin a·cos ω + cos a·sin ω
//	cos(a+ω) = cos a·cos ω − sin a·sin ω
//
// The float64 conversions keep the compiler from fusing a product and a sum
// into one FMA, so every build (and the assembly kernels) rounds alike.
func rotatePairs(sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	cs, stepSin, stepCos = cs[:n], stepSin[:n], stepCos[:n]
	for i := range n {
		s, c := sn[i], cs[i]
		ss, sc := stepSin[i], stepCos[i]
		sn[i] = float64(s*sc) + float64(c*ss)
		cs[i] = float64(c*sc) - float64(s*ss)
	}
}

// writeRow stores pairs p0… of row r, adding the embeddings when present.
func (k *sinusoidalKernel[T]) writeRow(r, p0 int, sn, cs []float64) {
	half := k.dim / 2
	n := len(sn)
	cs = cs[:n]
	if k.sinOut != nil {
		outS := k.sinOut[r*half+p0 : r*half+p0+n]
		outC := k.cosOut[r*half+p0 : r*half+p0+n]
		for i := range n {
			outS[i] = T(sn[i] * k.amp)
			outC[i] = T(cs[i] * k.amp)
		}
		return
	}
	row := k.dst[r*k.dim : (r+1)*k.dim]
	var emb []T
	if k.emb != nil {
		emb = k.emb[r*k.dim : (r+1)*k.dim]
	}
	if k.layout == Interleaved {
		out := row[2*p0 : 2*(p0+n)]
		if emb == nil {
			writeInterleaved(out, sn, cs)
			return
		}
		in := emb[2*p0 : 2*(p0+n)]
		for i := range n {
			out[2*i] = T(float64(in[2*i])*k.scale + sn[i])
			out[2*i+1] = T(float64(in[2*i+1])*k.scale + cs[i])
		}
		return
	}
	outS, outC := row[p0:p0+n], row[half+p0:half+p0+n]
	if emb == nil {
		for i := range n {
			outS[i] = T(sn[i])
			outC[i] = T(cs[i])
		}
		return
	}
	inS, inC := emb[p0:p0+n], emb[half+p0:half+p0+n]
	for i := range n {
		outS[i] = T(float64(inS[i])*k.scale + sn[i])
		outC[i] = T(float64(inC[i])*k.scale + cs[i])
	}
}

// writeInterleaved stores (sin, cos) pairs as out[2i], out[2i+1].
func writeInterleaved[T Float](out []T, sn, cs []float64) {
	n := len(sn)
	cs = cs[:n]
	for i := range n {
		o := out[2*i : 2*i+2 : 2*i+2]
		o[0], o[1] = T(sn[i]), T(cs[i])
	}
}

// ShiftMatrix returns T_k, the row-major [Dim, Dim] matrix with
// PE(pos+k) = T_k · PE(pos) for every pos: one 2×2 rotation by k·ω_i per
// pair, placed at the pair's two dimensions,
//
//	[sin((p+k)ω)]   [ cos kω  sin kω] [sin pω]
//	[cos((p+k)ω)] = [−sin kω  cos kω] [cos pω]
//
// It depends on k and the frequencies only, never on pos, which is why a
// linear layer can learn to attend by relative offset. k may be negative.
func ShiftMatrix(s Sinusoidal, k int) ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if k < -maxPosition || k > maxPosition {
		return nil, paramErr("k", k, "must be within ±2^40")
	}
	if err := checkElements("dim×dim", s.Dim, s.Dim); err != nil {
		return nil, err
	}
	freq, _ := s.Frequencies()
	d := s.Dim
	m := make([]float64, d*d)
	for i, w := range freq {
		sn, cs := sincosProduct(float64(k), w)
		a, b := pairIndex(s.Layout, d, i) // a holds sin, b holds cos
		m[a*d+a], m[a*d+b] = cs, sn
		m[b*d+a], m[b*d+b] = -sn, cs
	}
	return m, nil
}
