package posgraph

import (
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/attention"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/posenc/course/pkg/posenc"
)

// The encoders must compute what the graph functions and the host layer
// compute, wherever GoMLX puts the sequence axis, and GoMLX's own
// MultiHeadAttention with a posenc encoder must give what attention written
// by hand with the same weights gives.

// encoderRoPEs covers both layouts, partial rotary, and every scaling whose
// frequencies or amplitude differ from plain RoPE.
var encoderRoPEs = []posenc.RoPE{
	posenc.NewRoPE(8),
	posenc.NewRoPE(8).WithLayout(posenc.Halves),
	posenc.NewRoPE(10).WithRotaryDim(6),
	posenc.NewRoPE(12).WithRotaryDim(4).WithLayout(posenc.Halves),
	posenc.NewRoPE(8).WithScaling(posenc.LinearScaling(4)),
	posenc.NewRoPE(8).WithScaling(posenc.NTKScaling(4)),
	posenc.NewRoPE(8).WithLayout(posenc.Halves).WithScaling(posenc.YaRNScaling(8, 16)),
	posenc.NewRoPE(8).WithScaling(posenc.Llama3Scaling(8, 16)),
	// p-RoPE: the last pairs have frequency 0 and pass through.
	posenc.NewRoPE(16).WithLayout(posenc.Halves).WithScaling(posenc.ProportionalScaling(0.25)),
	posenc.NewRoPE(8).WithScaling(posenc.ProportionalScaling(0.5)),
}

// hostRotate rotates every [headDim] row of x, laid out [batch, seq, heads,
// headDim] (GoMLX's BSHD), by posenc.RotateTo at position positions[b][s].
func hostRotate(t *testing.T, x []float32, r posenc.RoPE, batch, seq, heads int, positions [][]int) []float32 {
	t.Helper()
	hd := r.HeadDim
	out := make([]float32, len(x))
	for b := range batch {
		for s := range seq {
			for h := range heads {
				o := ((b*seq+s)*heads + h) * hd
				if err := posenc.RotateTo(out[o:o+hd], x[o:o+hd], r, positions[b][s]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return out
}

func TestRoPEEncoderMatchesHost(t *testing.T) {
	rng := newRand(21)
	const batch, seq, heads = 2, 5, 3
	for _, r := range encoderRoPEs {
		n := batch * seq * heads * r.HeadDim
		q, k := randSlice[float32](rng, n), randSlice[float32](rng, n)
		// BSHD with positions [seq] (shared by the batch) and [batch, seq]
		// (a KV cache at different offsets), including positions past 10^5.
		shared := []int32{0, 1, 2, 3, 100_000}
		perBatch := [][]int32{{7, 8, 9, 10, 11}, {500, 3, 40_000, 1, 0}}
		for _, positions := range []any{shared, perBatch} {
			var want [][]int
			for b := range batch {
				var row []int32
				switch p := positions.(type) {
				case []int32:
					row = p
				case [][]int32:
					row = p[b]
				}
				w := make([]int, len(row))
				for i, v := range row {
					w[i] = int(v)
				}
				want = append(want, w)
			}
			outs := graph.MustExecOnceN(Backend(), func(q, k, p *graph.Node) (*graph.Node, *graph.Node) {
				return NewRoPEEncoder(r).EncodeQK(q, k, p, 1)
			}, tensors.FromFlatDataAndDimensions(q, batch, seq, heads, r.HeadDim),
				tensors.FromFlatDataAndDimensions(k, batch, seq, heads, r.HeadDim), positions)
			name := ropeName(r)
			assertGraphClose(t, name+" q", flat32(t, outs[0]), hostRotate(t, q, r, batch, seq, heads, want))
			assertGraphClose(t, name+" k", flat32(t, outs[1]), hostRotate(t, k, r, batch, seq, heads, want))
		}
	}
}

// TestRoPEEncoderMatchesApplyRoPE checks the [..., seq, headDim] layout
// (seqAxis −2) against ApplyRoPE, and float64.
func TestRoPEEncoderMatchesApplyRoPE(t *testing.T) {
	rng := newRand(22)
	const heads, seq, start = 3, 6, 40
	for _, r := range encoderRoPEs {
		x := randSlice[float64](rng, heads*seq*r.HeadDim)
		positions := make([]int32, seq)
		for i := range positions {
			positions[i] = int32(start + i)
		}
		outs := graph.MustExecOnceN(Backend(), func(x, p *graph.Node) (*graph.Node, *graph.Node) {
			return NewRoPEEncoder(r).Encode(x, p, -2), ApplyRoPE(x, r, start)
		}, tensors.FromFlatDataAndDimensions(x, heads, seq, r.HeadDim), positions)
		assertClose(t, ropeName(r), flat64(t, outs[0]), flat64(t, outs[1]), 1e-13)
	}
}

// TestRoPEEncoderDynamicNTK checks that dynamic NTK with SeqLen 0 takes the
// sequence length from the queries, as Hugging Face does, and so differs
// from plain RoPE only past the original length.
func TestRoPEEncoderDynamicNTK(t *testing.T) {
	rng := newRand(23)
	const hd, orig = 8, 4
	for _, seq := range []int{3, 4, 10} {
		dyn := posenc.NewRoPE(hd).WithScaling(posenc.DynamicNTKScaling(2, orig, 0))
		explicit := posenc.NewRoPE(hd).WithScaling(posenc.DynamicNTKScaling(2, orig, seq))
		x := randSlice[float32](rng, seq*hd)
		positions := make([]int32, seq)
		for i := range positions {
			positions[i] = int32(i)
		}
		outs := graph.MustExecOnceN(Backend(), func(x, p *graph.Node) (*graph.Node, *graph.Node) {
			return NewRoPEEncoder(dyn).Encode(x, p, 0), ApplyRoPE(x, explicit, 0)
		}, tensors.FromFlatDataAndDimensions(x, seq, hd), positions)
		assertGraphClose(t, "dynamic NTK, seq "+itoa(seq), flat32(t, outs[0]), flat32(t, outs[1]))
		plain := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
			return ApplyRoPE(x, posenc.NewRoPE(hd), 0)
		}, tensors.FromFlatDataAndDimensions(x, seq, hd))
		same := maxDiff(flat32(t, outs[0]), flat32(t, plain)) < 1e-6
		if wantSame := seq <= orig; same != wantSame {
			t.Errorf("seq %d: dynamic NTK equals plain RoPE = %t; want %t (original length %d)", seq, same, wantSame, orig)
		}
	}
}

func maxDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

func TestSinusoidalEncoderMatchesAddSinusoidal(t *testing.T) {
	rng := newRand(24)
	const batch, seq, start = 2, 7, 999_990
	for _, s := range []posenc.Sinusoidal{posenc.NewSinusoidal(16), posenc.NewSinusoidal(10).WithTensor2Tensor(),
		posenc.NewSinusoidal(12).WithBase(500)} {
		for _, scale := range []bool{false, true} {
			x := randSlice[float32](rng, batch*seq*s.Dim)
			positions := make([]int32, seq)
			for i := range positions {
				positions[i] = int32(start + i)
			}
			outs := graph.MustExecOnceN(Backend(), func(x, p *graph.Node) (*graph.Node, *graph.Node) {
				return NewSinusoidalEncoder(s, scale).PreEncode(x, p, 1), AddSinusoidal(x, s, start, scale)
			}, tensors.FromFlatDataAndDimensions(x, batch, seq, s.Dim), positions)
			tol := graphTol
			if scale {
				tol *= math.Sqrt(float64(s.Dim)) // x·√d is rounded to float32 first
			}
			assertClose(t, "SinusoidalEncoder", flat32(t, outs[0]), flat32(t, outs[1]), tol)
		}
	}
}

func TestLearnedEncoderMatchesAddLearnedAt(t *testing.T) {
	rng := newRand(25)
	l := posenc.NewLearned(12, 4)
	const batch, seq = 2, 5
	x := randSlice[float32](rng, batch*seq*4)
	positions := [][]int32{{0, 1, 2, 3, 4}, {11, 10, 9, 8, 7}}
	store := model.NewStore()
	outs := model.MustCallOnceN(Backend(), store, func(scope *model.Scope, x, p *graph.Node) []*graph.Node {
		return []*graph.Node{NewLearnedEncoder(scope, l).PreEncode(x, p, -2), AddLearnedAt(scope, x, p, l)}
	}, tensors.FromFlatDataAndDimensions(x, batch, seq, 4), positions)
	assertClose(t, "LearnedEncoder", flat32(t, outs[0]), flat32(t, outs[1]), 0)
}

func TestBiasEncoders(t *testing.T) {
	store := model.NewStore()
	const heads, q, k = 4, 3, 5
	outs := model.MustCallOnceN(Backend(), store, func(scope *model.Scope, g *graph.Graph) []*graph.Node {
		t5 := posenc.NewT5Buckets()
		return []*graph.Node{
			NewALiBiEncoder(true).AttentionBias(g, dtypes.Float32, heads, q, k),
			T5Bias(scope, g, dtypes.Float32, t5, heads, q, k),
			NewT5Encoder(scope, t5).AttentionBias(g, dtypes.Float32, heads, q, k),
		}
	})
	checkDims(t, outs[0], 1, heads, q, k)
	want, _ := posenc.ALiBiSlopes(heads)
	bias := make([]float32, heads*q*k)
	if err := posenc.ALiBiBiasTo(bias, want, q, k, true); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "ALiBiEncoder", flat32(t, outs[0]), bias, 0)
	checkDims(t, outs[2], 1, heads, q, k)
	assertClose(t, "T5Encoder (same table as T5Bias)", flat32(t, outs[2]), flat32(t, outs[1]), 0)
}

// mhaManual computes what attention.SelfAttention computes, written out
// with posgraph's functions and the variables MultiHeadAttention created in
// store: projections, positions (rope, when not nil), scores plus bias and
// causal mask, softmax, values, output projection.
func mhaManual(store *model.Store, x *graph.Node, heads, hd int, rope *posenc.RoPE, bias *graph.Node) *graph.Node {
	g := x.Graph()
	b, seq := x.Shape().Dimensions[0], x.Shape().Dimensions[1]
	variable := func(layer, name string) *graph.Node {
		return store.GetVariable("/MultiHeadAttention/" + layer + "/dense/" + name).NodeValue(g)
	}
	project := func(name string) *graph.Node {
		w := variable(name, "weights")                                                 // [dModel, heads·hd]
		bb := variable(name, "biases")                                                 // [heads·hd]
		y := graph.Add(graph.MatMul(x, w), graph.ExpandLeftToRank(bb, 3))              // [b, seq, heads·hd]
		return graph.TransposeAllDims(graph.Reshape(y, b, seq, heads, hd), 0, 2, 1, 3) // [b, heads, seq, hd]
	}
	q, k, v := project("query"), project("key"), project("value")
	if rope != nil {
		q, k = ApplyRoPE(q, *rope, 0), ApplyRoPE(k, *rope, 0) // [b, heads, seq, hd]
	}
	causal := make([]float32, seq*seq) // 0 on and below the diagonal, −Inf above
	for i := range seq {
		for j := i + 1; j < seq; j++ {
			causal[i*seq+j] = float32(math.Inf(-1))
		}
	}
	mask := graph.Reshape(graph.Const(g, causal), 1, 1, seq, seq) // [1, 1, seq, seq]
	if bias != nil {
		mask = graph.Add(mask, bias) // [1, heads, seq, seq]
	}
	o := Attention(q, k, v, mask)                                                                                             // [b, heads, seq, hd]
	o = graph.Reshape(graph.TransposeAllDims(o, 0, 2, 1, 3), b, seq, heads*hd)                                                // [b, seq, heads·hd]
	return graph.Add(graph.MatMul(o, variable("output", "weights")), graph.ExpandLeftToRank(variable("output", "biases"), 3)) // [b, seq, dModel]
}

// TestGoMLXMultiHeadAttentionWithEncoders plugs each posgraph encoder into
// GoMLX's attention.SelfAttention (causal) and compares its output with
// mhaManual on the same variables.
func TestGoMLXMultiHeadAttentionWithEncoders(t *testing.T) {
	skipMatMulUnderRace(t)
	const batch, seq, dModel, heads, hd = 2, 6, 16, 2, 8
	rng := newRand(26)
	x := tensors.FromFlatDataAndDimensions(randSlice[float32](rng, batch*seq*dModel), batch, seq, dModel)
	for _, tc := range []struct {
		name string
		rope *posenc.RoPE
		bias func(scope *model.Scope, g *graph.Graph) *graph.Node
	}{
		{name: "RoPE interleaved", rope: &encoderRoPEs[0]},
		{name: "RoPE halves", rope: &encoderRoPEs[1]},
		{name: "RoPE YaRN", rope: &encoderRoPEs[6]},
		{name: "ALiBi", bias: func(_ *model.Scope, g *graph.Graph) *graph.Node {
			return NewALiBiEncoder(true).AttentionBias(g, dtypes.Float32, heads, seq, seq)
		}},
		{name: "T5", bias: func(scope *model.Scope, g *graph.Graph) *graph.Node {
			return NewT5Encoder(scope.In("t5"), posenc.T5Buckets{NumBuckets: 6, MaxDistance: 5}).
				AttentionBias(g, dtypes.Float32, heads, seq, seq)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := model.NewStore()
			outs := model.MustCallOnceN(Backend(), store, func(scope *model.Scope, x *graph.Node) []*graph.Node {
				mha := attention.SelfAttention(scope, x, heads, hd).WithCausalMask(true)
				var bias *graph.Node
				if tc.rope != nil {
					mha = mha.WithPositionalEncoder(NewRoPEEncoder(*tc.rope))
				}
				if tc.bias != nil {
					bias = tc.bias(scope, x.Graph())
					mha = mha.WithAttentionBias(bias)
				}
				got := mha.Done()                                     // [batch, seq, dModel]
				want := mhaManual(store, x, heads, hd, tc.rope, bias) // [batch, seq, dModel]
				return []*graph.Node{got, want}
			}, x)
			checkDims(t, outs[0], batch, seq, dModel)
			assertClose(t, tc.name, flat32(t, outs[0]), flat32(t, outs[1]), 2e-6)
		})
	}
}

// TestEncoderErrors checks that the encoders panic with a *posenc.ParamError
// naming the parameter, while the graph is built.
func TestEncoderErrors(t *testing.T) {
	g := graph.NewGraph(Backend(), "bad_encoder")
	defer g.Finalize()
	x := graph.Parameter(g, "x", shapes.Make(dtypes.Float32, 2, 5, 3, 8))
	p5 := graph.Parameter(g, "p5", shapes.Make(dtypes.Int32, 5))
	p4 := graph.Parameter(g, "p4", shapes.Make(dtypes.Int32, 4))
	pf := graph.Parameter(g, "pf", shapes.Make(dtypes.Float32, 5))
	enc := NewRoPEEncoder(posenc.NewRoPE(8))
	for _, tc := range []struct {
		name, param, value string
		build              func()
	}{
		{"NewRoPEEncoder odd", "head_dim", "7", func() { NewRoPEEncoder(posenc.NewRoPE(7)) }},
		{"seq axis is the last", "seq_axis", "3", func() { enc.EncodeQK(x, x, p5, 3) }},
		{"seq axis out of range", "seq_axis", "-5", func() { enc.EncodeQK(x, x, p5, -5) }},
		{"positions length", "positions' shape", "[4]", func() { enc.EncodeQK(x, x, p4, 1) }},
		{"float positions", "positions' dtype", "Float32", func() { enc.EncodeQK(x, x, pf, 1) }},
		{"sinusoidal dim", "x's last axis", "8", func() {
			NewSinusoidalEncoder(posenc.NewSinusoidal(6), false).PreEncode(x, p5, 1)
		}},
		{"NewSinusoidalEncoder odd", "dim", "5", func() { NewSinusoidalEncoder(posenc.NewSinusoidal(5), false) }},
		{"NewT5Encoder", "num_buckets", "3", func() {
			NewT5Encoder(model.NewStore().RootScope(), posenc.T5Buckets{NumBuckets: 3, MaxDistance: 10, Bidirectional: true})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantGraphPanic(t, tc.param, tc.value, tc.build) })
	}
}
