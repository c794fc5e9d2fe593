//go:build amd64 && !purego

package posenc

import (
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc/internal/asm"
)

// The AVX2 kernels promise the Go loops' results bit for bit (same float64
// operations in the same order, one rounding to float32); package asm tests
// each kernel against its loop. These tests run every float32 hot path of
// the public API twice, with asm.UseAVX2 on and off, on shapes that
// exercise the vector body, the scalar tails (pair counts not a multiple of
// 4), partial rotary dimensions, explicit positions and in-place calls, and
// compare the bits. `go test -tags purego` runs the rest of the suite on the
// Go loops alone.

// withSIMD runs f with asm.UseAVX2 set to on, then restores it.
func withSIMD(on bool, f func()) {
	saved := asm.UseAVX2
	asm.UseAVX2 = on
	defer func() { asm.UseAVX2 = saved }()
	f()
}

func requireSIMD(t *testing.T) {
	t.Helper()
	if !asm.UseAVX2 {
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
