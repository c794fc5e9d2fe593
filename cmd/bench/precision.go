package main

import (
	"math"

	"github.com/posenc/course/pkg/posenc"
)

// posencPrecision is the largest error of posenc's float32 sinusoidal table
// (d = 1024) against a float64 reference, over windows of positions up to
// 1,000,000 (the test suite proves the bound over more windows and sizes).
type posencPrecision struct {
	MaxAbsError float64  `json:"max_abs_error"`
	Windows     [][2]int `json:"windows"` // [start, end) position ranges checked
	Bound       float64  `json:"bound"`
}

func measurePosencPrecision() (posencPrecision, error) {
	const d = 1024
	p := posencPrecision{Windows: [][2]int{{0, 256}, {524_200, 524_456}, {999_745, 1_000_001}}, Bound: 6e-8}
	s := posenc.NewSinusoidal(d)
	freq, err := s.Frequencies()
	if err != nil {
		return p, err
	}
	for _, w := range p.Windows {
		n := w[1] - w[0]
		table, err := posenc.SinusoidalTable[float32](s, w[0], n)
		if err != nil {
			return p, err
		}
		for r := range n {
			pos := float64(w[0] + r)
			for i, f := range freq {
				sn, cs := referenceSincos(pos, f)
				p.MaxAbsError = math.Max(p.MaxAbsError, math.Abs(float64(table[r*d+2*i])-sn))
				p.MaxAbsError = math.Max(p.MaxAbsError, math.Abs(float64(table[r*d+2*i+1])-cs))
			}
		}
	}
	return p, nil
}

// referenceSincos is sin and cos of the exact product p·w in float64: the
// rounding error lo of fl(p·w) is recovered with an FMA and applied to first
// order (|lo| < 1e-10 below position 2^20, so the neglected terms are below
// 1e-20).
func referenceSincos(p, w float64) (sin, cos float64) {
	hi := p * w
	lo := math.FMA(p, w, -hi)
	s, c := math.Sincos(hi)
	return s + lo*c, c - lo*s
}
