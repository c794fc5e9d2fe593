package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 33, Slug: "round_bfloat16", Title: "Round to bfloat16", Test: "TestRoundBFloat16",
			Funcs: []string{"RoundBFloat16"}, Lesson: 10, Section: secPrecision.Title, Difficulty: catalog.Advanced},
		Blurb: "emulate bfloat16 exactly: 8 significant bits, ties to even, subnormals and overflow, straight from float64.",
		Hints: Hints{
			Read: []Section{secPrecision},
			Idea: []string{
				"bfloat16 is float32 with its significand cut to 8 bits (7 stored): the same exponent range, so " +
					"the same largest and smallest values, but only 256 steps between consecutive powers of 2. " +
					"Positions above 256 stop being exact.",
			},
			Formula: []string{
				"- For 2^e ≤ |x| < 2^(e+1) the spacing is 2^(e−7); below 2^−126 (the subnormals) it stays 2^−133.",
				"- Result: RoundToEven(x / spacing)·spacing, ties to the even multiple (257 → 256, 259 → 260).",
				"- Past the largest finite value, (2 − 2^−7)·2^127 ≈ 3.39·10^38, the result is ±Inf.",
			},
			Code: []string{
				"- `_, e := math.Frexp(x)` gives |x| in [2^(e−1), 2^e); `math.Ldexp` scales by powers of 2 exactly; " +
					"`math.RoundToEven`, not `math.Round`.",
				"- Do not convert to float32 first: that rounds twice, and a value just above a bfloat16 tie can " +
					"land exactly on it.",
			},
		},
		Cases:  roundBF16Cases(),
		Checks: func(cases any) *Exercise { return RoundBFloat16(nil, cases.(RoundBF16Cases)) },
	})
}

// The lesson section exercise 33 and its hints cite.
var secPrecision = Section{10, "Precision: RoPE in bfloat16 and float16"}

var (
	hintBF16Truncates = newHint("bfloat16/truncates", secPrecision,
		"you dropped the extra bits (rounding toward zero); round to the nearest bfloat16 value instead: 1/3 "+
			"rounds up to 0.333984375")
	hintBF16TiesAway = newHint("bfloat16/ties away from zero", secPrecision,
		"a tie goes to the even significand (IEEE 754's roundTiesToEven): 257 → 256, not 258; math.Round rounds "+
			"ties away from zero, math.RoundToEven does not")
	hintBF16DoubleRounding = newHint("bfloat16/double rounding", secPrecision,
		"you rounded to float32 first and then to bfloat16: 1 + 2^−8 + 2^−30 becomes the tie 1 + 2^−8 in "+
			"float32, which then goes to even (1), while the value itself is above the tie and rounds up")
	hintBF16NineBits = newHint("bfloat16/8 stored bits", secPrecision,
		"bfloat16 stores 7 significand bits, 8 with the implicit leading one: the spacing above 2^e is 2^(e−7), "+
			"not 2^(e−8)")
	hintBF16SevenBits = newHint("bfloat16/forgot the implicit bit", secPrecision,
		"7 bits are stored but the leading 1 is implicit: 8 significant bits, spacing 2^(e−7) above 2^e, not "+
			"2^(e−6)")
	hintBF16NoOverflow = newHint("bfloat16/no overflow", secPrecision,
		"beyond the largest finite bfloat16, (2 − 2^−7)·2^127, a value rounds to ±Inf, as float32 and every IEEE "+
			"format do")
	hintBF16NoSubnormals = newHint("bfloat16/no subnormals", secPrecision,
		"below 2^−126 the spacing stops shrinking: it stays 2^−133 (the subnormals), so tiny values keep fewer "+
			"significant bits")
	hintBF16OverflowAtMax = newHint("bfloat16/overflow at the largest finite value", secPrecision,
		"a value a little above the largest finite bfloat16, (2 − 2^−7)·2^127, still rounds down to it; only from "+
			"the halfway point to 2^128, (2 − 2^−8)·2^127, does it become ±Inf. Round first, then test the rounded "+
			"value: ±Inf when it reaches 2^128")
	hintBF16SubnormalSpacing = newHint("bfloat16/subnormal spacing", secPrecision,
		"below 2^−126 the spacing is 2^−133, the spacing of the smallest normal binade, 2^(−126−7): not twice or "+
			"half that (1.3·2^−133 rounds to 2^−133)")
	hintBF16NegativeZero = newHint("bfloat16/negative zero", secPrecision,
		"−0 stays −0: rounding keeps the sign bit, as in every IEEE format; return x itself for ±0, not the "+
			"literal 0")
	hintBF16SignLost = newHint("bfloat16/sign lost", secPrecision,
		"a negative x rounds to a negative value: round |x| if you like, then put the sign back with math.Copysign")
	hintBF16Fallback = generic("bfloat16/fallback", secPrecision,
		"round x to the nearest multiple of 2^(e−7) (2^e ≤ |x| < 2^(e+1); 2^−133 below 2^−126), ties to even; "+
			"±Inf past 3.39·10^38")
)

// bf16With rounds x to p significant bits with float32's exponent range;
// round is the rounding of the scaled value, subnormals and overflow as
// asked.
func bf16With(x float64, p int, round func(float64) float64, subnormals, overflow bool) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, e := math.Frexp(x)
	lead := e - 1
	if subnormals {
		lead = max(lead, -126)
	}
	q := lead - (p - 1)
	y := math.Ldexp(round(math.Ldexp(x, -q)), q)
	largest := math.Ldexp(2-math.Ldexp(1, 1-p), 127)
	if math.Abs(y) > largest {
		if overflow {
			return math.Copysign(math.Inf(1), x)
		}
		return math.Copysign(largest, x)
	}
	return y
}

// viaFloat32 rounds x to float32 and then with PyTorch's c10 bias trick to
// bfloat16: the double rounding.
func viaFloat32(x float64) float64 {
	b := math.Float32bits(float32(x))
	b = (b + ((b>>16)&1 + 0x7FFF)) &^ 0xFFFF
	return float64(math.Float32frombits(b))
}

// bf16Variants are the known wrong roundings of x, in the order of the
// hints they name.
func bf16Variants(x float64) []variant[float64] {
	type v = variant[float64]
	return []v{
		{hintBF16DoubleRounding, viaFloat32(x)},
		{hintBF16Truncates, bf16With(x, 8, math.Trunc, true, true)},
		{hintBF16TiesAway, bf16With(x, 8, math.Round, true, true)},
		{hintBF16NineBits, bf16With(x, 9, math.RoundToEven, true, true)},
		{hintBF16SevenBits, bf16With(x, 7, math.RoundToEven, true, true)},
		{hintBF16NoOverflow, bf16With(x, 8, math.RoundToEven, true, false)},
		{hintBF16NoSubnormals, bf16With(x, 8, math.RoundToEven, false, true)},
		{hintBF16NoOverflow, bf16Unbounded(x)},
		{hintBF16NoOverflow, bf16OneSidedOverflow(x)},
		{hintBF16OverflowAtMax, bf16OverflowFromX(x, false)},
		{hintBF16OverflowAtMax, bf16OverflowFromX(x, true)},
		{hintBF16SubnormalSpacing, bf16SubnormalSpacing(x, -132)},
		{hintBF16SubnormalSpacing, bf16SubnormalSpacing(x, -134)},
		{hintBF16NegativeZero, bf16PositiveZero(x)},
		{hintBF16SignLost, bf16SignLost(x)},
		{hintBF16NineBits, bf16WithLargest(x, 9)},
		{hintBF16SevenBits, bf16WithLargest(x, 7)},
	}
}

// bf16Unbounded rounds x with no largest value at all: 2^128 and beyond
// stay finite.
func bf16Unbounded(x float64) float64 {
	if math.IsInf(x, 0) || x == 0 {
		return x
	}
	_, e := math.Frexp(x)
	q := max(e-1, -126) - 7
	return math.Ldexp(math.RoundToEven(math.Ldexp(x, -q)), q)
}

// bf16OneSidedOverflow overflows to +Inf only: negative values past the
// largest stay finite.
func bf16OneSidedOverflow(x float64) float64 {
	if x < 0 {
		return bf16Unbounded(x)
	}
	return posenc.BFloat16.Round(x)
}

// bf16OverflowFromX decides the overflow on x instead of on the rounded
// value: ±Inf above the largest finite value (from it, when atMax).
func bf16OverflowFromX(x float64, atMax bool) float64 {
	largest := math.Ldexp(2-math.Ldexp(1, -7), 127)
	if a := math.Abs(x); a > largest || atMax && a == largest {
		return math.Copysign(math.Inf(1), x)
	}
	return bf16Unbounded(x)
}

// bf16SubnormalSpacing rounds the subnormals to multiples of 2^exp instead
// of 2^−133.
func bf16SubnormalSpacing(x float64, exp int) float64 {
	if x == 0 || math.IsInf(x, 0) || math.Abs(x) >= 0x1p-126 {
		return posenc.BFloat16.Round(x)
	}
	return math.Ldexp(math.RoundToEven(math.Ldexp(x, -exp)), exp)
}

// bf16PositiveZero is the right rounding with −0 turned into +0.
func bf16PositiveZero(x float64) float64 {
	if x == 0 {
		return 0
	}
	return posenc.BFloat16.Round(x)
}

// bf16SignLost is the right rounding of |x| for a finite non-zero x.
func bf16SignLost(x float64) float64 {
	r := posenc.BFloat16.Round(x)
	if x == 0 || math.IsInf(r, 0) {
		return r
	}
	return math.Abs(r)
}

// bf16WithLargest rounds to p significant bits but overflows past
// bfloat16's own largest value, the constant a learner copies from the
// stub.
func bf16WithLargest(x float64, p int) float64 {
	r := bf16With(x, p, math.RoundToEven, true, false)
	if math.Abs(r) > math.Ldexp(2-math.Ldexp(1, -7), 127) {
		return math.Copysign(math.Inf(1), x)
	}
	return r
}

// bf16Traits says what kind of value x is, for the summary of the rows
// that fail.
func bf16Traits(x float64) []string {
	var out []string
	a := math.Abs(x)
	switch {
	case x == 0:
		out = append(out, "a zero")
	case math.IsInf(x, 0):
		out = append(out, "an infinity")
	case a < 0x1p-126:
		out = append(out, "a subnormal (below 2^−126)")
	case a >= 0x1.fep127:
		out = append(out, "at or past the largest finite value")
	}
	if math.Signbit(x) {
		out = append(out, "a negative x")
	}
	if x != 0 && !math.IsInf(x, 0) {
		_, e := math.Frexp(x)
		q := max(e-1, -126) - 7
		if f := math.Abs(math.Ldexp(x, -q)); f-math.Floor(f) == 0.5 {
			out = append(out, "a tie, halfway between two bfloat16 values")
		}
	}
	return out
}

// sameBF16 compares two roundings bit for bit: −0 is not +0.
func sameBF16(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// bf16Probes tell the wrong roundings apart: one wrong value can match
// several (1/3 truncated is 1/3 with 7 bits), and the learner's answers on
// these decide.
var bf16Probes = []float64{math.Pi, 1.0 / 3, 257, 1 + 0x1p-8 + 0x1p-30, 3.4e38, 1e-39, 100000, -3.4e38, 0x1.fe8p127, 1.3 * 0x1p-133}

func diagBF16(got, x float64, fn func(float64) float64) *Hint {
	same := sameBF16
	answers := func() []float64 {
		out := make([]float64, len(bf16Probes))
		for i, p := range bf16Probes {
			out[i] = fn(p)
		}
		return out
	}
	return consistentHint(got, same, bf16Variants(x), answers, func(p int) []variant[float64] { return bf16Variants(bf16Probes[p]) })
}

// RoundBF16Case is one call: RoundBFloat16(X) must equal Want exactly.
type RoundBF16Case struct {
	Name string
	X    float64
	Want float64
}

// RoundBF16Cases is exercise 33's case table.
type RoundBF16Cases struct {
	Values []RoundBF16Case `doc:"RoundBFloat16(X) must equal Want exactly: the nearest bfloat16 value, ties to even (posenc.BFloat16.Round, checked against PyTorch's c10 rounding)."`
}

func roundBF16Cases() RoundBF16Cases {
	row := func(name string, x float64) RoundBF16Case { return RoundBF16Case{name, x, posenc.BFloat16.Round(x)} }
	cases := RoundBF16Cases{Values: []RoundBF16Case{
		row("one_third_rounds_up", 1.0/3),
		row("pi", math.Pi),
		row("257_is_a_tie_to_256", 257),
		row("259_is_a_tie_to_260", 259),
		row("position_100000", 100000),
		row("negative_0.1", -0.1),
		row("just_above_a_tie", 1+0x1p-8+0x1p-30),
		row("float16_max_65504", 65504),
		row("largest_finite_stays", 0x1.fep127),
		row("past_the_largest_is_inf", 3.4e38),
		row("minus_inf_stays", math.Inf(-1)),
		row("just_below_a_tie", 1+0x1p-8-0x1p-30),
		row("subnormal", 1e-39),
		row("subnormal_1.3_steps", 1.3*0x1p-133),
		row("subnormal_tie_2.5_steps_to_2", 2.5*0x1p-133),
		row("half_the_smallest_subnormal_is_a_tie_to_0", 0x1p-134),
		row("smallest_normal_stays", 0x1p-126),
		row("between_largest_and_halfway_rounds_down", 0x1.fe8p127),
		row("halfway_above_the_largest_is_inf", 0x1.ffp127),
		row("minus_past_the_largest_is_minus_inf", -3.4e38),
		row("zero", 0),
		row("minus_zero_stays_minus_zero", math.Copysign(0, -1)),
	}}
	// The boundary rows must still say what their names say, checked by
	// hand from the format (largest finite (2 − 2^−7)·2^127, spacing 2^−133
	// below 2^−126), not by the library that computed Want.
	wantByHand := map[string]float64{
		"just_below_a_tie":                          1,
		"subnormal_1.3_steps":                       0x1p-133,
		"subnormal_tie_2.5_steps_to_2":              0x1p-132,
		"half_the_smallest_subnormal_is_a_tie_to_0": 0,
		"smallest_normal_stays":                     0x1p-126,
		"between_largest_and_halfway_rounds_down":   0x1.fep127,
		"halfway_above_the_largest_is_inf":          math.Inf(1),
		"minus_past_the_largest_is_minus_inf":       math.Inf(-1),
		"minus_zero_stays_minus_zero":               math.Copysign(0, -1),
	}
	for _, c := range cases.Values {
		if w, ok := wantByHand[c.Name]; ok && !sameBF16(c.Want, w) {
			panic(fmt.Sprintf("check: exercise 33's row %s wants %v; by hand it is %v", c.Name, c.Want, w))
		}
	}
	return cases
}

// RoundBFloat16 returns exercise 33's checks of fn on cases.
func RoundBFloat16(fn func(x float64) float64, cases RoundBF16Cases) *Exercise {
	var checks []Check
	for _, c := range cases.Values {
		call := fmt.Sprintf("RoundBFloat16(%v)", c.X)
		checks = append(checks, Check{Name: c.Name, Call: call, Traits: bf16Traits(c.X), Run: func() *Failure {
			got := fn(c.X)
			noteFallback(hintBF16Fallback)
			if sameBF16(got, c.Want) {
				observePass(func(got float64) *Hint { return diagBF16(got, c.X, fn) }, got)
				return nil
			}
			return fail(orElse(diagBF16(got, c.X, fn), hintBF16Fallback),
				fmt.Sprintf("%s = %v; want %v (bits %#04x)", call, got, c.Want, posenc.BFloat16Bits(c.Want)))
		}})
	}
	return newExercise(33, checks)
}
