package sincos

import (
	"math"

	"github.com/posenc/course/pkg/posenc/internal/asm"
	"github.com/posenc/course/pkg/posenc/internal/parallel"
)

// AnchorRows is how many rows share one exact float64 anchor. The rotation
// recurrence loses at most a few ulps of float64 per row, so after
// AnchorRows steps the error is still about 1e-14, far below float32's
// resolution (6e-8), and the anchors cost one math.Sincos per pair per
// AnchorRows rows. The kernel's units of parallel work are blocks of
// AnchorRows rows, so that no anchor is computed twice.
const AnchorRows = 128

// pairTile is how many pairs one pass of the recurrence keeps on the stack
// (two float64 arrays of 2 KiB: in L1 with the step tables).
const pairTile = 256

// Kernel fills one table. Get one with [Get], write its frequencies into
// [Kernel.Freq], and call [Kernel.Table] or [Kernel.Cache], which run it and
// return it to the pool.
type Kernel[T asm.Float] struct {
	parallel.Job
	dst, emb         []T // Table: the output and the optional embeddings
	scale            float64
	sinOut, cosOut   []T // Cache: the two outputs
	amp              float64
	dim, start, rows int
	interleaved      bool
	freq             []float64
	stepSin, stepCos []float64 // sin ω_i, cos ω_i: one step of the recurrence
}

var kernels parallel.TypedPool[Kernel[float32], Kernel[float64]]

// Get returns a kernel for pairs frequencies, recycled when it can be.
func Get[T asm.Float](pairs int) *Kernel[T] {
	k := parallel.Get[Kernel[T]](&kernels)
	k.freq = grow(k.freq, pairs)
	return k
}

// Freq returns the kernel's frequencies ω_i, in radians per position, for
// the caller to fill before Table or Cache.
func (k *Kernel[T]) Freq() []float64 { return k.freq }

// Table fills dst, a row-major [rows, dim] table with dim = 2·len(Freq())
// and rows = len(dst)/dim, with the encodings of positions start,
// start+1, …, plus scale times the embeddings emb when emb is not nil (emb
// has dst's shape and may be dst itself). It is, to within a few float64
// ulps before each value is rounded once to T,
//
//	for r := range rows {
//		for i, w := range k.Freq() {
//			s, c := Product(float64(start+r), w)
//			a, b := 2*i, 2*i+1 // interleaved; i, i+dim/2 otherwise
//			dst[r*dim+a] = T(float64(emb[r*dim+a])*scale + s) // T(s) when emb is nil
//			dst[r*dim+b] = T(float64(emb[r*dim+b])*scale + c) // T(c) when emb is nil
//		}
//	}
//
// Table returns k to the pool: k must not be used after it.
func (k *Kernel[T]) Table(dst, emb []T, scale float64, start int, interleaved bool) {
	k.dst, k.emb, k.scale = dst, emb, scale
	k.dim, k.start, k.interleaved = 2*len(k.freq), start, interleaved
	k.rows = len(dst) / k.dim
	k.run()
	k.dst, k.emb = nil, nil
	parallel.Put(&kernels, k)
}

// Cache fills sinOut and cosOut, two row-major [rows, len(Freq())] tables
// with rows = len(sinOut)/len(Freq()), with amp·sin and amp·cos of the
// angles of positions start, start+1, …: the RoPE cache. It is, to within a
// few float64 ulps before each value is rounded once to T,
//
//	for r := range rows {
//		for i, w := range k.Freq() {
//			s, c := Product(float64(start+r), w)
//			sinOut[r*len(freq)+i] = T(s * amp)
//			cosOut[r*len(freq)+i] = T(c * amp)
//		}
//	}
//
// Cache returns k to the pool: k must not be used after it.
func (k *Kernel[T]) Cache(sinOut, cosOut []T, amp float64, start int) {
	k.sinOut, k.cosOut, k.amp = sinOut, cosOut, amp
	k.dim, k.start = 2*len(k.freq), start
	k.rows = len(sinOut) / len(k.freq)
	k.run()
	k.sinOut, k.cosOut = nil, nil
	parallel.Put(&kernels, k)
}

// run sets the one-step rotation of each frequency and fills k.rows rows on
// the calling goroutine and the workers.
func (k *Kernel[T]) run() {
	n := len(k.freq)
	k.stepSin, k.stepCos = grow(k.stepSin, n), grow(k.stepCos, n)
	for i, w := range k.freq {
		k.stepSin[i], k.stepCos[i] = math.Sincos(w)
	}
	blocks := (k.rows + AnchorRows - 1) / AnchorRows
	parallel.Run(k, blocks, AnchorRows*k.dim, &k.Job)
}

// RunRows fills the anchor blocks [lo, hi): rows [lo·AnchorRows,
// hi·AnchorRows) of the table.
func (k *Kernel[T]) RunRows(lo, hi int) {
	var sn, cs [pairTile]float64
	half := k.dim / 2
	for b := lo; b < hi; b++ {
		r0 := b * AnchorRows
		r1 := min(r0+AnchorRows, k.rows)
		for p0 := 0; p0 < half; p0 += pairTile {
			n := min(pairTile, half-p0)
			freq := k.freq[p0 : p0+n]
			stepSin, stepCos := k.stepSin[p0:p0+n], k.stepCos[p0:p0+n]
			pos := float64(k.start + r0)
			for i, w := range freq {
				sn[i], cs[i] = Product(pos, w)
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
func (k *Kernel[T]) writeRowStep(r, p0 int, sn, cs, stepSin, stepCos []float64) {
	n := len(sn)
	if k.sinOut != nil || k.emb != nil {
		k.writeRow(r, p0, sn, cs)
		asm.RotatePairs(sn, cs, stepSin, stepCos)
		return
	}
	row := k.dst[r*k.dim : (r+1)*k.dim]
	if k.interleaved {
		asm.StepInterleaved(row[2*p0:2*(p0+n)], sn, cs, stepSin, stepCos)
		return
	}
	half := k.dim / 2
	asm.StepHalves(row[p0:p0+n], row[half+p0:half+p0+n], sn, cs, stepSin, stepCos)
}

// writeRow stores pairs p0… of row r of the cache, or of the table plus
// scaled embeddings.
func (k *Kernel[T]) writeRow(r, p0 int, sn, cs []float64) {
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
	emb := k.emb[r*k.dim : (r+1)*k.dim]
	if k.interleaved {
		out := row[2*p0 : 2*(p0+n)]
		in := emb[2*p0 : 2*(p0+n)]
		for i := range n {
			out[2*i] = T(float64(in[2*i])*k.scale + sn[i])
			out[2*i+1] = T(float64(in[2*i+1])*k.scale + cs[i])
		}
		return
	}
	outS, outC := row[p0:p0+n], row[half+p0:half+p0+n]
	inS, inC := emb[p0:p0+n], emb[half+p0:half+p0+n]
	for i := range n {
		outS[i] = T(float64(inS[i])*k.scale + sn[i])
		outC[i] = T(float64(inC[i])*k.scale + cs[i])
	}
}

// grow returns s resized to n, reusing its storage when it can.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
