package posenc

import (
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// FuzzParseHFConfig: any bytes give a configuration that validates, or a
// *ParamError, never a panic.
func FuzzParseHFConfig(f *testing.F) {
	for _, name := range modelconfigs.Names() {
		data, err := modelconfigs.Config(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"model_type": "x", "num_hidden_layers": 1, "head_dim": 3, "max_position_embeddings": 1, "rope_theta": 1}`))
	f.Add([]byte(`{"text_config": 3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseHFConfig(data)
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		for i, l := range m.Layers {
			if l.RoPE != nil {
				if err := l.RoPE.Validate(); err != nil {
					t.Fatalf("layer %d: %v", i, err)
				}
			}
		}
	})
}

// FuzzDecoupledScore: any lengths, positions and scalings give a finite
// score or a *ParamError.
func FuzzDecoupledScore(f *testing.F) {
	f.Add(4, 4, 4, 4, 7, 3, 10000.0, 0.5)
	f.Add(0, 0, 2, 2, 0, 0, 2.0, 1e6)
	f.Add(3, 2, 4, 6, -1, 1<<41, 1.0, -3.0)
	f.Fuzz(func(t *testing.T, nq, nk, rq, rk, m, n int, base, v float64) {
		v = fuzzValue(v)
		mk := func(l int) []float64 {
			out := make([]float64, boundLen(l, 256))
			for i := range out {
				out[i] = v * float64(i%5-2)
			}
			return out
		}
		qR := mk(rq)
		s, err := DecoupledScore(mk(nq), mk(nk), qR, mk(rk), NewRoPE(len(qR)).WithBase(base), m, n)
		mustBeParamError(t, err)
		if err == nil && (math.IsNaN(s) || math.IsInf(s, 0)) {
			t.Fatalf("score %v", s)
		}
	})
}

// FuzzLongRoPE: any factor lists and lengths give frequencies in [0, ∞)
// with a finite attention factor, or a *ParamError.
func FuzzLongRoPE(f *testing.F) {
	f.Add(16, 8, 8, 32.0, 4096, 4097, 1.5)
	f.Add(16, 7, 8, 0.5, 1, -1, 0.0)
	f.Fuzz(func(t *testing.T, headDim, ns, nl int, factor float64, orig, seq int, v float64) {
		if headDim > 1<<12 {
			t.Skip()
		}
		mk := func(l int) []float64 {
			out := make([]float64, boundLen(l, 4096))
			for i := range out {
				out[i] = v + float64(i)
			}
			return out
		}
		r := NewRoPE(headDim).WithScaling(LongRoPEScaling(factor, orig, seq, mk(ns), mk(nl)))
		freq, err := r.InvFreq()
		mustBeParamError(t, err)
		if err != nil {
			return
		}
		for i, w := range freq {
			if !(w >= 0) || math.IsInf(w, 0) {
				t.Fatalf("ω[%d] = %v", i, w)
			}
		}
		if af := r.AttentionFactor(); !(af > 0) || math.IsInf(af, 0) {
			t.Fatalf("attention factor %v", af)
		}
	})
}
