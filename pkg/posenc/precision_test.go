package posenc

import (
	"math"
	"testing"
)

// TestRoundBitPatterns checks Format.Round and the bit functions against
// bit patterns that follow from the formats' definitions: IEEE 754-2019
// binary16 (1 sign, 5 exponent bits biased by 15, 10 stored significand
// bits; the examples of Wikipedia's "Half-precision floating-point format"
// table) and bfloat16 (the top 16 bits of binary32: 1 sign, 8 exponent bits
// biased by 127, 7 stored significand bits), all under roundTiesToEven.
func TestRoundBitPatterns(t *testing.T) {
	for _, c := range []struct {
		x    float64
		bits uint16
		val  float64
	}{
		{1, 0x3F80, 1},
		{-2, 0xC000, -2},
		{math.Pi, 0x4049, 3.140625},
		{1.0 / 3, 0x3EAB, 0.333984375},
		{256, 0x4380, 256},
		{257, 0x4380, 256}, // tie between 256 and 258: to even (256)
		{259, 0x4382, 260}, // tie between 258 and 260: to even (260)
		{65504, 0x4780, 65536},
		{3.3895313892515355e38, 0x7F7F, 3.3895313892515355e38}, // largest finite
		{3.4e38, 0x7F80, math.Inf(1)},                          // past largest + half an ulp
		{0x1p-133, 0x0001, 0x1p-133},                           // smallest subnormal
		{0x1p-134, 0x0000, 0},                                  // tie with 0: to even (0)
		{math.Inf(-1), 0xFF80, math.Inf(-1)},
	} {
		if got := BFloat16.Round(c.x); got != c.val {
			t.Errorf("BFloat16.Round(%g) = %g; want %g", c.x, got, c.val)
		}
		if got := BFloat16Bits(c.x); got != c.bits {
			t.Errorf("BFloat16Bits(%g) = %#04x; want %#04x", c.x, got, c.bits)
		}
	}
	for _, c := range []struct {
		x    float64
		bits uint16
		val  float64
	}{
		{1, 0x3C00, 1},
		{-2, 0xC000, -2},
		{math.Pi, 0x4248, 3.140625},
		{1.0 / 3, 0x3555, 0.333251953125},
		{0.1, 0x2E66, 0.0999755859375},
		{65504, 0x7BFF, 65504}, // largest finite
		{65519, 0x7BFF, 65504},
		{65520, 0x7C00, math.Inf(1)}, // tie between 65504 and 65536: to even, which overflows
		{0x1p-14, 0x0400, 0x1p-14},   // smallest normal
		{0x1p-24, 0x0001, 0x1p-24},   // smallest subnormal
		{0x1p-25, 0x0000, 0},         // tie with 0: to even
		{3 * 0x1p-26, 0x0001, 0x1p-24},
		{2049, 0x6800, 2048}, // tie: to even
		{2051, 0x6802, 2052},
		{math.Copysign(0, -1), 0x8000, 0},
	} {
		if got := Float16.Round(c.x); got != c.val {
			t.Errorf("Float16.Round(%g) = %g; want %g", c.x, got, c.val)
		}
		if got := Float16Bits(c.x); got != c.bits {
			t.Errorf("Float16Bits(%g) = %#04x; want %#04x", c.x, got, c.bits)
		}
	}
	if !math.IsNaN(Format(9).Round(1)) || BFloat16Bits(math.NaN()) != 0x7FC0 || Float16Bits(math.NaN()) != 0x7E00 {
		t.Error("NaN handling")
	}
}

// TestRoundBFloat16MatchesPyTorch checks BFloat16.Round on float32 inputs
// against PyTorch's c10::BFloat16 round_to_nearest_even
// (c10/util/BFloat16.h):
//
//	uint32_t rounding_bias = ((U32 >> 16) & 1) + UINT32_C(0x7FFF);
//	return static_cast<uint16_t>((U32 + rounding_bias) >> 16);
func TestRoundBFloat16MatchesPyTorch(t *testing.T) {
	rng := newRand(16)
	for range 200000 {
		bits := rng.Uint32()
		f := math.Float32frombits(bits)
		if f != f {
			continue
		}
		want := uint16((bits + ((bits>>16)&1 + 0x7FFF)) >> 16)
		if got := BFloat16Bits(float64(f)); got != want {
			t.Fatalf("BFloat16Bits(%g = %#08x) = %#04x; want %#04x", f, bits, got, want)
		}
	}
}

// TestRoundFloat32MatchesGo checks the general rounding at precision 24
// against Go's float32 conversion, which rounds to nearest even (the Go
// specification, "Conversions"), over random float64 bit patterns, the
// subnormal and overflow ranges included.
func TestRoundFloat32MatchesGo(t *testing.T) {
	rng := newRand(32)
	for range 200000 {
		x := math.Float64frombits(rng.Uint64())
		if x != x {
			continue
		}
		x = math.Ldexp(math.Mod(x, 1)+1, rng.IntN(300)-160) // exponents around float32's range
		if got, want := Float32.Round(x), float64(float32(x)); got != want {
			t.Fatalf("Float32.Round(%g) = %g; want %g", x, got, want)
		}
	}
}

// TestRoundFloat16Exhaustive checks Float16.Round against the nearest of
// all finite binary16 values decoded from their 65,536 bit patterns (ties
// to the even pattern), at random points between neighbours and at every
// midpoint.
func TestRoundFloat16Exhaustive(t *testing.T) {
	decode := func(b uint16) float64 {
		e, m := int(b>>10&0x1F), float64(b&0x3FF)
		v := math.Ldexp(m, -24) // subnormal
		if e > 0 {
			v = math.Ldexp(1+m/1024, e-15)
		}
		if b&0x8000 != 0 {
			v = -v
		}
		return v
	}
	rng := newRand(16)
	for b := uint16(0); b < 0x7BFF; b++ { // neighbours b, b+1 among the positive finite values
		lo, hi := decode(b), decode(b+1)
		mid := (lo + hi) / 2
		even := lo
		if b&1 == 1 {
			even = hi
		}
		if got := Float16.Round(mid); got != even {
			t.Fatalf("Float16.Round(midpoint %g) = %g; want %g", mid, got, even)
		}
		x := lo + rng.Float64()*(hi-lo)
		want := lo
		if x-lo > hi-x {
			want = hi
		} else if x-lo == hi-x {
			want = even
		}
		if got := Float16.Round(x); got != want || Float16.Round(-x) != -want {
			t.Fatalf("Float16.Round(%g) = %g; want %g", x, got, want)
		}
		if Float16Bits(lo) != b {
			t.Fatalf("Float16Bits(%g) = %#04x; want %#04x", lo, Float16Bits(lo), b)
		}
	}
}

// TestRotateRoundedMatchesFloat32 checks RotateRoundedTo with every step in
// float32 against Go float32 arithmetic, the computation of Hugging Face's
// rotary modules (inv_freq.float() @ position_ids.float() under disabled
// autocast, a single product per angle, cos and sin in float32):
// freqs = float32(inv_freq)·float32(pos), rounded once.
func TestRotateRoundedMatchesFloat32(t *testing.T) {
	r := NewRoPE(16).WithBase(500000)
	freq, _ := r.InvFreq()
	p := RoPEPrecision{InvFreq: Float32, Position: Float32, Angle: Float32, CosSin: Float64}
	x := make([]float64, 16)
	x[0], x[1] = 1, 0 // pair 0 of the interleaved layout: the result is (cos, sin)
	x[14] = 1         // the slowest pair
	for _, pos := range []int{1, 1000, 65537, 131071, 1 << 20} {
		got := make([]float64, 16)
		if err := RotateRoundedTo(got, x, r, pos, p); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 7} {
			angle := float64(float32(freq[i]) * float32(pos)) // Go rounds the float32 product once
			if got[2*i] != math.Cos(angle) || got[2*i+1] != math.Sin(angle) {
				t.Errorf("pos %d pair %d: (%g, %g); want angle %g", pos, i, got[2*i], got[2*i+1], angle)
			}
		}
	}
	// A bfloat16 position: 257 is 256.
	q := []float64{0.3, -1, 0.2, 0.5, 1, 1, -0.4, 0.1}
	r8 := NewRoPE(8)
	a, b := make([]float64, 8), make([]float64, 8)
	_ = RotateRoundedTo(a, q, r8, 257, RoPEPrecision{Position: BFloat16})
	_ = RotateTo(b, q, r8, 256)
	if d, _ := maxAbsDiff(a, b); d > 1e-15 {
		t.Errorf("bfloat16 position 257 differs from 256 by %g", d)
	}
	err := RotateRoundedTo(a, q, r8, 1, RoPEPrecision{Angle: 7})
	wantParamError(t, err, "angle format", "7")
}

// TestRelativePropertyError checks the measure: 0 (to float64 rounding) for
// exact arithmetic at any offset; 0 for bfloat16 positions as long as every
// position is an integer bfloat16 holds exactly (≤ 256); positive beyond;
// +Inf when float16 positions overflow (past 65504).
func TestRelativePropertyError(t *testing.T) {
	r := NewRoPE(64)
	rng := newRand(3)
	q, k := randSlice[float64](rng, 64), randSlice[float64](rng, 64)
	e, err := RelativePropertyError(q, k, r, RoPEPrecision{}, 10, 3, 100000)
	if err != nil || e > 1e-12 {
		t.Errorf("float64: %g, %v", e, err)
	}
	bf := RoPEPrecision{Position: BFloat16}
	if e, _ := RelativePropertyError(q, k, r, bf, 10, 3, 240); e > 1e-12 {
		t.Errorf("bfloat16 positions ≤ 256: %g", e)
	}
	if e, _ := RelativePropertyError(q, k, r, bf, 10, 3, 5000); e < 1e-3 {
		t.Errorf("bfloat16 positions near 5000: %g; want it large", e)
	}
	if e, _ := RelativePropertyError(q, k, r, RoPEPrecision{Position: Float16}, 10, 3, 70000); !math.IsInf(e, 1) {
		t.Errorf("float16 positions past 65504: %g; want +Inf", e)
	}
	_, err = RelativePropertyError(q, k, r, bf, 1, 2, -5)
	wantParamError(t, err, "m+t", "-4")
	_, err = RelativePropertyError(q, make([]float64, 64), r, bf, 1, 2, 0)
	wantParamError(t, err, "|q|·|k|", "0")
}
