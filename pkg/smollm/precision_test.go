package smollm

import (
	"fmt"
	"math"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// TestRoundedRotationMatchesHost compares the graph's rounded rotation with
// its host reference, posenc.RotateRoundedTo (whose bfloat16 rounding is
// checked against PyTorch's in pkg/posenc), in both layouts, for each way a
// model can round, at positions where bfloat16 ids and angles lose bits;
// and, with nothing rounded, with the model's own rotation
// (posgraph.RoPEEncoder).
func TestRoundedRotationMatchesHost(t *testing.T) {
	const b, n, c, e = 1, 2, 8, 64
	pos := []int32{0, 1, 255, 257, 2049, 4097, 8000, 16001}
	x := make([]float32, b*n*c*e)
	for i := range x {
		x[i] = float32(math.Sin(float64(i)*0.37) + 0.1*float64(i%5))
	}
	bf := posenc.BFloat16
	cases := []struct {
		name string
		p    posenc.RoPEPrecision
	}{
		{"exact", posenc.RoPEPrecision{}},
		{"ids in bfloat16", posenc.RoPEPrecision{Position: bf}},
		{"autocast: every step in bfloat16", posenc.RoPEPrecision{InvFreq: bf, Position: bf, Angle: bf, CosSin: bf}},
		{"cos and sin in bfloat16", posenc.RoPEPrecision{CosSin: bf}},
		{"angles in bfloat16", posenc.RoPEPrecision{Angle: bf}},
		// Not float16: the pure-Go backend's float16 conversion differs
		// from IEEE rounding for the tiny angles of the slow pairs (by
		// 6e-5, the size of float16's subnormals), and no experiment
		// rounds to float16.
	}
	for _, r := range []posenc.RoPE{
		{HeadDim: e, Base: 100000, Layout: posenc.Interleaved},
		{HeadDim: e, Base: 100000, Layout: posenc.Halves},
		{HeadDim: e, Base: 10000, Layout: posenc.Halves, RotaryDim: e / 2}, // the last half passes through
	} {
		layout := fmt.Sprintf("%s, %d of %d rotated", r.Layout, r.Rot(), e)
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/%s", layout, tc.name), func(t *testing.T) {
				got := graph.MustExecOnce(posgraph.Backend(), func(xs, ps *graph.Node) *graph.Node {
					return roundedRotation(xs, ps, r, tc.p)
				}, tensors.FromFlatDataAndDimensions(x, b, n, c, e), tensors.FromFlatDataAndDimensions(pos, b, c)).Value().([][][][]float32)
				worst, moved := 0.0, 0.0
				for h := range n {
					for i, p := range pos {
						in := make([]float64, e)
						for j := range in {
							in[j] = float64(x[(h*c+i)*e+j])
						}
						want := make([]float64, e)
						if err := posenc.RotateRoundedTo(want, in, r, int(p), tc.p); err != nil {
							t.Fatal(err)
						}
						for j := range want {
							worst = max(worst, math.Abs(float64(got[0][h][i][j])-want[j]))
							moved = max(moved, math.Abs(want[j]-in[j]))
						}
					}
				}
				if worst > 1e-5 {
					t.Errorf("max |graph − host| %.3g, want ≤ 1e-5 (float32 rounding of the result)", worst)
				}
				if moved < 0.1 {
					t.Errorf("the rotation moved the vectors by at most %.3g: the test cannot see a wrong rotation", moved)
				}
			})
		}
		t.Run(fmt.Sprintf("%s/exact equals posgraph", layout), func(t *testing.T) {
			both := graph.MustExecOnceN(posgraph.Backend(), func(xs, ps *graph.Node) []*graph.Node {
				return []*graph.Node{roundedRotation(xs, ps, r, posenc.RoPEPrecision{}), posgraph.NewRoPEEncoder(r).Encode(xs, ps, -2)}
			}, tensors.FromFlatDataAndDimensions(x, b, n, c, e), tensors.FromFlatDataAndDimensions(pos, b, c))
			a, p := both[0].Value().([][][][]float32), both[1].Value().([][][][]float32)
			worst := 0.0
			for h := range n {
				for i := range c {
					for j := range e {
						worst = max(worst, math.Abs(float64(a[0][h][i][j]-p[0][h][i][j])))
					}
				}
			}
			if worst > 1e-5 {
				t.Errorf("exact rounded rotation and posgraph's differ by %.3g, want ≤ 1e-5", worst)
			}
		})
	}
}

// TestSetRoPEPrecisionErrors: a bad format, and a model that already ran.
func TestSetRoPEPrecisionErrors(t *testing.T) {
	m := &Model{RoPE: posenc.RoPE{HeadDim: 64, Base: 100000}}
	if err := m.SetRoPEPrecision(posenc.RoPEPrecision{Angle: posenc.Format(9)}); err == nil {
		t.Error("format 9 accepted")
	}
	if err := m.SetRoPEPrecision(posenc.RoPEPrecision{Angle: posenc.BFloat16}); err != nil {
		t.Errorf("bfloat16 angles: %v", err)
	}
	m.ran = true
	if err := m.SetRoPEPrecision(posenc.RoPEPrecision{}); err == nil {
		t.Error("a model that ran accepted a new precision")
	}
}
