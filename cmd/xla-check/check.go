package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers/attention/pos"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// agreementTolerance bounds |graph − host| relative to the largest |value|:
// float32 arithmetic on inputs and tables rounded to float32 (the sin and cos
// of large angles included) stays a few ulps from the float64 reference.
const agreementTolerance = 1e-5

// check runs every measurement and prints its line.
func check(o options, w io.Writer) error {
	// The backend notebooks and cmd/lab get (GOMLX_BACKEND, else XLA when
	// installed, else Go), or the error that says why it did not start.
	backend, err := posgraph.NewBackend()
	if err != nil {
		return err
	}
	config, reason := posgraph.ChooseBackend()
	fmt.Fprintf(w, "xla-check: GoMLX backend: %s (%s)\n", config, reason)
	fmt.Fprintf(w, "xla-check: device: %s; %s\n", backend.Description(), backend.DeviceDescription(0))

	if err := agreement(backend, w); err != nil {
		return err
	}
	if err := ropeTiming(backend, o, w); err != nil {
		return err
	}
	if o.steps > 0 {
		return trainingRate(backend, o.steps, w)
	}
	return nil
}

// randomInput returns n float32 values uniform in [-1, 1), from a fixed seed.
func randomInput(n int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, seed))
	x := make([]float32, n)
	for i := range x {
		x[i] = 2*rng.Float32() - 1
	}
	return x
}

// hostRoPE is posenc's float64 ApplyRoPETo on the float32 input x, a
// [..., seq, r.HeadDim] tensor at positions start, ….
func hostRoPE(x []float32, r posenc.RoPE, seq, start int) ([]float64, error) {
	c, err := posenc.NewRoPECache(r, start+seq)
	if err != nil {
		return nil, err
	}
	x64 := make([]float64, len(x))
	for i, v := range x {
		x64[i] = float64(v)
	}
	out := make([]float64, len(x))
	return out, posenc.ApplyRoPETo(out, x64, c, seq, start)
}

// maxDiff returns max |got − want| and max |want|.
func maxDiff(got []float32, want []float64) (diff, scale float64) {
	for i, w := range want {
		diff = math.Max(diff, math.Abs(float64(got[i])-w))
		scale = math.Max(scale, math.Abs(w))
	}
	return diff, scale
}

// agreement compares the graph RoPE functions with the host's float64 ones.
func agreement(backend compute.Backend, w io.Writer) error {
	const batch, heads, seq, hd, start = 2, 4, 512, 64, 1000
	x := randomInput(batch*heads*seq*hd, 1)
	xt := tensors.FromFlatDataAndDimensions(x, batch, heads, seq, hd)
	positions := make([]int32, seq)
	for i := range positions {
		positions[i] = int32(start + i)
	}
	cases := []struct {
		name  string
		r     posenc.RoPE
		graph func(x *graph.Node) *graph.Node
	}{
		{"ApplyRoPE, interleaved", posenc.NewRoPE(hd), nil},
		{"ApplyRoPE, halves", posenc.NewRoPE(hd).WithLayout(posenc.Halves), nil},
		{"ApplyRoPEAt, interleaved", posenc.NewRoPE(hd), func(x *graph.Node) *graph.Node {
			p := graph.Const(x.Graph(), positions)
			return posgraph.ApplyRoPEAt(x, p, posenc.NewRoPE(hd), start+seq)
		}},
	}
	var worst float64
	for _, c := range cases {
		fn := c.graph
		if fn == nil {
			r := c.r
			fn = func(x *graph.Node) *graph.Node { return posgraph.ApplyRoPE(x, r, start) }
		}
		want, err := hostRoPE(x, c.r, seq, start)
		if err != nil {
			return err
		}
		out, err := graph.ExecOnce(backend, fn, xt)
		if err != nil {
			return fmt.Errorf("%s: %v", c.name, err)
		}
		got := tensors.MustCopyFlatData[float32](out)
		diff, scale := maxDiff(got, want)
		fmt.Fprintf(w, "xla-check: agreement: %s [%d,%d,%d,%d] at positions %d…%d: max |graph − host float64| = %.2g (values up to %.2g; float32 ulp there %.2g)\n",
			c.name, batch, heads, seq, hd, start, start+seq-1, diff, scale, ulp32(scale))
		worst = math.Max(worst, diff/scale)
		if diff > agreementTolerance*scale {
			return fmt.Errorf("agreement: %s differs from the host by %.3g (relative %.3g > %g)", c.name, diff, diff/scale, agreementTolerance)
		}
	}
	fmt.Fprintf(w, "xla-check: agreement: all within %.2g of the largest value (tolerance %g)\n", worst, agreementTolerance)
	return nil
}

// ulp32 is the spacing of float32 values near v.
func ulp32(v float64) float64 {
	f := float32(v)
	return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
}

// ropeTiming times posgraph.ApplyRoPE and pos.RoPE alternately.
func ropeTiming(backend compute.Backend, o options, w io.Writer) error {
	b, h, s, d := o.shape[0], o.shape[1], o.shape[2], o.shape[3]
	xt := tensors.FromFlatDataAndDimensions(randomInput(b*h*s*d, 2), b, h, s, d)
	gomlx := func(interleaved bool) func(x *graph.Node) *graph.Node {
		r := pos.NewRoPE(10000).WithInterleaved(interleaved)
		return func(x *graph.Node) *graph.Node {
			positions := graph.Iota(x.Graph(), shapes.Make(dtypes.Int32, s), 0)
			q, _ := r.EncodeQK(x, x, positions, 2)
			return q
		}
	}
	ours := func(r posenc.RoPE) func(x *graph.Node) *graph.Node {
		return func(x *graph.Node) *graph.Node { return posgraph.ApplyRoPE(x, r, 0) }
	}
	for _, layout := range []struct {
		name        string
		r           posenc.RoPE
		interleaved bool
	}{
		{"interleaved", posenc.NewRoPE(d), true},
		{"halves", posenc.NewRoPE(d).WithLayout(posenc.Halves), false},
	} {
		execs := []*graph.Exec{
			graph.MustNewExec(backend, ours(layout.r)),
			graph.MustNewExec(backend, gomlx(layout.interleaved)),
		}
		best := []time.Duration{math.MaxInt64, math.MaxInt64}
		for i, e := range execs {
			if _, err := e.Exec(xt); err != nil { // compile outside the timing
				return fmt.Errorf("rope (%s, %d): %v", layout.name, i, err)
			}
		}
		for round := range o.rounds {
			for k := range execs {
				i := (k + round) % 2 // alternate which goes first
				t, err := timeCall(execs[i], xt)
				if err != nil {
					return err
				}
				best[i] = min(best[i], t)
			}
		}
		gb := float64(8*b*h*s*d) / 1e9 // read + write, float32
		fmt.Fprintf(w, "xla-check: rope %s [%d,%d,%d,%d]: posgraph.ApplyRoPE %.3f ms (%.1f GB/s), pos.RoPE %.3f ms (%.1f GB/s): posgraph/pos = %.2f (min of %d rounds)\n",
			layout.name, b, h, s, d, ms(best[0]), gb/best[0].Seconds(), ms(best[1]), gb/best[1].Seconds(),
			best[0].Seconds()/best[1].Seconds(), o.rounds)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// timeCall runs e on x repeatedly for at least 200 ms and returns the mean
// time per call, results copied back to the host (as a program would).
func timeCall(e *graph.Exec, x *tensors.Tensor) (time.Duration, error) {
	var n int
	start := time.Now()
	for n == 0 || time.Since(start) < 200*time.Millisecond {
		out, err := e.Exec(x)
		if err != nil {
			return 0, err
		}
		out[0].MustConstFlatData(func(any) {})
		for _, t := range out {
			t.FinalizeAll()
		}
		n++
	}
	return time.Since(start) / time.Duration(n), nil
}
