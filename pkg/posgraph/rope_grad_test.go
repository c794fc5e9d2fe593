package posgraph

import (
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/posenc/course/pkg/posenc"
)

// Models train through RoPE, so its gradient must be right: for
// L = Σ w ⊙ R(m)x, ∂L/∂x_j = Σ_i w_i R(m)_ij = ⟨w, R(m)e_j⟩, where R(m)e_j,
// column j of the rotation, comes from posenc.RotateTo on a unit vector.

// hostRoPEGrad returns ∂/∂x of Σ w ⊙ rotate(x) for rows of w, laid out
// [lead, seq, hd], at positions start…start+seq−1.
func hostRoPEGrad(t *testing.T, w []float64, r posenc.RoPE, seq, start int) []float64 {
	t.Helper()
	hd := r.HeadDim
	grad := make([]float64, len(w))
	e, col := make([]float64, hd), make([]float64, hd)
	for row := 0; row < len(w)/hd; row++ {
		pos := start + row%seq
		for j := range hd {
			clear(e)
			e[j] = 1
			if err := posenc.RotateTo(col, e, r, pos); err != nil {
				t.Fatal(err)
			}
			grad[row*hd+j] = dot(w[row*hd:(row+1)*hd], col)
		}
	}
	return grad
}

func TestRoPEGradient(t *testing.T) {
	rng := newRand(41)
	const lead, seq, start = 3, 4, 7
	for _, r := range encoderRoPEs {
		n := lead * seq * r.HeadDim
		x, w := randSlice[float32](rng, n), randSlice[float32](rng, n)
		w64 := make([]float64, n)
		for i, v := range w {
			w64[i] = float64(v)
		}
		want := hostRoPEGrad(t, w64, r, seq, start)
		positions := make([]int32, seq)
		for i := range positions {
			positions[i] = int32(start + i)
		}
		grads := graph.MustExecOnceN(Backend(), func(x, w, p *graph.Node) []*graph.Node {
			loss := func(y *graph.Node) *graph.Node { return graph.ReduceAllSum(graph.Mul(w, y)) }
			return []*graph.Node{
				graph.Gradient(loss(ApplyRoPE(x, r, start)), x)[0],
				graph.Gradient(loss(ApplyRoPEAt(x, p, r, 64)), x)[0],
				graph.Gradient(loss(NewRoPEEncoder(r).Encode(x, p, -2)), x)[0],
			}
		}, tensors.FromFlatDataAndDimensions(x, lead, seq, r.HeadDim),
			tensors.FromFlatDataAndDimensions(w, lead, seq, r.HeadDim), positions)
		for i, name := range []string{"ApplyRoPE", "ApplyRoPEAt", "RoPEEncoder"} {
			assertGraphClose(t, ropeName(r)+" "+name+" gradient", flat32(t, grads[i]), want)
		}
	}
}
