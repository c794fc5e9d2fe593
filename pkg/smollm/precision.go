package smollm

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/posenc"
)

// A model run in bfloat16 can round its rotation at four steps: the inverse
// frequencies (a buffer that model.to(torch.bfloat16) downcasts with the
// weights), the position ids, the angle position·ω, and cos and sin
// (posenc.RoPEPrecision). Which steps round decides what breaks:
//
//   - ids alone (EleutherAI/gpt-neox#1016): from 256 on, neighbours share an
//     id, and the model sees runs of tokens at one position;
//   - everything, as torch.autocast did to Llama's and Gemma's rotary module
//     (huggingface/transformers#29285): each pair's angle keeps 8 bits, so
//     a fast pair's angle at position 2,000 is off by up to 4 radians;
//   - cos and sin alone (KellerJordan/modded-nanogpt#39, and transformers'
//     own cast of them to the activations' dtype): a relative error of
//     2⁻⁹ that does not grow with the position.
//
// The model's own rotation (posgraph.RoPEEncoder) computes the tables in
// float64 and rounds them once to float32. This file is the same rotation
// with each step rounded as a posenc.RoPEPrecision says, for the precision
// experiments only; posenc.RotateRoundedTo is its host reference, and the
// tests compare the two.

// SetRoPEPrecision makes m's rotation round each step as p says (the zero
// value: every step in float64, which is the model's own rotation to
// float32 rounding). Call it before m runs anything: a compiled call keeps
// the rotation it was built with. It returns an error for an invalid p or
// a model that has already run.
func (m *Model) SetRoPEPrecision(p posenc.RoPEPrecision) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if _, err := m.RoPE.InvFreq(); err != nil {
		return err
	}
	if m.ran {
		return fmt.Errorf("smollm: SetRoPEPrecision(%+v) after the model ran: set it first", p)
	}
	m.precision = &p
	if m.vectors != nil { // the rounded rotation builds its own tables: graphs of its own
		m.vectors, m.execs = nil, map[variant]*model.Exec{}
	}
	return nil
}

// dtypeOf is the graph dtype a value rounded to f is held in.
func dtypeOf(f posenc.Format) dtypes.DType {
	switch f {
	case posenc.Float32:
		return dtypes.Float32
	case posenc.BFloat16:
		return dtypes.BFloat16
	case posenc.Float16:
		return dtypes.Float16
	}
	return dtypes.Float64
}

// roundTo rounds the float64 node x to format f and returns it in float64
// again (a no-op for Float64).
func roundTo(x *graph.Node, f posenc.Format) *graph.Node {
	if f == posenc.Float64 {
		return x
	}
	return graph.ConvertDType(graph.ConvertDType(x, dtypeOf(f)), dtypes.Float64) // x's shape
}

// roundedRotation rotates x [b, n, c, e] (n heads, c positions) at
// positions [b, c] by r, each step rounded as p says, as
// posenc.RotateRoundedTo does on the host; the rotation itself is in
// float64 and rounded once to x's dtype.
func roundedRotation(x, positions *graph.Node, r posenc.RoPE, p posenc.RoPEPrecision) *graph.Node {
	freq, err := r.InvFreq()
	if err != nil {
		panic(err) // New validated r
	}
	rot, af := r.Rot(), r.AttentionFactor()
	w := make([]float64, rot/2)
	for i, f := range freq {
		w[i] = p.InvFreq.Round(f) // a host constant: rounded here, as stored
	}
	g := x.Graph()
	pos := roundTo(graph.ConvertDType(positions, dtypes.Float64), p.Position)                   // [b, c]
	angle := graph.Mul(graph.ExpandAxes(pos, -1), graph.ExpandLeftToRank(graph.Const(g, w), 3)) // [b, c, rot/2]: formed in float64
	angle = roundTo(angle, p.Angle)                                                             // [b, c, rot/2]: rounded once
	cos := graph.MulScalar(roundTo(graph.Cos(angle), p.CosSin), af)                             // [b, c, rot/2]
	sin := graph.MulScalar(roundTo(graph.Sin(angle), p.CosSin), af)                             // [b, c, rot/2]
	cos, sin = graph.ExpandAxes(cos, 1), graph.ExpandAxes(sin, 1)                               // [b, 1, c, rot/2]: every head alike

	// The members of pair i: (2i, 2i+1) in the interleaved layout,
	// (i, i + rot/2) in halves.
	b, n, c, e := x.Shape().Dim(0), x.Shape().Dim(1), x.Shape().Dim(2), x.Shape().Dim(3)
	x64 := graph.ConvertDType(x, dtypes.Float64)                                                               // [b, n, c, e]
	head := graph.Slice(x64, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(0, rot)) // [b, n, c, rot]
	var xa, xb *graph.Node
	if r.Layout == posenc.Interleaved {
		pairs := graph.Reshape(head, b, n, c, rot/2, 2)                                                                                                       // [b, n, c, rot/2, 2]
		xa = graph.Reshape(graph.Slice(pairs, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisElem(0)), b, n, c, rot/2) // [b, n, c, rot/2]
		xb = graph.Reshape(graph.Slice(pairs, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisElem(1)), b, n, c, rot/2) // [b, n, c, rot/2]
	} else {
		xa = graph.Slice(head, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(0, rot/2))   // [b, n, c, rot/2]
		xb = graph.Slice(head, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(rot/2, rot)) // [b, n, c, rot/2]
	}
	ya := graph.Sub(graph.Mul(xa, cos), graph.Mul(xb, sin)) // [b, n, c, rot/2]: x·cos − y·sin
	yb := graph.Add(graph.Mul(xa, sin), graph.Mul(xb, cos)) // [b, n, c, rot/2]: x·sin + y·cos
	var out *graph.Node
	if r.Layout == posenc.Interleaved {
		out = graph.Reshape(graph.Stack([]*graph.Node{ya, yb}, -1), b, n, c, rot) // [b, n, c, rot]: a₀ b₀ a₁ b₁ …
	} else {
		out = graph.Concatenate([]*graph.Node{ya, yb}, -1) // [b, n, c, rot]
	}
	if rot < e {
		tail := graph.Slice(x64, graph.AxisRange(), graph.AxisRange(), graph.AxisRange(), graph.AxisRange(rot, e)) // [b, n, c, e−rot]: not rotated
		out = graph.Concatenate([]*graph.Node{out, tail}, -1)                                                      // [b, n, c, e]
	}
	return graph.ConvertDType(out, x.DType()) // [b, n, c, e]
}
