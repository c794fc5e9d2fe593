package cpuattention

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	_ "github.com/gomlx/go-xla/compute/xla"
)

// The reference is attention as transformers' eager_attention_forward
// computes it (modeling_llama.py: scores, mask, softmax, values), in
// float64, one query at a time.
func reference(q, k, v []float32, mask []bool, b, h, kv, c, n, e, mb int) []float64 {
	out := make([]float64, b*h*c*e)
	g := h / kv
	for bi := range b {
		for hi := range h {
			for i := range c {
				qi := q[((bi*h+hi)*c+i)*e:][:e]
				row := mask[((bi%mb)*c+i)*n:][:n]
				scores := make([]float64, n)
				top := math.Inf(-1)
				for j := range n {
					if !row[j] {
						continue
					}
					kj := k[((bi*kv+hi/g)*n+j)*e:][:e]
					var d float64
					for x := range e {
						d += float64(qi[x]) * float64(kj[x])
					}
					scores[j] = d
					top = max(top, d)
				}
				var sum float64
				o := out[((bi*h+hi)*c+i)*e:][:e]
				for j := range n {
					if !row[j] {
						continue
					}
					w := math.Exp(scores[j] - top)
					sum += w
					vj := v[((bi*kv+hi/g)*n+j)*e:][:e]
					for x := range e {
						o[x] += w * float64(vj[x])
					}
				}
				for x := range e {
					o[x] /= sum // 0/0 = NaN for a query that reads nothing
				}
			}
		}
	}
	return out
}

// A case is one call: its sizes and its mask.
type attentionCase struct {
	name               string
	b, h, kv, c, n, mb int
	mask               func(mb, i, j int) bool
}

// causalFrom is the model's causal mask for a chunk whose first query sits
// in slot start: query i reads slots 0 … start+i.
func causalFrom(start int) func(mb, i, j int) bool {
	return func(_, i, j int) bool { return j <= start+i }
}

var cases = []attentionCase{
	{"causal prompt", 1, 9, 3, 300, 300, 1, causalFrom(0)},
	{"causal chunk after 517 slots, spare capacity", 1, 9, 3, 130, 1100, 1, causalFrom(517)},
	{"one query (decoding)", 1, 9, 3, 1, 700, 1, causalFrom(650)},
	{"every slot", 2, 4, 4, 70, 90, 1, func(_, _, _ int) bool { return true }},
	{"padding with holes, per batch row", 2, 6, 2, 67, 333, 2, func(mb, i, j int) bool {
		return j <= i+200 && (j%7 != 3 || mb == 1) && !(mb == 0 && j >= 40 && j < 170)
	}},
	{"two queries (few), holes", 1, 6, 2, 2, 301, 1, func(_, i, j int) bool { return j%5 != 1 && j <= 250+i }},
	{"a query reading nothing (few)", 1, 3, 1, 5, 64, 1, func(_, i, j int) bool { return i != 2 && j <= i+30 }},
	{"a query reading nothing (tiles)", 1, 3, 1, 20, 100, 1, func(_, i, j int) bool { return i != 5 && j <= i+50 }},
}

func fill(r *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32((r.Float64()*2 - 1) * scale)
	}
	return x
}

func inputs(tc attentionCase) (q, k, v []float32, mask []bool) {
	const e = HeadDim
	r := rand.New(rand.NewPCG(1, uint64(tc.c*1000+tc.n)))
	q = fill(r, tc.b*tc.h*tc.c*e, 0.4)
	k = fill(r, tc.b*tc.kv*tc.n*e, 2)
	v = fill(r, tc.b*tc.kv*tc.n*e, 1)
	mask = make([]bool, tc.mb*tc.c*tc.n)
	for m := range tc.mb {
		for i := range tc.c {
			for j := range tc.n {
				mask[(m*tc.c+i)*tc.n+j] = tc.mask(m, i, j)
			}
		}
	}
	return
}

// compare fails t where got differs from want by more than tol, or where
// one is NaN and the other not.
func compare(t *testing.T, got []float32, want []float64, tol float64) {
	t.Helper()
	worst := 0.0
	for i := range want {
		if math.IsNaN(want[i]) != math.IsNaN(float64(got[i])) {
			t.Fatalf("element %d: got %v, want %v", i, got[i], want[i])
		}
		if !math.IsNaN(want[i]) {
			worst = max(worst, math.Abs(float64(got[i])-want[i]))
		}
	}
	if worst > tol {
		t.Errorf("max |Δ| = %.3g against the float64 reference, want ≤ %g", worst, tol)
	}
	t.Logf("max |Δ| = %.3g", worst)
}

func TestKernelMatchesReference(t *testing.T) {
	if !supported() {
		t.Skip("this CPU lacks AVX-512")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, k, v, mask := inputs(tc)
			bytes := make([]byte, len(mask))
			for i, m := range mask {
				if m {
					bytes[i] = 1
				}
			}
			for _, threads := range []int{1, 3} {
				o := make([]float32, len(q))
				kernel(o, q, k, v, bytes, tc.b, tc.h, tc.kv, tc.c, tc.n, HeadDim, tc.mb, threads)
				compare(t, o, reference(q, k, v, mask, tc.b, tc.h, tc.kv, tc.c, tc.n, HeadDim, tc.mb), 2e-6)
			}
		})
	}
}

// xlaBackend returns XLA's CPU backend switched on, or skips.
func xlaBackend(t *testing.T) compute.Backend {
	t.Helper()
	if os.Getenv("PJRT_PLUGIN_LIBRARY_PATH") == "" {
		t.Skip("no XLA plugin (PJRT_PLUGIN_LIBRARY_PATH is unset): make xla-test runs this")
	}
	backend, err := compute.NewWithConfig("xla:cpu")
	if err != nil {
		t.Fatal(err)
	}
	if err := Enable(backend); err != nil {
		t.Skip(err)
	}
	return backend
}

func TestAttentionInGraphMatchesReference(t *testing.T) {
	backend := xlaBackend(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, k, v, mask := inputs(tc)
			const e = HeadDim
			exec := graph.MustNewExec(backend, func(q, k, v, mask *graph.Node) *graph.Node {
				out, ok := Attention(q, k, v, mask)
				if !ok {
					t.Fatal("Attention reported false on a switched-on backend")
				}
				return out
			})
			out := exec.MustExec1(
				tensors.FromFlatDataAndDimensions(q, tc.b, tc.h, tc.c, e),
				tensors.FromFlatDataAndDimensions(k, tc.b, tc.kv, tc.n, e),
				tensors.FromFlatDataAndDimensions(v, tc.b, tc.kv, tc.n, e),
				tensors.FromFlatDataAndDimensions(mask, tc.mb, tc.c, tc.n))
			got := tensors.MustCopyFlatData[float32](out)
			compare(t, got, reference(q, k, v, mask, tc.b, tc.h, tc.kv, tc.c, tc.n, e, tc.mb), 2e-6)
		})
	}
}

func TestAttentionDeclines(t *testing.T) {
	backend := xlaBackend(t)
	f32 := func(dims ...int) shapes.Shape { return shapes.Make(dtypes.Float32, dims...) }
	for _, tc := range []struct {
		name          string
		q, k, v, mask shapes.Shape
	}{
		{"head dimension 128", f32(1, 2, 4, 128), f32(1, 2, 8, 128), f32(1, 2, 8, 128), shapes.Make(dtypes.Bool, 1, 4, 8)},
		{"float64", shapes.Make(dtypes.Float64, 1, 2, 4, 64), shapes.Make(dtypes.Float64, 1, 2, 8, 64), shapes.Make(dtypes.Float64, 1, 2, 8, 64), shapes.Make(dtypes.Bool, 1, 4, 8)},
		{"heads not a multiple of key heads", f32(1, 3, 4, 64), f32(1, 2, 8, 64), f32(1, 2, 8, 64), shapes.Make(dtypes.Bool, 1, 4, 8)},
		{"float mask", f32(1, 2, 4, 64), f32(1, 2, 8, 64), f32(1, 2, 8, 64), f32(1, 4, 8)},
		{"mask of other slots", f32(1, 2, 4, 64), f32(1, 2, 8, 64), f32(1, 2, 8, 64), shapes.Make(dtypes.Bool, 1, 4, 9)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graph.NewGraph(backend, "declines")
			_, ok := Attention(graph.Parameter(g, "q", tc.q), graph.Parameter(g, "k", tc.k),
				graph.Parameter(g, "v", tc.v), graph.Parameter(g, "mask", tc.mask))
			if ok {
				t.Error("Attention took shapes the kernel does not")
			}
		})
	}
}
