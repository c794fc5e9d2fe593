package lab

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"

	"github.com/posenc/course/pkg/posenc"
)

// ropeEncoder is the lab's rotary encoding inside GoMLX's attention layer
// (a pos.QKEncoder), for the halves layout only: x·C + swap(x)·S, with the
// C and S tables of posenc.RoPETablesTo (scaling and YaRN's attention factor
// included) built on the host in float64, and swap made of slices and a
// concatenation. posgraph.RoPEEncoder computes the same rotation but swaps
// with Reverse, which GoMLX v0.28.2 cannot differentiate, so it cannot be
// trained.
type ropeEncoder struct {
	r posenc.RoPE
}

var _ pos.QKEncoder = ropeEncoder{}

// Name implements pos.Encoder.
func (e ropeEncoder) Name() string { return fmt.Sprintf("lab.RoPE(%s)", e.r.Scaling.Kind) }

// EncodeQK implements pos.QKEncoder for q and k shaped [batch, seq, heads,
// headDim] (seqAxis 1) at positions 0, …, seq−1, the only positions the lab
// uses (a model with a KV cache would need them from the positions node).
func (e ropeEncoder) EncodeQK(q, k, _ *graph.Node, seqAxis int) (*graph.Node, *graph.Node) {
	if seqAxis != 1 || q.Rank() != 4 || e.r.Layout != posenc.Halves {
		panic(fmt.Sprintf("lab: ropeEncoder wants [batch, seq, heads, head_dim] with seq on axis 1 and the halves layout, got %s, axis %d", q.Shape(), seqAxis))
	}
	seq, hd := q.Shape().Dim(1), e.r.HeadDim
	r := e.r
	if r.Scaling.Kind == posenc.ScalingDynamic && r.Scaling.SeqLen == 0 {
		r.Scaling.SeqLen = seq // dynamic NTK: the base follows the current length
	}
	c, s := make([]float64, seq*hd), make([]float64, seq*hd)
	if err := posenc.RoPETablesTo(c, s, r, 0); err != nil {
		panic(err)
	}
	g := q.Graph()
	cn := graph.ConvertDType(graph.Const(g, c), q.DType())
	cn = graph.Reshape(cn, 1, seq, 1, hd) // [1, seq, 1, hd]
	sn := graph.ConvertDType(graph.Const(g, s), q.DType())
	sn = graph.Reshape(sn, 1, seq, 1, hd) // [1, seq, 1, hd]
	rotate := func(x *graph.Node) *graph.Node {
		return graph.Add(graph.Mul(x, cn), graph.Mul(swapHalves(x), sn)) // [batch, seq, heads, hd]
	}
	return rotate(q), rotate(k)
}

// swapHalves exchanges the two halves of x's last axis: the members of
// every rotary pair in the halves layout.
func swapHalves(x *graph.Node) *graph.Node {
	hd := x.Shape().Dim(-1)
	first := graph.SliceAxis(x, -1, graph.AxisRange(0, hd/2))   // [..., hd/2]
	second := graph.SliceAxis(x, -1, graph.AxisRange(hd/2, hd)) // [..., hd/2]
	return graph.Concatenate([]*graph.Node{second, first}, -1)  // [..., hd]
}
