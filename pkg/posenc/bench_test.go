package posenc_test

// Benchmarks named as issue 8 asks, so that results can be compared over
// time and side by side with numpy's textbook code (make bench). Sizes are
// those of a 7B-class attention layer: batch 4, 32 heads, 4096 positions,
// head dimension 128; the sinusoidal table is 8192 positions × 1024.
//
// SetBytes counts the bytes a kernel must move at the least: what it reads
// plus what it writes, so that MB/s is comparable with BenchmarkCopy.

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/posenc/course/pkg/posenc"
)

const (
	benchBatch, benchHeads, benchSeq, benchHeadDim = 4, 32, 4096, 128
	benchTableLen, benchTableDim                   = 8192, 1024
	benchALiBiHeads, benchALiBiLen                 = 32, 4096
)

func benchInput(n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%977)/977 - 0.5
	}
	return x
}

func BenchmarkSinusoidal(b *testing.B) {
	b.Run("8192x1024", func(b *testing.B) {
		dst := make([]float32, benchTableLen*benchTableDim)
		s := posenc.NewSinusoidal(benchTableDim)
		b.SetBytes(int64(4 * len(dst)))
		for b.Loop() {
			if err := posenc.SinusoidalTo(dst, s, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkRoPE(b *testing.B) {
	n := benchBatch * benchHeads * benchSeq * benchHeadDim
	x := benchInput(n)
	dst := make([]float32, n)
	for _, layout := range []posenc.Layout{posenc.Interleaved, posenc.Halves} {
		name := map[posenc.Layout]string{posenc.Interleaved: "interleaved", posenc.Halves: "half"}[layout]
		cache, err := posenc.NewRoPECache(posenc.NewRoPE(benchHeadDim).WithLayout(layout), benchSeq)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/4x32x4096x128", func(b *testing.B) {
			b.SetBytes(int64(8 * n)) // read x, write dst
			for b.Loop() {
				if err := posenc.ApplyRoPETo(dst, x, cache, benchSeq, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkALiBi(b *testing.B) {
	b.Run("32x4096x4096", func(b *testing.B) {
		slopes, _ := posenc.ALiBiSlopes(benchALiBiHeads)
		dst := make([]float32, benchALiBiHeads*benchALiBiLen*benchALiBiLen)
		b.SetBytes(int64(4 * len(dst)))
		for b.Loop() {
			if err := posenc.ALiBiBiasTo(dst, slopes, benchALiBiLen, benchALiBiLen, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCopy is the bandwidth yardstick: a plain loop copying as many
// bytes as each kernel moves (256 MiB read + 256 MiB written for RoPE).
func BenchmarkCopy(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{
		{"4x32x4096x128", benchBatch * benchHeads * benchSeq * benchHeadDim},
	} {
		src, dst := benchInput(c.n), make([]float32, c.n)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(8 * c.n))
			for b.Loop() {
				for i, v := range src {
					dst[i] = v
				}
			}
		})
	}
}

func graphRoPEBench(b *testing.B, fn func(x *Node) *Node) {
	backend := posenc.Backend()
	n := benchBatch * benchHeads * benchSeq * benchHeadDim
	xt := tensors.FromFlatDataAndDimensions(benchInput(n), benchBatch, benchHeads, benchSeq, benchHeadDim)
	exec := MustNewExec(backend, fn)
	defer exec.Finalize()
	exec.MustExec(xt)[0].FinalizeAll() // compile outside the timing
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		exec.MustExec(xt)[0].FinalizeAll()
	}
}

func BenchmarkGraphRoPE(b *testing.B) {
	b.Run("4x32x4096x128", func(b *testing.B) {
		r := posenc.NewRoPE(benchHeadDim)
		graphRoPEBench(b, func(x *Node) *Node { return posenc.ApplyRoPE(x, r, 0) })
	})
}

// BenchmarkGoMLXPosRoPE is the reference: GoMLX's own pos.RoPE, interleaved,
// on the same shapes and backend.
func BenchmarkGoMLXPosRoPE(b *testing.B) {
	b.Run("4x32x4096x128", func(b *testing.B) {
		r := pos.NewRoPE(10000).WithInterleaved(true)
		graphRoPEBench(b, func(x *Node) *Node {
			positions := Iota(x.Graph(), shapes.Make(dtypes.Int32, benchSeq), 0)
			q, _ := r.EncodeQK(x, x, positions, 2)
			return q
		})
	})
}
