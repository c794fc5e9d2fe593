package posgraph

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/posenc/course/internal/validate"
	"github.com/posenc/course/pkg/posenc"
)

// RoPE's tables at positions p are C = cos(p·w)·amp and S = sin(p·w)·sign,
// with three vectors over the head dimension: the frequency w of each
// dimension's pair, the amplitude (the attention factor of YaRN, 1 on
// pass-through dimensions) and the signed amplitude (−af on the first
// member of a pair and +af on the second; swapped for the fast swap, 0 on
// pass-through dimensions). RoPEEncoder.Encode builds them into the graph
// as constants, so a graph serves one scaling. EncodeWith takes them as
// nodes instead: a model that feeds them as inputs compiles its graphs once
// and runs them under any scaling of the same layout, head and rotary
// dimensions. The arithmetic is the same, operation for operation, so the
// bits are (TestEncodeWithMatchesEncode).

// RoPEVectors are RoPE's three per-dimension vectors for one scaling, each
// of HeadDim float64 values, to feed as inputs of a graph that rotates with
// RoPEEncoder.EncodeWith.
type RoPEVectors struct {
	Freq, Amp, Sign []float64
}

// NewRoPEVectors returns the vectors of r for queries and keys of dtype
// (the layout of Sign depends on it, as the rotation's swap does). It
// returns a *posenc.ParamError for an invalid r, or for dynamic NTK
// scaling with no SeqLen: its frequencies depend on a length that only
// the graph knows, so it has no vectors.
func NewRoPEVectors(r posenc.RoPE, dtype dtypes.DType) (RoPEVectors, error) {
	if err := r.Validate(); err != nil {
		return RoPEVectors{}, err
	}
	if r.Scaling.Kind == posenc.ScalingDynamic && r.Scaling.SeqLen == 0 {
		return RoPEVectors{}, validate.Err("scaling.seq_len", 0, "must be set for dynamic NTK scaling's vectors (RoPEEncoder.Encode takes the sequence's length instead)")
	}
	freq, err := r.InvFreq()
	if err != nil {
		return RoPEVectors{}, err
	}
	af, hd, fast := r.AttentionFactor(), r.HeadDim, canSwapFast(r, dtype)
	v := RoPEVectors{Freq: make([]float64, hd), Amp: make([]float64, hd), Sign: make([]float64, hd)}
	for i, f := range freq {
		a, b := r.Pair(i)
		v.Freq[a], v.Freq[b] = f, f
		v.Amp[a], v.Amp[b] = af, af
		v.Sign[a], v.Sign[b] = -af, af // S: −sin on the first member, +sin on the second
		if fast {
			v.Sign[a], v.Sign[b] = af, -af // S̃ = swap(S)
		}
	}
	for j := r.Rot(); j < hd; j++ {
		v.Amp[j] = 1 // pass-through dimensions: C = 1, S = 0
	}
	return v, nil
}

// EncodeWith rotates x as Encode does, with RoPE's vectors given as
// float64 nodes shaped [HeadDim] (the values of NewRoPEVectors for e.RoPE
// with any scaling, and x's dtype) rather than built from e.RoPE.Scaling:
// e.RoPE then decides only the layout and the rotary dimensions. It panics
// with a *posenc.ParamError for a vector of another shape or dtype.
func (e *RoPEEncoder) EncodeWith(x, positions *graph.Node, seqAxis int, freq, amp, sign *graph.Node) *graph.Node {
	r := e.RoPE
	checkRoPEInput(x, r)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	checkVectors(r, freq, amp, sign)
	return ropeTablesFrom(r, positions, x, axis, freq, amp, sign).apply(x) // x's shape
}

// checkVectors panics with a *posenc.ParamError unless freq, amp and sign
// are float64 nodes shaped [r.HeadDim].
func checkVectors(r posenc.RoPE, freq, amp, sign *graph.Node) {
	for _, v := range []struct {
		name string
		n    *graph.Node
	}{{"freq", freq}, {"amp", amp}, {"sign", sign}} {
		if v.n.DType() != dtypes.Float64 || v.n.Rank() != 1 || v.n.Shape().Dim(0) != r.HeadDim {
			must(validate.Err("RoPE vector "+v.name, v.n.Shape(), fmt.Sprintf("must be float64 shaped [%d] (head_dim)", r.HeadDim)))
		}
	}
}

// ropeTablesFrom is ropeTablesAt with the vectors as nodes.
func ropeTablesFrom(r posenc.RoPE, positions, x *graph.Node, seqAxis int, freq, amp, sign *graph.Node) rotation {
	p := graph.ExpandAxes(graph.ConvertDType(positions, dtypes.Float64), -1)     // [[batch,] seq, 1]
	angle := graph.Mul(p, graph.ExpandLeftToRank(freq, p.Rank()))                // [[batch,] seq, hd], float64
	c := graph.Mul(graph.Cos(angle), graph.ExpandLeftToRank(amp, angle.Rank()))  // [[batch,] seq, hd]
	s := graph.Mul(graph.Sin(angle), graph.ExpandLeftToRank(sign, angle.Rank())) // [[batch,] seq, hd]
	table := func(t *graph.Node) *graph.Node {
		return alignTable(graph.ConvertDType(t, x.DType()), x, seqAxis) // broadcasts to x
	}
	return rotation{r: r, fast: canSwapFast(r, x.DType()),
		cm1: table(graph.AddScalar(c, -1)), // C − 1 in float64, rounded once
		s:   table(s),
		c:   func() *graph.Node { return table(c) },
	}
}

// RoPERotation is RoPE at one positions node, its tables built once for
// any number of tensors of one shape class: a model's queries and keys in
// every layer, rotated at the same positions. Encode and EncodeWith build
// the tables for each tensor, and a compiler that fuses them into each
// rotation (XLA does) computes a cosine and a sine for every element of
// every head of every layer; a RoPERotation computes them once per
// position and dimension, and keeps them behind an optimization barrier
// so that they stay computed once. The forward values are those of
// Encode (EncodeWith for RotationWith), operation for operation.
type RoPERotation struct {
	rot       rotation
	dtype     dtypes.DType
	rank, seq int
	seqAxis   int
}

// Rotation returns e's rotation at positions (an integer node shaped
// [seq] or [batch, seq]) for tensors like x: x's dtype and rank, with the
// sequence on axis seqAxis (negative counts from the end) and the head
// dimension last. Its tables are constants of e.RoPE, as in Encode.
// Dynamic NTK scaling with no SeqLen takes x's sequence length. It panics
// with a *posenc.ParamError where Encode would.
func (e *RoPEEncoder) Rotation(x, positions *graph.Node, seqAxis int) *RoPERotation {
	r := e.RoPE
	checkRoPEInput(x, r)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	if r.Scaling.Kind == posenc.ScalingDynamic && r.Scaling.SeqLen == 0 {
		r.Scaling.SeqLen = x.Shape().Dimensions[axis]
	}
	return newRoPERotation(ropeTablesAt(r, positions, x, axis), x, axis)
}

// RotationWith is Rotation with RoPE's vectors as float64 nodes, as in
// EncodeWith.
func (e *RoPEEncoder) RotationWith(x, positions *graph.Node, seqAxis int, freq, amp, sign *graph.Node) *RoPERotation {
	r := e.RoPE
	checkRoPEInput(x, r)
	axis := seqAxisOf(x, seqAxis)
	checkPositions(x, positions, axis)
	checkVectors(r, freq, amp, sign)
	return newRoPERotation(ropeTablesFrom(r, positions, x, axis, freq, amp, sign), x, axis)
}

// newRoPERotation holds rot's forward tables behind one optimization
// barrier.
func newRoPERotation(rot rotation, x *graph.Node, axis int) *RoPERotation {
	held := graph.OptimizationBarriers(rot.cm1, rot.s)
	rot.cm1, rot.s = held[0], held[1]
	return &RoPERotation{rot: rot, dtype: x.DType(), rank: x.Rank(), seq: x.Shape().Dimensions[axis], seqAxis: axis}
}

// Apply rotates x, which must have the dtype, rank, sequence length and
// sequence axis of the tensor the rotation was built for (any size on the
// other axes but the last, the head dimension). It panics with a
// *posenc.ParamError for another x.
func (rr *RoPERotation) Apply(x *graph.Node) *graph.Node {
	checkRoPEInput(x, rr.rot.r)
	if x.DType() != rr.dtype || x.Rank() != rr.rank || x.Shape().Dimensions[rr.seqAxis] != rr.seq {
		must(validate.Err("x", x.Shape(), fmt.Sprintf("must be %s of rank %d with %d positions on axis %d, as the rotation was built for", rr.dtype, rr.rank, rr.seq, rr.seqAxis)))
	}
	return rr.rot.apply(x) // x's shape
}
