package posenc

import (
	"math"
	"testing"
)

// TestDecoupledScore checks DecoupledScore against the score written out
// (DeepSeek-V2 paper, equations 14–19: q_t,i = [q^C; q^R], k_j,i = [k^C;
// k^R], score = q_t,iᵀ k_j,i), its dependence on m − n only, and errors.
func TestDecoupledScore(t *testing.T) {
	qN, kN := []float64{0.3, -1, 2, 0.5}, []float64{1, 0.25, -0.5, 2}
	qR, kR := []float64{1, 2, -1, 0.5}, []float64{0.5, -1, 1, 1}
	r := NewRoPE(4).WithScaling(Scaling{Kind: ScalingYaRN, Factor: 40, OriginalLen: 64, MScale: 1})
	got, err := DecoupledScore(qN, kN, qR, kR, r, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	rq, rk := make([]float64, 4), make([]float64, 4)
	_ = RotateTo(rq, qR, r, 7)
	_ = RotateTo(rk, kR, r, 3)
	want := 0.0
	for i := range 4 {
		want += qN[i]*kN[i] + rq[i]*rk[i]
	}
	if math.Abs(got-want) > 1e-14 {
		t.Errorf("DecoupledScore = %v; want %v", got, want)
	}
	shifted, _ := DecoupledScore(qN, kN, qR, kR, r, 1007, 1003)
	if math.Abs(shifted-got) > 1e-12 {
		t.Errorf("score at (1007, 1003) = %v; want the score at (7, 3), %v", shifted, got)
	}
	_, err = DecoupledScore(qN, kN[:3], qR, kR, r, 0, 0)
	wantParamError(t, err, "len(k_nope)", "3")
	_, err = DecoupledScore(qN, kN, qR, kR[:2], r, 0, 0)
	wantParamError(t, err, "len(x)", "2")
	_, err = DecoupledScore(qN, kN, qR, kR, r, -1, 0)
	wantParamError(t, err, "pos", "-1")
}

func TestLongestWavelength(t *testing.T) {
	for _, c := range []struct {
		r    RoPE
		want float64
	}{
		{NewRoPE(128), 2 * math.Pi * math.Pow(1e4, 126.0/128)},
		{NewRoPE(128).WithScaling(LinearScaling(4)), 4 * 2 * math.Pi * math.Pow(1e4, 126.0/128)},
		// p-RoPE: the slowest rotating pair is pair 15 of 64, not pair 63.
		{NewRoPE(128).WithScaling(ProportionalScaling(0.25)), 2 * math.Pi * math.Pow(1e4, 30.0/128)},
		{NewRoPE(128).WithScaling(ProportionalScaling(0)), math.Inf(1)},
	} {
		got, err := c.r.LongestWavelength()
		if err != nil || !(got == c.want || relClose(got, c.want, 1e-13)) {
			t.Errorf("%+v: LongestWavelength() = %v, %v; want %v", c.r, got, err, c.want)
		}
	}
	_, err := NewRoPE(7).LongestWavelength()
	wantParamError(t, err, "head_dim", "7")
}
