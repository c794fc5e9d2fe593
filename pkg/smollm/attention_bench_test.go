package smollm

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/posenc/course/pkg/cpuattention"
	"github.com/posenc/course/pkg/posgraph"
)

// BenchmarkAttentionPrefill times the model's attention alone, as a prefill
// of 2,048 tokens in chunks of 512 runs it: for each chunk, 30 layers of
// attention over the slots filled so far, both ways the model runs it:
// GoMLX's operations in the plan attention builds (keyBlockAttention, key
// blocks of 512, the causal diagonal in parts), and cpuattention's kernel
// where the backend runs it. Each layer's
// queries, keys and values are the inputs shifted by a constant of the
// layer and by a millionth of the mean of the layer before's output, so
// that XLA can neither share work between layers nor run them side by side
// (the model's layers run one after another; independent, they took twice
// as long). One operation is the whole prefill's attention; it also logs
// the best operation's time, chunk by chunk. scripts/model/parts-bench.sh attention runs it beside
// PyTorch's scaled_dot_product_attention on the same shapes:
//
//	PJRT_PLUGIN_LIBRARY_PATH=.tools/xla-cpu-test GOMLX_BACKEND=xla:cpu go test -run '^$' -bench AttentionPrefill ./pkg/smollm
func BenchmarkAttentionPrefill(b *testing.B) {
	b.Run("key-blocks", func(b *testing.B) { benchmarkAttentionPrefill(b, false) })
	b.Run("kernel", func(b *testing.B) {
		if err := cpuattention.Enable(posgraph.Backend()); err != nil {
			b.Skip(err)
		}
		benchmarkAttentionPrefill(b, true)
	})
}

func benchmarkAttentionPrefill(b *testing.B, kernel bool) {
	const layers, chunk, tokens, block, heads, kvHeads, e = 30, 512, 2048, DefaultKeyBlockSize, 9, 3, 64
	g := heads / kvHeads
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int, scale float32) []float32 {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = (r.Float32() - 0.5) * scale
		}
		return xs
	}
	type call struct {
		exec *graph.Exec
		args []any
	}
	var calls []call
	for start := 0; start < tokens; start += chunk {
		n := start + chunk // the cache's slots: filled so far, rounded up to a chunk
		exec, err := graph.NewExec(posgraph.Backend(), func(q, keys, values *graph.Node) *graph.Node {
			gr := q.Graph()
			mask := graph.Reshape(causalMask(graph.Const(gr, int32(start)), chunk, []*graph.Node{keys}), 1, chunk, n) // [1, c, n]
			shared, parts := attentionPlan(n, chunk, start, block, true)
			// Each layer's inputs depend on the layer before, as in the
			// model, so that XLA runs the layers one after another.
			var o *graph.Node
			for l := range layers {
				shift := graph.Scalar(gr, dtypes.Float32, float64(l)*1e-3) // []
				if o != nil {
					shift = graph.Add(shift, graph.MulScalar(graph.ReduceAllMean(o), 1e-6)) // []
				}
				qs, ks, vs := graph.Add(q, shift), graph.Add(keys, shift), graph.Add(values, shift)
				if kernel {
					fast, ok := cpuattention.Attention(graph.Reshape(qs, 1, heads, chunk, e), ks, vs, mask) // [1, h, c, e]
					if !ok {
						b.Fatal("cpuattention.Attention declined")
					}
					o = graph.Reshape(fast, 1, kvHeads, g, chunk, e) // [1, k, g, c, e]
					continue
				}
				o = keyBlockAttention(qs, ks, vs, mask, shared, parts) // [1, k, g, c, e]
			}
			return o
		})
		if err != nil {
			b.Fatal(err)
		}
		calls = append(calls, call{exec, []any{
			tensors.FromFlatDataAndDimensions(random(kvHeads*g*chunk*e, 0.5), 1, kvHeads, g, chunk, e),
			tensors.FromFlatDataAndDimensions(random(kvHeads*n*e, 4), 1, kvHeads, n, e),
			tensors.FromFlatDataAndDimensions(random(kvHeads*n*e, 1), 1, kvHeads, n, e),
		}})
	}
	// best is the fastest whole prefill's attention, per the chunks of
	// that same run, for a minimum to set beside the other sides' minima.
	var best []time.Duration
	run := func() {
		per := make([]time.Duration, len(calls))
		var total time.Duration
		for i, c := range calls {
			t0 := time.Now()
			out, err := c.exec.Exec(c.args...)
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range out {
				t.MustFinalizeAll()
			}
			per[i] = time.Since(t0)
			total += per[i]
		}
		if best == nil || total < totalDuration(best) {
			best = per
		}
	}
	run() // compile
	best = nil
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.Logf("best of %d: %.3f s, chunk by chunk %v", b.N, totalDuration(best).Seconds(), best)
}

func totalDuration(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s
}
