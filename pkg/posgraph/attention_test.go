package posgraph

import (
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// hostAttention is scaled dot-product attention (Vaswani et al. 2017,
// equation 1) in float64 over batch leading slices: q [batch, sq, d],
// k [batch, sk, d], v [batch, sk, dv], and bias [bb, sq, sk] added to batch
// b as bias[b % bb] (nil for none). It returns the weights [batch, sq, sk]
// and the output [batch, sq, dv].
func hostAttention(q, k, v, bias []float64, batch, sq, sk, d, dv, bb int) (weights, out []float64) {
	weights = make([]float64, batch*sq*sk)
	out = make([]float64, batch*sq*dv)
	for b := range batch {
		for i := range sq {
			row := weights[(b*sq+i)*sk : (b*sq+i+1)*sk]
			mx := math.Inf(-1)
			for j := range sk {
				row[j] = dot(q[(b*sq+i)*d:(b*sq+i+1)*d], k[(b*sk+j)*d:(b*sk+j+1)*d]) / math.Sqrt(float64(d))
				if bias != nil {
					row[j] += bias[((b%bb)*sq+i)*sk+j]
				}
				mx = math.Max(mx, row[j])
			}
			sum := 0.0
			for j := range row {
				row[j] = math.Exp(row[j] - mx)
				sum += row[j]
			}
			for j := range row {
				row[j] /= sum
				for c := range dv {
					out[(b*sq+i)*dv+c] += row[j] * v[(b*sk+j)*dv+c]
				}
			}
		}
	}
	return weights, out
}

// skipMatMulUnderRace skips graphs with a MatMul under -race: the pure-Go
// backend's matmul (gomlx/compute v0.1.2, dot/matmul.smallNoSIMDGeneric)
// trips checkptr's pointer-arithmetic check, a fatal error.
func skipMatMulUnderRace(t *testing.T) {
	if raceDetector {
		t.Skip("gomlx/compute v0.1.2's pure-Go matmul fails checkptr under -race")
	}
}

func to32(s []float64) []float32 {
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = float32(v)
	}
	return out
}

func TestAttentionMatchesHost(t *testing.T) {
	skipMatMulUnderRace(t)
	rng := newRand(20)
	const batch, sq, sk, d, dv = 2, 3, 5, 4, 6
	q, k, v := randSlice[float64](rng, batch*sq*d), randSlice[float64](rng, batch*sk*d), randSlice[float64](rng, batch*sk*dv)
	wantW, wantOut := hostAttention(q, k, v, nil, batch, sq, sk, d, dv, 1)
	qt := tensors.FromFlatDataAndDimensions(to32(q), batch, sq, d)
	kt := tensors.FromFlatDataAndDimensions(to32(k), batch, sk, d)
	vt := tensors.FromFlatDataAndDimensions(to32(v), batch, sk, dv)
	gotOut := graph.MustExecOnce(Backend(), func(q, k, v *graph.Node) *graph.Node {
		return Attention(q, k, v, nil)
	}, qt, kt, vt)
	checkDims(t, gotOut, batch, sq, dv)
	assertClose(t, "Attention", flat32(t, gotOut), wantOut, 1e-5)
	gotW := graph.MustExecOnce(Backend(), func(q, k *graph.Node) *graph.Node {
		return AttentionWeights(q, k, nil)
	}, qt, kt)
	assertClose(t, "AttentionWeights", flat32(t, gotW), wantW, 1e-5)
}

func TestAttentionWithALiBiBias(t *testing.T) {
	skipMatMulUnderRace(t)
	rng := newRand(21)
	const batch, heads, n, d, dv = 2, 3, 5, 4, 2
	for _, causal := range []bool{false, true} {
		q, k, v := randSlice[float64](rng, batch*heads*n*d), randSlice[float64](rng, batch*heads*n*d), randSlice[float64](rng, batch*heads*n*dv)
		bias := make([]float64, heads*n*n)
		slopes, _ := posenc.ALiBiSlopes(heads)
		if err := posenc.ALiBiBiasTo(bias, slopes, n, n, causal); err != nil {
			t.Fatal(err)
		}
		// [batch, heads] flattened into one leading axis of batch·heads; the
		// bias repeats every `heads` slices.
		wantW, wantOut := hostAttention(q, k, v, bias, batch*heads, n, n, d, dv, heads)
		got := graph.MustExecOnce(Backend(), func(q, k, v *graph.Node) *graph.Node {
			b := ALiBiConst(q.Graph(), q.DType(), heads, n, n, causal)
			return Attention(q, k, v, b)
		},
			tensors.FromFlatDataAndDimensions(to32(q), batch, heads, n, d),
			tensors.FromFlatDataAndDimensions(to32(k), batch, heads, n, d),
			tensors.FromFlatDataAndDimensions(to32(v), batch, heads, n, dv))
		assertClose(t, "Attention + ALiBi", flat32(t, got), wantOut, 1e-5)
		if causal {
			// The first query sees only the first key.
			for b := range batch * heads {
				if w := wantW[b*n*n : b*n*n+n]; w[0] != 1 {
					t.Fatalf("causal weights of query 0 = %v; want [1 0 …]", w)
				}
			}
		}
	}
}

func TestSelfAttentionMatchesHost(t *testing.T) {
	skipMatMulUnderRace(t)
	rng := newRand(22)
	const batch, seq, dm, d, dv = 2, 5, 6, 4, 3
	x := randSlice[float64](rng, batch*seq*dm)
	wq, wk, wv := randSlice[float64](rng, dm*d), randSlice[float64](rng, dm*d), randSlice[float64](rng, dm*dv)
	project := func(w []float64, cols int) []float64 { // x·W, [batch·seq, cols]
		out := make([]float64, batch*seq*cols)
		for r := range batch * seq {
			for c := range cols {
				for i := range dm {
					out[r*cols+c] += x[r*dm+i] * w[i*cols+c]
				}
			}
		}
		return out
	}
	_, want := hostAttention(project(wq, d), project(wk, d), project(wv, dv), nil, batch, seq, seq, d, dv, 1)
	got := graph.MustExecOnce(Backend(), SelfAttention,
		tensors.FromFlatDataAndDimensions(to32(x), batch, seq, dm),
		tensors.FromFlatDataAndDimensions(to32(wq), dm, d),
		tensors.FromFlatDataAndDimensions(to32(wk), dm, d),
		tensors.FromFlatDataAndDimensions(to32(wv), dm, dv))
	checkDims(t, got, batch, seq, dv)
	assertClose(t, "SelfAttention", flat32(t, got), want, 1e-5)
}

// TestAttentionIgnoresOrder is lesson 1: without positions, permuting the
// keys (and values) permutes each row of the weights and leaves the output
// unchanged.
func TestAttentionIgnoresOrder(t *testing.T) {
	skipMatMulUnderRace(t)
	rng := newRand(23)
	const n, d = 4, 3
	q, k, v := randSlice[float32](rng, n*d), randSlice[float32](rng, n*d), randSlice[float32](rng, n*d)
	perm := []int{2, 0, 3, 1}
	kp, vp := make([]float32, n*d), make([]float32, n*d)
	for j, p := range perm {
		copy(kp[j*d:(j+1)*d], k[p*d:(p+1)*d])
		copy(vp[j*d:(j+1)*d], v[p*d:(p+1)*d])
	}
	run := func(k, v []float32) []float32 {
		return flat32(t, graph.MustExecOnce(Backend(), func(q, k, v *graph.Node) *graph.Node {
			return Attention(q, k, v, nil)
		}, tensors.FromFlatDataAndDimensions(q, n, d), tensors.FromFlatDataAndDimensions(k, n, d), tensors.FromFlatDataAndDimensions(v, n, d)))
	}
	assertClose(t, "attention over permuted keys", run(kp, vp), run(k, v), 1e-6)
}
