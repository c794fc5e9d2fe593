package posenc

import (
	"math"
	"strconv"
)

// Format is a binary floating-point format of IEEE 754-2019 (or bfloat16,
// which follows its rules with float32's exponent range) that a value can
// be rounded to, to emulate exactly what a model computing in it sees.
type Format int

const (
	// Float64 is binary64: 53 significant bits; rounding to it does nothing.
	Float64 Format = iota
	// Float32 is binary32: 24 significant bits, exponents −126 … 127.
	Float32
	// BFloat16 is Google Brain's bfloat16: float32's top 16 bits, so 8
	// significant bits (7 stored) and float32's exponents −126 … 127. It
	// represents every integer up to 256 and, above, only multiples of
	// 2, 4, 8, …: 257 is not a bfloat16.
	BFloat16
	// Float16 is binary16: 11 significant bits (10 stored), exponents
	// −14 … 15, largest finite value 65504.
	Float16
)

// formatSpec is a format's precision p (significant bits, the implicit one
// included) and its normal exponent range.
type formatSpec struct{ p, emin, emax int }

var formatSpecs = map[Format]formatSpec{
	Float64:  {53, -1022, 1023},
	Float32:  {24, -126, 127},
	BFloat16: {8, -126, 127},
	Float16:  {11, -14, 15},
}

// String returns "float64", "float32", "bfloat16" or "float16".
func (f Format) String() string {
	switch f {
	case Float64:
		return "float64"
	case Float32:
		return "float32"
	case BFloat16:
		return "bfloat16"
	case Float16:
		return "float16"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Round returns x rounded to the nearest value of format f, ties to the one
// with an even last significand bit (IEEE 754's default
// roundTiesToEven), in one step from float64, so no double rounding through
// float32. Values below the smallest normal number round to the format's
// subnormals; values beyond its largest finite value round to ±Inf (as IEEE
// 754's overflow under roundTiesToEven: anything at or past the largest
// finite value plus half an ulp). NaN, ±Inf and ±0 are returned unchanged.
// An unknown format returns NaN.
func (f Format) Round(x float64) float64 {
	s, ok := formatSpecs[f]
	if !ok {
		return math.NaN()
	}
	if f == Float64 || x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, e := math.Frexp(x) // |x| = frac·2^e, frac in [0.5, 1): the leading bit has exponent e−1
	lead := max(e-1, s.emin)
	quantum := lead - (s.p - 1) // exponent of the last significand bit; fixed below the normal range
	// x·2^−quantum has at most p integer bits, so this scaling, the
	// rounding to an integer and the scaling back are exact in float64.
	y := math.Ldexp(math.RoundToEven(math.Ldexp(x, -quantum)), quantum)
	largest := math.Ldexp(2-math.Ldexp(1, 1-s.p), s.emax)
	if math.Abs(y) > largest {
		return math.Copysign(math.Inf(1), x)
	}
	return y
}

// BFloat16Bits returns the 16 bits of x rounded to bfloat16 (sign, 8
// exponent bits, 7 significand bits): the top half of the float32 bits of
// the rounded value, which that value fills exactly. NaN gives 0x7FC0.
func BFloat16Bits(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7FC0
	}
	return uint16(math.Float32bits(float32(BFloat16.Round(x))) >> 16)
}

// Float16Bits returns the 16 bits of x rounded to IEEE 754 binary16 (sign,
// 5 exponent bits biased by 15, 10 significand bits). NaN gives 0x7E00.
func Float16Bits(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7E00
	}
	y := Float16.Round(x)
	var sign uint16
	if math.Signbit(y) {
		sign, y = 0x8000, -y
	}
	switch {
	case math.IsInf(y, 0):
		return sign | 0x7C00
	case y < 0x1p-14: // subnormal (or zero): multiples of 2^−24
		return sign | uint16(y*0x1p24)
	}
	_, e := math.Frexp(y)
	exp := e - 1
	mant := uint16((math.Ldexp(y, -exp) - 1) * 1024)
	return sign | uint16(exp+15)<<10 | mant
}
