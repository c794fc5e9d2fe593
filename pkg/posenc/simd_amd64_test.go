//go:build amd64 && !purego

package posenc

import (
	"math"
	"testing"
)

// The AVX2 kernels promise the Go loops' results bit for bit (same float64
// operations in the same order, one rounding to float32). These tests run
// every float32 hot path twice, with useSIMD on and off, on shapes that
// exercise the vector body, the scalar tails (pair counts not a multiple of
// 4), partial rotary dimensions, explicit positions and in-place calls, and
// compare the bits. `go test -tags purego` runs the rest of the suite on the
// Go loops alone.

// withSIMD runs f with useSIMD set to on, then restores it.
func withSIMD(on bool, f func()) {
	saved := useSIMD
	useSIMD = on
	defer func() { useSIMD = saved }()
	f()
}

func requireSIMD(t *testing.T) {
	t.Helper()
	if !useSIMD {
		t.Skip("this CPU has no AVX2: only the Go loops run")
	}
}

func assertSameBits(t *testing.T, what string, simd, scalar []float32) {
	t.Helper()
	if len(simd) != len(scalar) {
		t.Fatalf("%s: %d values with SIMD, %d without", what, len(simd), len(scalar))
	}
	for i := range simd {
		if math.Float32bits(simd[i]) != math.Float32bits(scalar[i]) {
			t.Fatalf("%s: [%d] = %v (%#08x) with SIMD, %v (%#08x) with the Go loop",
				what, i, simd[i], math.Float32bits(simd[i]), scalar[i], math.Float32bits(scalar[i]))
		}
	}
}

func TestSIMDRoPEMatchesGoLoops(t *testing.T) {
	requireSIMD(t)
	rng := newRand(80)
	var configs []RoPE
	for _, hd := range []int{2, 6, 8, 10, 14, 64, 128, 134} {
		for _, l := range []Layout{Interleaved, Halves} {
			configs = append(configs, NewRoPE(hd).WithLayout(l))
			if hd >= 8 {
				configs = append(configs, NewRoPE(hd).WithLayout(l).WithRotaryDim(hd-4))
			}
		}
	}
	configs = append(configs, NewRoPE(64).WithScaling(YaRNScaling(4, 32)))
	const seqs, seq, maxLen = 3, 37, 5000
	for _, r := range configs {
		cache, err := NewRoPECache(r, maxLen)
		if err != nil {
			t.Fatal(err)
		}
		x := randSlice[float32](rng, seqs*seq*r.HeadDim)
		positions := make([]int, seq)
		for i := range positions {
			positions[i] = (977 * i) % maxLen
		}
		for _, start := range []int{0, 13, maxLen - seq} {
			var got, want []float32
			for _, simd := range []bool{true, false} {
				out := make([]float32, len(x))
				withSIMD(simd, func() {
					if err := ApplyRoPETo(out, x, cache, seq, start); err != nil {
						t.Fatal(err)
					}
				})
				if simd {
					got = out
				} else {
					want = out
				}
			}
			assertSameBits(t, ropeName(r)+" start "+itoa(start), got, want)
		}
		// In place, and at explicit positions.
		inPlace := map[bool][]float32{}
		at := map[bool][]float32{}
		for _, simd := range []bool{true, false} {
			y := append([]float32(nil), x...)
			z := make([]float32, len(x))
			withSIMD(simd, func() {
				if err := ApplyRoPETo(y, y, cache, seq, 7); err != nil {
					t.Fatal(err)
				}
				if err := ApplyRoPEAtTo(z, x, cache, positions); err != nil {
					t.Fatal(err)
				}
			})
			inPlace[simd], at[simd] = y, z
		}
		assertSameBits(t, ropeName(r)+" in place", inPlace[true], inPlace[false])
		assertSameBits(t, ropeName(r)+" at positions", at[true], at[false])
	}
}

func TestSIMDSinusoidalMatchesGoLoops(t *testing.T) {
	requireSIMD(t)
	for _, d := range []int{2, 6, 8, 14, 520, 1030} {
		for _, s := range []Sinusoidal{NewSinusoidal(d), NewSinusoidal(d).WithLayout(Halves), NewSinusoidal(d).WithTensor2Tensor()} {
			for _, start := range []int{0, 1000, 999_900, 1 << 39} {
				for _, rows := range []int{1, 130, 300} {
					tables := map[bool][]float32{}
					for _, simd := range []bool{true, false} {
						dst := make([]float32, rows*d)
						withSIMD(simd, func() {
							if err := SinusoidalTo(dst, s, start); err != nil {
								t.Fatal(err)
							}
						})
						tables[simd] = dst
					}
					assertSameBits(t, s.Layout.String()+" d="+itoa(d)+" from "+itoa(start)+" rows "+itoa(rows),
						tables[true], tables[false])
				}
			}
		}
	}
}

// TestSIMDKernelsDirectly calls each kernel on values whose result is
// known exactly, so that a kernel that computes something else fails here
// even if the comparisons above were to reach the Go loops only.
func TestSIMDKernelsDirectly(t *testing.T) {
	requireSIMD(t)
	cs := []float64{0, 1, 0, 1}
	sn := []float64{1, 0, -1, 0}
	src := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	out := make([]float32, 8)
	ropeInterleavedF32AVX2(&out[0], &src[0], &cs[0], &sn[0], 4)
	// Pairs rotated by 90°, 0°, −90°, 0°: (1, 2) → (−2, 1), (5, 6) → (6, −5).
	assertSameBits(t, "ropeInterleavedF32AVX2", out, []float32{-2, 1, 3, 4, 6, -5, 7, 8})
	o1, o2 := make([]float32, 4), make([]float32, 4)
	ropeHalvesF32AVX2(&o1[0], &o2[0], &src[0], &src[4], &cs[0], &sn[0], 4)
	// Pairs (1, 5), (2, 6), (3, 7), (4, 8) by the same angles.
	assertSameBits(t, "ropeHalvesF32AVX2 first half", o1, []float32{-5, 2, 7, 4})
	assertSameBits(t, "ropeHalvesF32AVX2 second half", o2, []float32{1, 6, -3, 8})

	// One step of 90° from (sin, cos) = (0, 1), (1, 0), (0.5, 0.25), (−1, 0):
	// stored as they are, then rotated to (1, 0), (0, −1), (0.25, −0.5), (0, 1).
	stepSin, stepCos := []float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}
	for _, layout := range []Layout{Interleaved, Halves} {
		s := []float64{0, 1, 0.5, -1}
		c := []float64{1, 0, 0.25, 0}
		row := make([]float32, 8)
		var want []float32
		if layout == Interleaved {
			sinStepInterleavedF32AVX2(&row[0], &s[0], &c[0], &stepSin[0], &stepCos[0], 4)
			want = []float32{0, 1, 1, 0, 0.5, 0.25, -1, 0}
		} else {
			sinStepHalvesF32AVX2(&row[0], &row[4], &s[0], &c[0], &stepSin[0], &stepCos[0], 4)
			want = []float32{0, 1, 0.5, -1, 1, 0, 0.25, 0}
		}
		assertSameBits(t, "sinStep "+layout.String()+" row", row, want)
		for i, w := range [][2]float64{{1, 0}, {0, -1}, {0.25, -0.5}, {0, 1}} {
			if s[i] != w[0] || c[i] != w[1] {
				t.Errorf("sinStep %s: pair %d stepped to (%v, %v); want (%v, %v)", layout, i, s[i], c[i], w[0], w[1])
			}
		}
	}
}
