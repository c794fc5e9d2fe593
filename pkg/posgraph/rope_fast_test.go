package posgraph

import (
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// TestGraphApplyRoPEManyLeadingRows covers broadcastLeading's levels: more
// leading rows (batch × heads) than one Concatenate takes, with and without
// a remainder, in both layouts.
func TestGraphApplyRoPEManyLeadingRows(t *testing.T) {
	rng := newRand(81)
	const seq, hd = 3, 4
	// On the pure-Go backend the tables are copied to x's full shape.
	g := graph.NewGraph(Backend(), "broadcastTable")
	x := graph.Zeros(g, shapes.Make(dtypes.Float32, 2, 5, seq, hd))
	if dims := broadcastTable(graph.Zeros(g, shapes.Make(dtypes.Float32, seq, hd)), x).Shape().Dimensions; Backend().String() == "go" && dims[0] != 2 {
		t.Errorf("broadcastTable on the Go backend: shape %v; want [2 5 %d %d]", dims, seq, hd)
	}
	g.Finalize()
	for _, lead := range []int{1, 2, maxConcatInputs, maxConcatInputs + 44, 2*maxConcatInputs + 88} {
		for _, l := range []posenc.Layout{posenc.Interleaved, posenc.Halves} {
			r := posenc.NewRoPE(hd).WithLayout(l)
			if !canSwapFast(r, dtypes.Float32) {
				t.Fatalf("%s: canSwapFast = false; want the fast path under test", ropeName(r))
			}
			x := randSlice[float32](rng, lead*seq*hd)
			out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
				return ApplyRoPE(x, r, 5)
			}, tensors.FromFlatDataAndDimensions(x, lead, seq, hd))
			checkDims(t, out, lead, seq, hd)
			cache, _ := posenc.NewRoPECache(r, 5+seq)
			want := make([]float32, len(x))
			if err := posenc.ApplyRoPETo(want, x, cache, seq, 5); err != nil {
				t.Fatal(err)
			}
			assertGraphClose(t, ropeName(r)+" lead "+itoa(lead), flat32(t, out), want)
		}
	}
}

// TestGraphApplyRoPEHalfPrecision runs the fast swap on 16-bit floats (pairs
// reinterpreted as uint32), against the float32 host layer.
func TestGraphApplyRoPEHalfPrecision(t *testing.T) {
	rng := newRand(82)
	for _, dtype := range []dtypes.DType{dtypes.Float16, dtypes.BFloat16} {
		for _, l := range []posenc.Layout{posenc.Interleaved, posenc.Halves} {
			r := posenc.NewRoPE(8).WithLayout(l)
			const lead, seq = 3, 5
			x := randSlice[float32](rng, lead*seq*8)
			out := graph.MustExecOnce(Backend(), func(x *graph.Node) *graph.Node {
				return graph.ConvertDType(ApplyRoPE(graph.ConvertDType(x, dtype), r, 2), dtypes.Float32)
			}, tensors.FromFlatDataAndDimensions(x, lead, seq, 8))
			cache, _ := posenc.NewRoPECache(r, 2+seq)
			want := make([]float32, len(x))
			if err := posenc.ApplyRoPETo(want, x, cache, seq, 2); err != nil {
				t.Fatal(err)
			}
			// bfloat16 keeps 8 significant bits: three roundings of values
			// below 1.5 stay within 3·2^−8·1.5 ≈ 0.018.
			for i, g := range flat32(t, out) {
				if d := math.Abs(float64(g - want[i])); d > 0.02 {
					t.Fatalf("%s %s [%d] = %v; want %v (host, float32)", dtype, ropeName(r), i, g, want[i])
				}
			}
		}
	}
}
