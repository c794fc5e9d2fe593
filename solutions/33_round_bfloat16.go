package exercises

import "math"

// RoundBFloat16 returns x rounded to the nearest bfloat16 value, as a
// float64: bfloat16 has float32's exponent range (normal numbers from
// 2^−126, subnormals down to 2^−133, largest finite value
// (2 − 2^−7)·2^127) but only 8 significant bits (7 stored). Ties go to the
// even significand (IEEE 754's roundTiesToEven); values past the largest
// finite one become ±Inf. Round directly from x, in one step.
//
// x is finite or ±Inf; ±0 and ±Inf stay as they are (−0 keeps its sign).
//
// Read lesson 10, “Precision: RoPE in bfloat16 and float16”.
// Hints: exercises/README.md.
func RoundBFloat16(x float64) float64 {
	// 0 and ±Inf need no case of their own: Frexp gives them exponent 0, and
	// scaling and rounding leave them as they are.
	_, e := math.Frexp(x)  // |x| in [2^(e−1), 2^e)
	lead := max(e-1, -126) // below 2^−126 the spacing stops shrinking
	spacing := lead - 7    // 8 significant bits: the last one is worth 2^(lead−7)
	// Scaling by powers of 2 is exact, so this rounds once, ties to even.
	y := math.Ldexp(math.RoundToEven(math.Ldexp(x, -spacing)), spacing)
	if largest := math.Ldexp(2-0x1p-7, 127); math.Abs(y) > largest {
		return math.Copysign(math.Inf(1), x)
	}
	return y
}
