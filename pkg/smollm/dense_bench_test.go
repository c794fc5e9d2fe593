package smollm

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/posenc/course/pkg/posgraph"
)

// BenchmarkDenseLayers times the model's matrix products alone, as a
// prefill of 128 or 512 tokens runs them: 30 layers of RMSNorm, the query,
// key and value projections, the output projection, RMSNorm and SwiGLU
// (gate, up, down), with the residual stream carried from layer to layer,
// and no attention (the output projection reads the queries plus the keys
// and values repeated, a stand-in as cheap as a copy). The weights are
// random, of the model's shapes. This is what XLA's dot library (YNNPACK
// in this plugin) does against PyTorch's (MKL), apart from attention:
// scripts/model/dense_torch.py runs the same layers in PyTorch and
// scripts/model/parts-bench.sh dense runs both side by side:
//
//	PJRT_PLUGIN_LIBRARY_PATH=.tools/xla-cpu-test GOMLX_BACKEND=xla:cpu go test -run '^$' -bench DenseLayers ./pkg/smollm
func BenchmarkDenseLayers(b *testing.B) {
	for _, tokens := range []int{128, 512} {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) { benchmarkDenseLayers(b, tokens) })
	}
}

func benchmarkDenseLayers(b *testing.B, c int) {
	const layers, d, f, q, kv = 30, 576, 1536, 576, 192 // q: 9 heads of 64, kv: 3 heads of 64
	r := rand.New(rand.NewPCG(1, 2))
	random := func(scale float32, dims ...int) *tensors.Tensor {
		n := 1
		for _, x := range dims {
			n *= x
		}
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = (r.Float32() - 0.5) * scale
		}
		return tensors.FromFlatDataAndDimensions(xs, dims...)
	}
	args := []any{random(1, 1, c, d)}
	for range layers {
		args = append(args, random(0.05, q, d), random(0.05, kv, d), random(0.05, kv, d), random(0.05, d, q),
			random(0.05, f, d), random(0.05, f, d), random(0.05, d, f))
	}
	m := network{Config: Config{NormEps: 1e-5}}
	exec, err := graph.NewExec(posgraph.Backend(), func(in []*graph.Node) *graph.Node {
		x := in[0]                                                    // [1, c, d]
		ones := graph.Ones(x.Graph(), shapes.Make(dtypes.Float32, d)) // [d]: the norms' scales
		for l := range layers {
			w := in[1+7*l:]
			h := m.rmsNorm(x, ones)                                                             // [1, c, d]
			qs, ks, vs := linear(h, w[0]), linear(h, w[1]), linear(h, w[2])                     // [1, c, q], [1, c, kv] ×2
			stand := graph.Add(qs, graph.Concatenate([]*graph.Node{ks, vs, ks}, -1))            // [1, c, q]: attention's stand-in
			x = graph.Add(x, linear(stand, w[3]))                                               // [1, c, d]
			h = m.rmsNorm(x, ones)                                                              // [1, c, d]
			gate, up := linear(h, w[4]), linear(h, w[5])                                        // [1, c, f] ×2
			x = graph.Add(x, linear(graph.Mul(graph.Mul(gate, graph.Sigmoid(gate)), up), w[6])) // [1, c, d]
		}
		return graph.ReduceAllSum(x) // []
	})
	if err != nil {
		b.Fatal(err)
	}
	run := func() time.Duration {
		t0 := time.Now()
		out, err := exec.Exec(args...)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range out {
			t.MustFinalizeAll()
		}
		return time.Since(t0)
	}
	run() // compile
	best := time.Duration(1 << 62)
	b.ResetTimer()
	for range b.N {
		best = min(best, run())
	}
	b.Logf("%d tokens, %d layers: best of %d: %.4f s", c, layers, b.N, best.Seconds())
}
