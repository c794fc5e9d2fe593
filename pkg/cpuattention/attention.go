// Package cpuattention runs attention inside a GoMLX graph on XLA's CPU
// plugin with a kernel of its own, in C: softmax(q·kᵀ, masked)·v a tile of
// queries and keys at a time, in the way of FlashAttention (Dao et al.
// 2022, https://arxiv.org/abs/2205.14135), for grouped-query heads of
// dimension 64 in float32 on CPUs with AVX-512.
//
// Why: XLA's CPU compiler builds attention as separate passes over the
// scores (the product, the maximum, the exponentials, the sum, the product
// with the values), each through the shared cache, and on a 2,048-token
// prompt of SmolLM2-135M that takes about 1.5× PyTorch's time; this kernel
// keeps each tile of scores in its core's own cache from the product to
// the values (docs/performance.md, "Where the 2,048-token prefill spends
// its time").
//
// How: the kernel is registered with the plugin GoMLX loaded, through the
// plugin's FFI extension, and the graph calls it as a typed-FFI custom
// call. GoMLX v0.28 and go-xla v0.4.5 have no public way to add a custom
// call to a graph, so Attention answers GoMLX's fused-attention node with
// that custom call, through go-xla's own unexported emitter (customcall.go).
// Where any of that is not there (another backend, another CPU, another
// plugin), Enable says why, and Attention reports false so that the caller
// builds attention from GoMLX's operations instead.
package cpuattention

import (
	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
)

// HeadDim is the only head dimension the kernel is written for.
const HeadDim = 64

// Attention returns softmax(q·kᵀ) v, each query reading only the slots
// mask allows, for
//
//	q       [b, h, c, e]  queries, already scaled by 1/√e (float32)
//	keys    [b, k, n, e]  keys, k dividing h: query head i reads key/value head i/(h/k)
//	values  [b, k, n, e]
//	mask    [mb, c, n]    true where query i may read slot j; mb is 1 or b
//
// and e = HeadDim. The result is [b, h, c, e]; a query that may read no
// slot gets NaN, as the softmax of an all-masked row does. It reports
// false, and builds nothing, where the graph's backend is not one that
// Enable switched on, or the shapes or types are not these.
func Attention(q, keys, values, mask *graph.Node) (*graph.Node, bool) {
	g := q.Graph()
	if !Enabled(g.Backend()) || !fits(q.Shape(), keys.Shape(), values.Shape(), mask.Shape()) {
		return nil, false
	}
	cfg := &compute.ScaledDotProductAttentionConfig{
		Scale: 1,                                     // q comes scaled
		Mask:  graph.InternalBackendOutputs(mask)[0], // the kernel reads it as an operand
	}
	var out *graph.Node
	withKernel(g, q.Shape(), func() {
		out, _ = graph.BackendFusedScaledDotProductAttention(q, keys, values, compute.AttentionAxesLayoutBHSD, cfg) // [b, h, c, e]
	})
	return out, true
}

// fits says whether the shapes are ones the kernel takes.
func fits(q, k, v, mask shapes.Shape) bool {
	if q.Rank() != 4 || k.Rank() != 4 || !k.Equal(v) || mask.Rank() != 3 ||
		q.DType != dtypes.Float32 || k.DType != dtypes.Float32 || mask.DType != dtypes.Bool {
		return false
	}
	b, h, c, e := q.Dim(0), q.Dim(1), q.Dim(2), q.Dim(3)
	kv, n := k.Dim(1), k.Dim(2)
	return e == HeadDim && k.Dim(0) == b && k.Dim(3) == e && kv > 0 && h%kv == 0 &&
		(mask.Dim(0) == 1 || mask.Dim(0) == b) && mask.Dim(1) == c && mask.Dim(2) == n
}
