package posgraph

import (
	"errors"
	"math"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/posenc/course/pkg/posenc"
)

// EncodeWith, fed the vectors of NewRoPEVectors, must give Encode's bits
// for every layout, partial rotary, scaling and dtype, while its encoder's
// own RoPE has no scaling: the vectors alone carry it.
func TestEncodeWithMatchesEncode(t *testing.T) {
	rng := newRand(31)
	const heads, seq = 2, 5
	ropes := append([]posenc.RoPE(nil), encoderRoPEs...)
	dyn := posenc.NewRoPE(8).WithScaling(posenc.DynamicNTKScaling(2, 16, 40))
	ropes = append(ropes, dyn)
	positions := []int32{0, 3, 17, 39, 100_000}
	tol := encodeWithTolerance()
	for _, r := range ropes {
		plain := r
		plain.Scaling = posenc.Scaling{}
		for _, dtype := range []dtypes.DType{dtypes.Float32, dtypes.Float64} {
			v, err := NewRoPEVectors(r, dtype)
			if err != nil {
				t.Fatalf("%s: %v", ropeName(r), err)
			}
			x := randSlice[float64](rng, heads*seq*r.HeadDim)
			var xt *tensors.Tensor
			if dtype == dtypes.Float32 {
				x32 := make([]float32, len(x))
				for i, f := range x {
					x32[i] = float32(f)
				}
				xt = tensors.FromFlatDataAndDimensions(x32, heads, seq, r.HeadDim)
			} else {
				xt = tensors.FromFlatDataAndDimensions(x, heads, seq, r.HeadDim)
			}
			vec := func(s []float64) *tensors.Tensor { return tensors.FromFlatDataAndDimensions(s, len(s)) }
			outs := graph.MustExecOnceN(Backend(), func(x, p, freq, amp, sign *graph.Node) (*graph.Node, *graph.Node) {
				return NewRoPEEncoder(r).Encode(x, p, -2), NewRoPEEncoder(plain).EncodeWith(x, p, -2, freq, amp, sign)
			}, xt, positions, vec(v.Freq), vec(v.Amp), vec(v.Sign))
			if d := scaledDiff(t, outs[0], outs[1]); d > tol {
				t.Errorf("%s %s scaling %s: EncodeWith differs from Encode by %.3g of the largest value, want at most %.3g on %s", ropeName(r), dtype, r.Scaling.Kind, d, tol, Backend().Name())
			}
		}
	}
}

// encodeWithTolerance is how far EncodeWith may be from Encode, in units
// of dtype's machine epsilon times the largest value: not a bit on the
// pure-Go backend, which runs each op as written; a few roundings on XLA,
// which fuses a multiplication by a constant table differently from one by
// a table computed from inputs (measured: 1 ulp of the largest value).
func encodeWithTolerance() float64 {
	if Backend().Name() == gobackend.BackendName {
		return 0
	}
	return 4
}

// scaledDiff returns max|a−b| / (ε·max|a|) for two float tensors of the
// same shape and dtype, with ε the dtype's machine epsilon.
func scaledDiff(t *testing.T, a, b *tensors.Tensor) float64 {
	t.Helper()
	var x, y []float64
	var eps float64
	switch a.DType() {
	case dtypes.Float32:
		for _, v := range tensors.MustCopyFlatData[float32](a) {
			x = append(x, float64(v))
		}
		for _, v := range tensors.MustCopyFlatData[float32](b) {
			y = append(y, float64(v))
		}
		eps = 0x1p-23
	case dtypes.Float64:
		x, y, eps = tensors.MustCopyFlatData[float64](a), tensors.MustCopyFlatData[float64](b), 0x1p-52
	default:
		t.Fatalf("dtype %s", a.DType())
	}
	var diff, top float64
	for i := range x {
		diff, top = max(diff, math.Abs(x[i]-y[i])), max(top, math.Abs(x[i]))
	}
	if diff == 0 {
		return 0
	}
	return diff / (eps * top)
}

// A vector of the wrong shape or dtype is a ParamError naming it, and
// dynamic NTK scaling with no length has no vectors.
func TestEncodeWithBadVectors(t *testing.T) {
	r := posenc.NewRoPE(8)
	v, err := NewRoPEVectors(r, dtypes.Float32)
	if err != nil {
		t.Fatal(err)
	}
	short := v.Freq[:7]
	wantGraphPanic(t, "RoPE vector freq", shapes.Make(dtypes.Float64, 7).String(), func() {
		graph.MustExecOnceN(Backend(), func(x, p, freq, amp, sign *graph.Node) *graph.Node {
			return NewRoPEEncoder(r).EncodeWith(x, p, -2, freq, amp, sign)
		}, tensors.FromFlatDataAndDimensions(make([]float32, 2*8), 2, 8), []int32{0, 1},
			tensors.FromFlatDataAndDimensions(short, 7), v.Amp, v.Sign)
	})
	dyn := posenc.NewRoPE(8).WithScaling(posenc.DynamicNTKScaling(2, 16, 0))
	_, err = NewRoPEVectors(dyn, dtypes.Float32)
	var pe *posenc.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("dynamic NTK with no seq_len: err %v, want a *posenc.ParamError", err)
	}
	checkParamMessage(t, pe.Error(), "scaling.seq_len", "0")
}

// A RoPERotation built once and applied to tensors of different head
// counts must give what Encode (Rotation) and EncodeWith (RotationWith)
// give each of them.
func TestRotationMatchesEncode(t *testing.T) {
	rng := newRand(37)
	const seq = 5
	ropes := append([]posenc.RoPE(nil), encoderRoPEs...)
	ropes = append(ropes, posenc.NewRoPE(8).WithScaling(posenc.DynamicNTKScaling(2, 16, 40)))
	positions := []int32{0, 3, 17, 39, 100_000}
	tol := encodeWithTolerance()
	for _, r := range ropes {
		plain := r
		plain.Scaling = posenc.Scaling{}
		v, err := NewRoPEVectors(r, dtypes.Float32)
		if err != nil {
			t.Fatalf("%s: %v", ropeName(r), err)
		}
		tensor := func(heads int) *tensors.Tensor {
			x := make([]float32, heads*seq*r.HeadDim)
			for i := range x {
				x[i] = float32(rng.NormFloat64())
			}
			return tensors.FromFlatDataAndDimensions(x, heads, seq, r.HeadDim)
		}
		vec := func(s []float64) *tensors.Tensor { return tensors.FromFlatDataAndDimensions(s, len(s)) }
		outs := graph.MustExecOnceN(Backend(), func(in []*graph.Node) []*graph.Node {
			x, y, p, freq, amp, sign := in[0], in[1], in[2], in[3], in[4], in[5]
			rot := NewRoPEEncoder(r).Rotation(x, p, -2)
			with := NewRoPEEncoder(plain).RotationWith(x, p, -2, freq, amp, sign)
			enc := NewRoPEEncoder(r)
			return []*graph.Node{
				enc.Encode(x, p, -2), rot.Apply(x), with.Apply(x),
				enc.Encode(y, p, -2), rot.Apply(y), with.Apply(y),
			}
		}, tensor(2), tensor(3), positions, vec(v.Freq), vec(v.Amp), vec(v.Sign))
		for i, name := range []string{"2 heads", "3 heads"} {
			want := outs[3*i]
			for j, how := range []string{"Rotation", "RotationWith"} {
				if d := scaledDiff(t, want, outs[3*i+1+j]); d > tol {
					t.Errorf("%s scaling %s, %s: %s differs from Encode by %.3g of the largest value, want at most %.3g on %s",
						ropeName(r), r.Scaling.Kind, name, how, d, tol, Backend().Name())
				}
			}
		}
	}
}

// Applying a rotation to a tensor of another sequence length or dtype is a
// ParamError naming x.
func TestRotationBadInput(t *testing.T) {
	r := posenc.NewRoPE(8)
	for _, tc := range []struct {
		name  string
		other *tensors.Tensor
	}{
		{"another length", tensors.FromFlatDataAndDimensions(make([]float32, 3*8), 1, 3, 8)},
		{"another dtype", tensors.FromFlatDataAndDimensions(make([]float64, 2*8), 1, 2, 8)},
		{"another rank", tensors.FromFlatDataAndDimensions(make([]float32, 2*8), 2, 8)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantGraphPanic(t, "x", tc.other.Shape().String(), func() {
				graph.MustExecOnceN(Backend(), func(x, p, other *graph.Node) *graph.Node {
					return NewRoPEEncoder(r).Rotation(x, p, -2).Apply(other)
				}, tensors.FromFlatDataAndDimensions(make([]float32, 2*8), 1, 2, 8), []int32{0, 1}, tc.other)
			})
		})
	}
}
