package posenc_test

// Benchmarks named so that results can be compared over
// time and side by side with numpy's textbook code (make bench, which runs
// cmd/bench). Sizes are those of a 7B-class attention layer: batch 4, 32
// heads, 4096 positions, head dimension 128; the sinusoidal table is 8192
// positions × 1024.
//
// SetBytes counts the bytes a kernel must move at the least: what it reads
// plus what it writes, so that MB/s is comparable with BenchmarkCopy, the
// bandwidth yardstick.

import (
	"runtime"
	"sync"
	"testing"

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
		if err := posenc.SinusoidalTo(dst, s, 0); err != nil { // warm up: fault dst's pages in
			b.Fatal(err)
		}
		for b.Loop() {
			if err := posenc.SinusoidalTo(dst, s, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSinusoidalTable is the allocating form, posenc.SinusoidalTable:
// a fresh 32 MiB table each time, as SinusoidalConst builds one.
func BenchmarkSinusoidalTable(b *testing.B) {
	b.Run("8192x1024", func(b *testing.B) {
		s := posenc.NewSinusoidal(benchTableDim)
		b.SetBytes(int64(4 * benchTableLen * benchTableDim))
		for b.Loop() {
			if _, err := posenc.SinusoidalTable[float32](s, 0, benchTableLen); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRoPE rotates x into dst, and in place (dst = x: the same bytes
// read and written, half the memory).
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
		for _, inPlace := range []bool{false, true} {
			suffix, out := "", dst
			if inPlace {
				suffix, out = "-inplace", x
			}
			b.Run(name+suffix+"/4x32x4096x128", func(b *testing.B) {
				b.SetBytes(int64(8 * n)) // read x, write dst
				// Warm up: fault dst's pages in outside the timing.
				if err := posenc.ApplyRoPETo(out, x, cache, benchSeq, 0); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if err := posenc.ApplyRoPETo(out, x, cache, benchSeq, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkALiBi(b *testing.B) {
	b.Run("32x4096x4096", func(b *testing.B) {
		slopes, _ := posenc.ALiBiSlopes(benchALiBiHeads)
		dst := make([]float32, benchALiBiHeads*benchALiBiLen*benchALiBiLen)
		b.SetBytes(int64(4 * len(dst)))                                                              // write only
		if err := posenc.ALiBiBiasTo(dst, slopes, benchALiBiLen, benchALiBiLen, false); err != nil { // warm up
			b.Fatal(err)
		}
		for b.Loop() {
			if err := posenc.ALiBiBiasTo(dst, slopes, benchALiBiLen, benchALiBiLen, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCopy is the bandwidth yardstick: a plain loop, on one goroutine,
// copying as many bytes as a kernel moves (RoPE's 256 MiB read + 256 MiB
// written; the sinusoidal table's 32 MiB, which the graph layer copies into
// a constant).
func BenchmarkCopy(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{
		{"4x32x4096x128", benchBatch * benchHeads * benchSeq * benchHeadDim},
		{"8192x1024", benchTableLen * benchTableDim},
	} {
		src, dst := benchInput(c.n), benchInput(c.n) // both written once: pages faulted in
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(8 * c.n))
			for b.Loop() {
				for i, v := range src {
					dst[i] = v
				}
			}
		})
		// The same plain loop split over GOMAXPROCS goroutines, as the host
		// kernels split their rows: the fair yardstick for a parallel kernel.
		b.Run("parallel-"+c.name, func(b *testing.B) {
			b.SetBytes(int64(8 * c.n))
			workers := runtime.GOMAXPROCS(0)
			for b.Loop() {
				var wg sync.WaitGroup
				for w := range workers {
					lo, hi := c.n*w/workers, c.n*(w+1)/workers
					wg.Go(func() {
						d, s := dst[lo:hi], src[lo:hi]
						for i, v := range s {
							d[i] = v
						}
					})
				}
				wg.Wait()
			}
		})
	}
	// The same plain loop into a freshly allocated slice: the copy a graph
	// constant costs (the backend allocates the constant's buffer).
	src := benchInput(benchTableLen * benchTableDim)
	b.Run("alloc-8192x1024", func(b *testing.B) {
		b.SetBytes(int64(8 * len(src)))
		for b.Loop() {
			dst := make([]float32, len(src))
			for i, v := range src {
				dst[i] = v
			}
		}
	})
}
