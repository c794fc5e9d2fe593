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
	}
}

// bf16Probes tell the wrong roundings apart: one wrong value can match
// several (1/3 truncated is 1/3 with 7 bits), and the learner's answers on
// these decide.
var bf16Probes = []float64{math.Pi, 1.0 / 3, 257, 1 + 0x1p-8 + 0x1p-30, 3.4e38, 1e-39, 100000}

func diagBF16(got, x float64, fn func(float64) float64) *Hint {
	same := func(a, b float64) bool { return a == b }
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
	return RoundBF16Cases{Values: []RoundBF16Case{
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
		row("subnormal", 1e-39),
		row("zero", 0),
	}}
}

// RoundBFloat16 returns exercise 33's checks of fn on cases.
func RoundBFloat16(fn func(x float64) float64, cases RoundBF16Cases) *Exercise {
	var checks []Check
	for _, c := range cases.Values {
		call := fmt.Sprintf("RoundBFloat16(%v)", c.X)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := fn(c.X)
			if got == c.Want || math.IsNaN(got) && math.IsNaN(c.Want) {
				return nil
			}
			return fail(orElse(diagBF16(got, c.X, fn), hintBF16Fallback),
				fmt.Sprintf("%s = %v; want %v (bits %#04x)", call, got, c.Want, posenc.BFloat16Bits(c.Want)))
		}})
	}
	return newExercise(33, checks)
}
