package posgraph_test

// Benchmarks of the graph layer on the default backend (the pure-Go one
// unless XLA is installed), beside GoMLX's own pos.RoPE on the same shapes:
// batch 4, 32 heads, 4096 positions, head dimension 128, as
// pkg/posenc's host benchmarks (make bench runs both, see cmd/bench).

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

const (
	benchBatch, benchHeads, benchSeq, benchHeadDim = 4, 32, 4096, 128
	benchTableLen, benchTableDim                   = 8192, 1024
)

func benchInput(n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i%977)/977 - 0.5
	}
	return x
}

func graphRoPEBench(b *testing.B, fn func(x *graph.Node) *graph.Node) {
	backend := posgraph.Backend()
	n := benchBatch * benchHeads * benchSeq * benchHeadDim
	xt := tensors.FromFlatDataAndDimensions(benchInput(n), benchBatch, benchHeads, benchSeq, benchHeadDim)
	exec := graph.MustNewExec(backend, fn)
	defer exec.Finalize()
	exec.MustExec(xt)[0].FinalizeAll() // compile outside the timing
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		exec.MustExec(xt)[0].FinalizeAll()
	}
}

// BenchmarkGraphRoPE runs posgraph.ApplyRoPE on the default backend (the
// pure-Go one here), interleaved as BenchmarkGoMLXPosRoPE, and with halves.
func BenchmarkGraphRoPE(b *testing.B) {
	b.Run("4x32x4096x128", func(b *testing.B) {
		r := posenc.NewRoPE(benchHeadDim)
		graphRoPEBench(b, func(x *graph.Node) *graph.Node { return posgraph.ApplyRoPE(x, r, 0) })
	})
	b.Run("half/4x32x4096x128", func(b *testing.B) {
		r := posenc.NewRoPE(benchHeadDim).WithLayout(posenc.Halves)
		graphRoPEBench(b, func(x *graph.Node) *graph.Node { return posgraph.ApplyRoPE(x, r, 0) })
	})
}

// BenchmarkGoMLXPosRoPE is the reference: GoMLX's own pos.RoPE on the same
// shapes and backend, interleaved and with halves.
func BenchmarkGoMLXPosRoPE(b *testing.B) {
	for _, c := range []struct {
		name        string
		interleaved bool
	}{{"4x32x4096x128", true}, {"half/4x32x4096x128", false}} {
		b.Run(c.name, func(b *testing.B) {
			r := pos.NewRoPE(10000).WithInterleaved(c.interleaved)
			graphRoPEBench(b, func(x *graph.Node) *graph.Node {
				positions := graph.Iota(x.Graph(), shapes.Make(dtypes.Int32, benchSeq), 0)
				q, _ := r.EncodeQK(x, x, positions, 2)
				return q
			})
		})
	}
}

// BenchmarkGraphSinusoidal builds the 8192×1024 table as a graph constant
// (posgraph.SinusoidalConst): a fresh host table plus the backend's fresh copy
// of it, to compare with BenchmarkSinusoidalTable +
// BenchmarkCopy/alloc-8192x1024 (and, without the allocations,
// BenchmarkSinusoidal + BenchmarkCopy/8192x1024).
func BenchmarkGraphSinusoidal(b *testing.B) {
	b.Run("8192x1024", func(b *testing.B) {
		backend := posgraph.Backend()
		s := posenc.NewSinusoidal(benchTableDim)
		b.SetBytes(int64(4 * benchTableLen * benchTableDim))
		build := func() {
			g := graph.NewGraph(backend, "sinusoidal")
			posgraph.SinusoidalConst(g, dtypes.Float32, s, 0, benchTableLen)
			g.Finalize()
		}
		build() // warm up
		for b.Loop() {
			build()
		}
	})
}
