package posgraph

import (
	"errors"
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// The graph layer must compute what the host layer computes. Each test
// builds a small graph on Backend() (the pure-Go backend here) and
// compares its output with the host function it mirrors.

// graphTol is the float32 tolerance between graph and host results: the
// graph rounds each elementwise op to float32, the host rounds once.
const graphTol = 1e-6

// flat32 and flat64 copy a tensor's values.
func flat32(t *testing.T, x *tensors.Tensor) []float32 {
	t.Helper()
	v, err := tensors.CopyFlatData[float32](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func flat64(t *testing.T, x *tensors.Tensor) []float64 {
	t.Helper()
	v, err := tensors.CopyFlatData[float64](x)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// assertGraphClose compares float32 graph output with a host result to
// graphTol relative to max(1, |want|).
func assertGraphClose[U posenc.Float](t *testing.T, what string, got []float32, want []U) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values; want %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := float64(got[i]), float64(want[i])
		if g == w {
			continue
		}
		if math.IsInf(g, 0) || math.IsInf(w, 0) || math.IsNaN(g) || math.Abs(g-w) > graphTol*math.Max(1, math.Abs(w)) {
			t.Fatalf("%s[%d] = %v; want %v (host)", what, i, g, w)
		}
	}
}

func checkDims(t *testing.T, x *tensors.Tensor, dims ...int) {
	t.Helper()
	got := x.Shape().Dimensions
	if len(got) != len(dims) {
		t.Fatalf("shape %v; want %v", got, dims)
	}
	for i := range dims {
		if got[i] != dims[i] {
			t.Fatalf("shape %v; want %v", got, dims)
		}
	}
}

func TestGraphSinusoidalConst(t *testing.T) {
	for _, s := range []posenc.Sinusoidal{posenc.NewSinusoidal(16), posenc.NewSinusoidal(10).WithTensor2Tensor()} {
		const start, n = 999_990, 20
		want, _ := posenc.SinusoidalTable[float64](s, start, n)
		out32 := graph.MustExecOnce(Backend(), func(g *graph.Graph) *graph.Node {
			return SinusoidalConst(g, dtypes.Float32, s, start, n)
		})
		checkDims(t, out32, n, s.Dim)
		assertGraphClose(t, "float32", flat32(t, out32), want)
		out64 := graph.MustExecOnce(Backend(), func(g *graph.Graph) *graph.Node {
			return SinusoidalConst(g, dtypes.Float64, s, start, n)
		})
		assertClose(t, "float64", flat64(t, out64), want, 0)
	}
}

func TestGraphAddSinusoidal(t *testing.T) {
	rng := newRand(10)
	for _, dims := range [][]int{{7, 16}, {3, 7, 16}} {
		for _, scale := range []bool{false, true} {
			s := posenc.NewSinusoidal(16).WithLayout(posenc.Halves)
			const start = 5
			n := 1
			for _, d := range dims {
				n *= d
			}
			x := randSlice[float32](rng, n)
			out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
				return AddSinusoidal(x, s, start, scale)
			}, tensors.FromFlatDataAndDimensions(x, dims...))
			checkDims(t, out, dims...)
			want := make([]float32, n)
			rowsPerBatch := dims[len(dims)-2] * 16
			for b := 0; b < n; b += rowsPerBatch {
				if err := posenc.AddSinusoidalTo(want[b:b+rowsPerBatch], x[b:b+rowsPerBatch], s, start, scale); err != nil {
					t.Fatal(err)
				}
			}
			assertGraphClose(t, "AddSinusoidal", flat32(t, out), want)
		}
	}
}

func TestGraphApplyRoPE(t *testing.T) {
	rng := newRand(11)
	for _, r := range []posenc.RoPE{
		posenc.NewRoPE(8), posenc.NewRoPE(8).WithLayout(posenc.Halves),
		posenc.NewRoPE(10).WithRotaryDim(6), posenc.NewRoPE(12).WithRotaryDim(4).WithLayout(posenc.Halves),
		posenc.NewRoPE(16).WithScaling(posenc.YaRNScaling(4, 32)),
	} {
		for _, dims := range [][]int{{5, r.HeadDim}, {3, 5, r.HeadDim}, {2, 3, 5, r.HeadDim}} {
			for _, start := range []int{0, 17} {
				n := 1
				for _, d := range dims {
					n *= d
				}
				x := randSlice[float32](rng, n)
				out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
					return ApplyRoPE(x, r, start)
				}, tensors.FromFlatDataAndDimensions(x, dims...))
				checkDims(t, out, dims...)
				cache, err := posenc.NewRoPECache(r, start+5)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]float32, n)
				if err := posenc.ApplyRoPETo(want, x, cache, 5, start); err != nil {
					t.Fatal(err)
				}
				assertGraphClose(t, ropeName(r)+" rank "+itoa(len(dims))+" start "+itoa(start), flat32(t, out), want)
			}
		}
	}
	// float64 graphs agree with the float64 host layer to rounding.
	r := posenc.NewRoPE(8).WithLayout(posenc.Halves)
	x := randSlice[float64](rng, 3*8)
	out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
		return ApplyRoPE(x, r, 1000)
	}, tensors.FromFlatDataAndDimensions(x, 3, 8))
	cache, _ := posenc.NewRoPECache(r, 1003)
	want := make([]float64, len(x))
	if err := posenc.ApplyRoPETo(want, x, cache, 3, 1000); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "float64 graph", flat64(t, out), want, 1e-14)
}

func TestGraphApplyRoPEAt(t *testing.T) {
	rng := newRand(12)
	for _, r := range []posenc.RoPE{posenc.NewRoPE(8), posenc.NewRoPE(10).WithRotaryDim(6).WithLayout(posenc.Halves)} {
		const maxLen, seq, heads, batch = 64, 4, 3, 2
		hd := r.HeadDim
		cache, _ := posenc.NewRoPECache(r, maxLen)

		// Positions [seq] for x [heads, seq, hd].
		pos1 := []int32{7, 0, 63, 7}
		x := randSlice[float32](rng, heads*seq*hd)
		out := graph.MustExecOnce(Backend(), func(x, p *graph.Node) *graph.Node {
			return ApplyRoPEAt(x, p, r, maxLen)
		}, tensors.FromFlatDataAndDimensions(x, heads, seq, hd), pos1)
		want := make([]float32, len(x))
		if err := posenc.ApplyRoPEAtTo(want, x, cache, []int{7, 0, 63, 7}); err != nil {
			t.Fatal(err)
		}
		assertGraphClose(t, ropeName(r)+" positions [seq]", flat32(t, out), want)

		// Positions [batch, seq] for x [batch, heads, seq, hd] and [batch, seq, hd].
		pos2 := [][]int32{{1, 2, 3, 4}, {40, 9, 9, 0}}
		for _, dims := range [][]int{{batch, heads, seq, hd}, {batch, seq, hd}} {
			n := 1
			for _, d := range dims {
				n *= d
			}
			x := randSlice[float32](rng, n)
			out := graph.MustExecOnce(Backend(), func(x, p *graph.Node) *graph.Node {
				return ApplyRoPEAt(x, p, r, maxLen)
			}, tensors.FromFlatDataAndDimensions(x, dims...), pos2)
			checkDims(t, out, dims...)
			want := make([]float32, n)
			per := n / batch
			for b := range batch {
				p := []int{int(pos2[b][0]), int(pos2[b][1]), int(pos2[b][2]), int(pos2[b][3])}
				if err := posenc.ApplyRoPEAtTo(want[b*per:(b+1)*per], x[b*per:(b+1)*per], cache, p); err != nil {
					t.Fatal(err)
				}
			}
			assertGraphClose(t, ropeName(r)+" positions [batch, seq] rank "+itoa(len(dims)), flat32(t, out), want)
		}
	}
}

func TestGraphALiBi(t *testing.T) {
	for _, sz := range [][2]int{{6, 6}, {2, 7}, {1, 5}} {
		for _, causal := range []bool{false, true} {
			const heads, batch = 6, 2
			q, k := sz[0], sz[1]
			slopes, _ := posenc.ALiBiSlopes(heads)
			want := make([]float32, heads*q*k)
			if err := posenc.ALiBiBiasTo(want, slopes, q, k, causal); err != nil {
				t.Fatal(err)
			}
			c := graph.MustExecOnce(Backend(), func(g *graph.Graph) *graph.Node {
				return ALiBiConst(g, dtypes.Float32, heads, q, k, causal)
			})
			checkDims(t, c, heads, q, k)
			assertGraphClose(t, "ALiBiConst", flat32(t, c), want)

			// AddALiBi on logits [batch, heads, q, k] = 1 gives 1 + bias.
			logits := make([]float32, batch*heads*q*k)
			for i := range logits {
				logits[i] = 1
			}
			out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
				return AddALiBi(x, causal)
			}, tensors.FromFlatDataAndDimensions(logits, batch, heads, q, k))
			wantAdd := make([]float32, 0, len(logits))
			for range batch {
				for _, v := range want {
					wantAdd = append(wantAdd, v+1)
				}
			}
			assertGraphClose(t, "AddALiBi", flat32(t, out), wantAdd)

			out64 := graph.MustExecOnce(Backend(), func(g *graph.Graph) *graph.Node {
				return ALiBiConst(g, dtypes.Float64, heads, q, k, causal)
			})
			want64 := make([]float64, heads*q*k)
			_ = posenc.ALiBiBiasTo(want64, slopes, q, k, causal)
			assertClose(t, "ALiBiConst float64", flat64(t, out64), want64, 0)
		}
	}
}

func TestGraphT5Bias(t *testing.T) {
	for _, tb := range []posenc.T5Buckets{posenc.NewT5Buckets(), {NumBuckets: 8, MaxDistance: 20}} {
		const heads, q, k = 3, 5, 40
		store := model.NewStore()
		out := model.MustCallOnce(Backend(), store, func(scope *model.Scope, g *graph.Graph) *graph.Node {
			return T5Bias(scope, g, dtypes.Float32, tb, heads, q, k)
		})
		checkDims(t, out, heads, q, k)
		v := store.RootScope().GetVariable(T5VariableName)
		if v == nil {
			t.Fatalf("no variable %q after T5Bias", T5VariableName)
		}
		table := flat32(t, v.MustValue()) // [num_buckets, heads]
		checkDims(t, v.MustValue(), tb.NumBuckets, heads)
		buckets := make([]int32, q*k)
		if err := tb.BucketsTo(buckets, q, k); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, heads*q*k)
		for h := range heads {
			for i, b := range buckets {
				want[h*q*k+i] = table[int(b)*heads+h]
			}
		}
		got := flat32(t, out)
		assertClose(t, "T5Bias", got, want, 0)
		// The variable was initialised randomly: distinct buckets differ.
		for i, b := range buckets {
			if b != buckets[0] {
				if got[i] == got[0] {
					t.Errorf("bias at buckets %d and %d are equal (%v): variable not random?", buckets[0], b, got[0])
				}
				break
			}
		}
	}
}

func TestGraphLearned(t *testing.T) {
	rng := newRand(13)
	l := posenc.NewLearned(12, 4)
	const batch, seq, start = 2, 5, 6
	x := randSlice[float32](rng, batch*seq*4)
	store := model.NewStore()
	out := model.MustCallOnce(Backend(), store, func(scope *model.Scope, x *graph.Node) *graph.Node {
		return AddLearned(scope, x, l, start)
	}, tensors.FromFlatDataAndDimensions(x, batch, seq, 4))
	v := store.RootScope().GetVariable(LearnedVariableName)
	if v == nil {
		t.Fatalf("no variable %q after AddLearned", LearnedVariableName)
	}
	checkDims(t, v.MustValue(), 12, 4)
	table := flat32(t, v.MustValue())
	rows := make([]float32, seq*4)
	if err := posenc.LearnedLookupTo(rows, table, l, []int{6, 7, 8, 9, 10}); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(x))
	for i := range want {
		want[i] = x[i] + rows[i%(seq*4)]
	}
	assertGraphClose(t, "AddLearned", flat32(t, out), want)

	// AddAt with [seq] and [batch, seq] positions, on the same store.
	for _, positions := range []any{[]int32{0, 11, 3, 3, 5}, [][]int32{{0, 1, 2, 3, 4}, {11, 10, 9, 8, 7}}} {
		out := model.MustCallOnce(Backend(), store, func(scope *model.Scope, x, p *graph.Node) *graph.Node {
			return AddLearnedAt(scope, x, p, l)
		}, tensors.FromFlatDataAndDimensions(x, batch, seq, 4), positions)
		want := make([]float32, len(x))
		for b := range batch {
			var p []int
			switch ps := positions.(type) {
			case []int32:
				for _, v := range ps {
					p = append(p, int(v))
				}
			case [][]int32:
				for _, v := range ps[b] {
					p = append(p, int(v))
				}
			}
			if err := posenc.LearnedLookupTo(rows, table, l, p); err != nil {
				t.Fatal(err)
			}
			for i := range rows {
				want[b*seq*4+i] = x[b*seq*4+i] + rows[i]
			}
		}
		assertGraphClose(t, "AddLearnedAt", flat32(t, out), want)
	}
}

// TestGraphParamErrors checks that graph functions panic, while the graph
// is built, with the *posenc.ParamError the host layer would return.
func TestGraphParamErrors(t *testing.T) {
	g := graph.NewGraph(Backend(), "bad_config")
	defer g.Finalize()
	x8 := graph.Parameter(g, "x8", shapes.Make(dtypes.Float32, 2, 5, 8))
	x6 := graph.Parameter(g, "x6", shapes.Make(dtypes.Float32, 5, 6))
	xInt := graph.Parameter(g, "xi", shapes.Make(dtypes.Int32, 5, 8))
	vec := graph.Parameter(g, "v", shapes.Make(dtypes.Float32, 8))
	posF := graph.Parameter(g, "pf", shapes.Make(dtypes.Float32, 5))
	pos3 := graph.Parameter(g, "p3", shapes.Make(dtypes.Int32, 3))
	store := model.NewStore()
	scope := store.RootScope()
	for _, tc := range []struct {
		name, param, value string
		build              func()
	}{
		{"SinusoidalConst odd dim", "dim", "7", func() { SinusoidalConst(g, dtypes.Float32, posenc.NewSinusoidal(7), 0, 3) }},
		{"SinusoidalConst n 0", "n", "0", func() { SinusoidalConst(g, dtypes.Float32, posenc.NewSinusoidal(8), 0, 0) }},
		{"SinusoidalConst int dtype", "dtype", "Int32", func() { SinusoidalConst(g, dtypes.Int32, posenc.NewSinusoidal(8), 0, 3) }},
		{"SinusoidalConst negative start", "start", "-1", func() { SinusoidalConst(g, dtypes.Float32, posenc.NewSinusoidal(8), -1, 3) }},
		{"AddSinusoidal wrong dim", "x's last axis", "6", func() { AddSinusoidal(x6, posenc.NewSinusoidal(8), 0, false) }},
		{"AddSinusoidal rank 1", "rank(x)", "1", func() { AddSinusoidal(vec, posenc.NewSinusoidal(8), 0, false) }},
		{"ApplyRoPE odd head_dim", "head_dim", "7", func() { ApplyRoPE(x8, posenc.NewRoPE(7), 0) }},
		{"ApplyRoPE wrong head_dim", "x's last axis", "6", func() { ApplyRoPE(x6, posenc.NewRoPE(8), 0) }},
		{"ApplyRoPE int x", "x's dtype", "Int32", func() { ApplyRoPE(xInt, posenc.NewRoPE(8), 0) }},
		{"ApplyRoPE base 1", "base", "1", func() { ApplyRoPE(x8, posenc.NewRoPE(8).WithBase(1), 0) }},
		{"ApplyRoPE negative start", "start", "-3", func() { ApplyRoPE(x8, posenc.NewRoPE(8), -3) }},
		{"ApplyRoPE factor < 1", "factor", "0.5", func() { ApplyRoPE(x8, posenc.NewRoPE(8).WithScaling(posenc.LinearScaling(0.5)), 0) }},
		{"ApplyRoPEAt float positions", "positions' dtype", "Float32", func() { ApplyRoPEAt(x8, posF, posenc.NewRoPE(8), 10) }},
		{"ApplyRoPEAt wrong positions shape", "positions' shape", "[3]", func() { ApplyRoPEAt(x8, pos3, posenc.NewRoPE(8), 10) }},
		{"ApplyRoPEAt positions batch mismatch", "positions' shape", "[3 5]", func() {
			ApplyRoPEAt(x8, graph.Parameter(g, "p35", shapes.Make(dtypes.Int32, 3, 5)), posenc.NewRoPE(8), 10)
		}},
		{"ApplyRoPEAt [batch, seq] positions for rank 2", "positions' shape", "[5 5]", func() {
			ApplyRoPEAt(graph.Parameter(g, "x58", shapes.Make(dtypes.Float32, 5, 8)), graph.Parameter(g, "p55", shapes.Make(dtypes.Int32, 5, 5)), posenc.NewRoPE(8), 10)
		}},
		{"ApplyRoPEAt max_len 0", "max_len", "0", func() { ApplyRoPEAt(x8, graph.Parameter(g, "p5", shapes.Make(dtypes.Int32, 5)), posenc.NewRoPE(8), 0) }},
		{"ALiBiConst heads 0", "heads", "0", func() { ALiBiConst(g, dtypes.Float32, 0, 3, 3, true) }},
		{"ALiBiConst q > k", "q_len", "4", func() { ALiBiConst(g, dtypes.Float32, 2, 4, 3, true) }},
		{"AddALiBi rank 2", "rank(logits)", "2", func() { AddALiBi(x6, false) }},
		{"T5Bias bad buckets", "num_buckets", "3", func() {
			T5Bias(scope, g, dtypes.Float32, posenc.T5Buckets{NumBuckets: 3, MaxDistance: 10, Bidirectional: true}, 2, 3, 3)
		}},
		{"T5Bias heads 0", "heads", "0", func() { T5Bias(scope, g, dtypes.Float32, posenc.NewT5Buckets(), 0, 3, 3) }},
		{"T5Bias q_len 0", "q_len", "0", func() { T5Bias(scope, g, dtypes.Float32, posenc.NewT5Buckets(), 2, 0, 3) }},
		{"T5Bias k_len 0", "k_len", "0", func() { T5Bias(scope, g, dtypes.Float32, posenc.NewT5Buckets(), 2, 3, 0) }},
		{"T5Bias bad buckets before q_len", "num_buckets", "3", func() {
			T5Bias(scope, g, dtypes.Float32, posenc.T5Buckets{NumBuckets: 3, MaxDistance: 10, Bidirectional: true}, 2, 0, 3)
		}},
		{"T5Bias too many pairs", "q_len×k_len", "[65536 65536]", func() { T5Bias(scope, g, dtypes.Float32, posenc.NewT5Buckets(), 2, 1<<16, 1<<16) }},
		{"AddLearned past table", "start+seq_len", "13", func() { AddLearned(scope, x8, posenc.NewLearned(12, 8), 8) }},
		{"AddLearned wrong dim", "x's last axis", "8", func() { AddLearned(scope, x8, posenc.NewLearned(12, 4), 0) }},
		{"AddLearned negative start", "start", "-1", func() { AddLearned(scope, x8, posenc.NewLearned(12, 8), -1) }},
		{"AddLearnedAt float positions", "positions' dtype", "Float32", func() { AddLearnedAt(scope, x8, posF, posenc.NewLearned(12, 8)) }},
		{"LearnedTable max_len 0", "max_len", "0", func() { LearnedTable(scope, g, posenc.NewLearned(0, 8), dtypes.Float32) }},
		{"AttentionWeights d mismatch", "k's last axis", "6", func() { AttentionWeights(x8, x6, nil) }},
		{"Attention rank 1", "rank(q)", "1", func() { Attention(vec, x8, x8, nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) { wantGraphPanic(t, tc.param, tc.value, tc.build) })
	}
}

// TestGraphParamErrorThroughExec checks that graph.CallOnce turns the panic
// into an error that still unwraps to the *posenc.ParamError.
func TestGraphParamErrorThroughExec(t *testing.T) {
	_, err := graph.CallOnce(Backend(), func(x *graph.Node) *graph.Node {
		return ApplyRoPE(x, posenc.NewRoPE(7), 0)
	}, tensors.FromFlatDataAndDimensions(make([]float32, 14), 2, 7))
	var pe *posenc.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v; want a wrapped *posenc.ParamError", err)
	}
	checkParamMessage(t, pe.Error(), "head_dim", "7")
}
