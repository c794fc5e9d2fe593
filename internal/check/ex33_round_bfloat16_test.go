package check

import "math"

// Learner-style implementations of exercise 33 (rounding to bfloat16),
// correct when bug is "" and otherwise wrong in one classic way: each must
// fail with the hint that names its mistake (feedback_test.go).

func init() { addSuite(mutBF16Suite) }

func mutBF16Suite() suite {
	return mutSuite(33, RoundBFloat16, mutBF16, map[string]*Hint{
		"truncates":     hintBF16Truncates,
		"ties_away":     hintBF16TiesAway,
		"via_float32":   hintBF16DoubleRounding,
		"nine_bits":     hintBF16NineBits,
		"seven_bits":    hintBF16SevenBits,
		"no_overflow":   hintBF16NoOverflow,
		"no_subnormals": hintBF16NoSubnormals,
		"overflow_on_x": hintBF16OverflowAtMax,
		"subnormal_2x":  hintBF16SubnormalSpacing,
		"plus_zero":     hintBF16NegativeZero,
		"unsigned":      hintBF16SignLost,
	})
}

func mutBF16(bug string) func(x float64) float64 {
	return func(x float64) float64 {
		if bug == "via_float32" { // float32 first, then c10's bias trick
			b := math.Float32bits(float32(x))
			b = (b + ((b>>16)&1 + 0x7FFF)) &^ 0xFFFF
			return float64(math.Float32frombits(b))
		}
		if bug == "plus_zero" && x == 0 { // "0 stays 0", with the literal
			return 0
		}
		if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			return x
		}
		if bug == "overflow_on_x" && math.Abs(x) > 0x1.fep127 { // x judged, not its rounding
			return math.Copysign(math.Inf(1), x)
		}
		bits := 8
		switch bug {
		case "nine_bits":
			bits = 9
		case "seven_bits":
			bits = 7
		}
		_, e := math.Frexp(x)
		exp := e - 1
		if exp < -126 && bug != "no_subnormals" {
			exp = -126
			if bug == "subnormal_2x" {
				exp = -125
			}
		}
		spacing := math.Ldexp(1, exp-(bits-1))
		var n float64
		switch bug {
		case "truncates":
			n = math.Trunc(x / spacing)
		case "ties_away":
			n = math.Round(x / spacing)
		default:
			n = math.RoundToEven(x / spacing)
		}
		y := n * spacing
		if bug == "unsigned" {
			y = math.Abs(y)
		}
		largest := math.Ldexp(2-math.Ldexp(1, -(bits-1)), 127)
		if math.Abs(y) > largest {
			if bug == "no_overflow" {
				return math.Copysign(largest, x)
			}
			return math.Copysign(math.Inf(1), x)
		}
		return y
	}
}
