package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 9, Slug: "ntk", Title: "Linear, NTK-aware and dynamic NTK frequencies", Test: "TestNTK",
			Funcs: []string{"LinearInvFreq", "NTKInvFreq", "DynamicNTKInvFreq"}, Lesson: 5,
			Section: "NTK-aware scaling: change the base, not the positions", Difficulty: catalog.Medium},
		Blurb: "the first three scalings of this lesson, from the formula for $\\omega_i$.",
		Hints: Hints{
			Read: []Section{secPI, secNTK, secDynamic},
			Idea: []string{
				"All three start from RoPE's frequencies θ_i = base^(−2i/d). Linear interpolation slows every " +
					"pair by the factor; NTK-aware scaling raises the base instead, so that the fast pairs keep " +
					"their speed; dynamic NTK chooses the factor from the length of the sequence.",
			},
			Formula: []string{
				"- Linear: θ_i/s.",
				"- NTK-aware: the frequencies of the base base·s^(d/(d−2)). Check it on its two ends: θ_0 stays " +
					"1, and the last frequency is divided by exactly s.",
				"- Dynamic NTK: NTK-aware with the factor s·L/L₀ − (s−1), where L = max(seqLen, originalLen) and " +
					"L₀ = originalLen: it is 1 up to originalLen, and for seqLen 5000 over 2048 the ratio L/L₀ is " +
					"2.44…, not 2.",
			},
			Code: []string{
				"- Write one helper for `math.Pow(base, -float64(2*i)/float64(d))` and reuse it.",
				"- The NTK exponent is `float64(d)/float64(d-2)` and the dynamic ratio `float64(max(seqLen, " +
					"originalLen))/float64(originalLen)`: in integers both are rounded down.",
			},
		},
		Cases:  ntkCases(),
		Checks: func(cases any) *Exercise { return NTK(nil, nil, nil, cases.(NTKCases)) },
	})
}

var (
	hintLinearMultiplied = newHint("linear/multiplied", secPI,
		"you multiplied the frequencies by the factor: interpolation divides them, θ_i/s, so that the longer context "+
			"turns through the angles the model was trained on")
	hintScaledIntDiv = newHint("scaled frequencies/integer division", secSeen,
		"before any scaling, your frequencies are all 1: the exponent 2i/d was computed with integer division, "+
			"which is 0 for every pair. Convert before dividing: float64(2*i)/float64(d)")
	hintNTKExponent = newHint("ntk/exponent is 1", secNTK,
		"the base became base·s instead of base·s^(d/(d−2)): either the exponent d/(d−2) is missing, or it was "+
			"computed with integer division, where it is 1 for every d > 4 (write float64(d)/float64(d−2)). With it, the "+
			"lowest frequency is divided by exactly s while the highest stays 1")
	hintNTKInverseExponent = newHint("ntk/exponent inverted", secNTK,
		"the exponent is upside down: the base becomes base·s^(d/(d−2)), not base·s^((d−2)/d)")
	hintNTKIsLinear = newHint("ntk/interpolated every frequency", secNTK,
		"you divided every frequency by s, which is linear interpolation: NTK-aware scaling changes the base instead, "+
			"so high frequencies are kept and only low ones shrink")
	hintDynamicMax = newHint("dynamic/no max", secDynamic,
		"for sequences shorter than originalLen the frequencies must be the unscaled ones: use "+
			"L = max(seqLen, originalLen), so that the factor s·L/L₀ − (s−1) never drops below 1")
	hintDynamicStatic = newHint("dynamic/static factor", secDynamic,
		"you used the static NTK factor s: dynamic NTK grows the factor with the sequence, "+
			"s·L/L₀ − (s−1) with L = max(seqLen, originalLen)")
	hintDynamicOffset = newHint("dynamic/missing −(s−1)", secDynamic,
		"the dynamic factor is s·L/L₀ − (s−1): without the −(s−1) it starts at s instead of 1 when L = L₀")
	hintDynamicIntDiv = newHint("dynamic/integer division", secDynamic,
		"L/L₀ was computed with integer division: for seqLen 5000 and originalLen 2048 it is 2.44…, not 2. "+
			"Convert both lengths to float64 before dividing")
	hintNTKFallback = generic("ntk/fallback", secSeen,
		"compute the frequencies base^(−2i/d) first, then apply the scaling")
)

// refScaledFreq is posenc's inverse frequencies of NewRoPE(d) with base and
// scaling sc.
func refScaledFreq(d int, base float64, sc posenc.Scaling) []float64 {
	f, err := posenc.NewRoPE(d).WithBase(base).WithScaling(sc).InvFreq()
	if err != nil {
		panic(err)
	}
	return f
}

// freqWithBase returns b^(−2i/d), divided by div.
func freqWithBase(d int, b, div float64) []float64 {
	f := make([]float64, d/2)
	for i := range f {
		f[i] = math.Pow(b, -float64(2*i)/float64(d)) / div
	}
	return f
}

// constFreq returns d/2 copies of w: the frequencies when 2i/d is 0.
func constFreq(d int, w float64) []float64 {
	f := make([]float64, d/2)
	for i := range f {
		f[i] = w
	}
	return f
}

// FreqCase is one call of a scaled-frequency function: F(D, Base, Factor)
// must equal Want, to 1e-9.
type FreqCase struct {
	Name         string
	D            int
	Base, Factor float64
	Want         []float64
}

// NTKEndsCase checks NTK-aware scaling at its two ends: NTKInvFreq(D, Base,
// Factor) must keep the first frequency at First = 1 and divide the last by
// exactly Factor, to Last.
type NTKEndsCase struct {
	Name         string
	D            int
	Base, Factor float64
	First, Last  float64
}

// DynamicCase is one call: DynamicNTKInvFreq(D, Base, Factor, OriginalLen,
// SeqLen) must equal Want, to 1e-9.
type DynamicCase struct {
	Name                string
	D                   int
	Base, Factor        float64
	OriginalLen, SeqLen int
	Want                []float64
}

// NTKCases is exercise 9's case table.
type NTKCases struct {
	Linear  []FreqCase    `doc:"LinearInvFreq(D, Base, Factor) must equal Want, to 1e-9: θ_i = Base^(−2i/D) divided by Factor."`
	NTK     []FreqCase    `doc:"NTKInvFreq(D, Base, Factor) must equal Want, to 1e-9: θ_i with the base Base·Factor^(D/(D−2))."`
	NTKEnds []NTKEndsCase `doc:"NTKInvFreq(D, Base, Factor) must start at First (the fastest pair is kept) and end at Last (the slowest is divided by exactly Factor)."`
	Dynamic []DynamicCase `doc:"DynamicNTKInvFreq(D, Base, Factor, OriginalLen, SeqLen) must equal Want, to 1e-9: NTK with the factor Factor·L/OriginalLen − (Factor−1), L = max(SeqLen, OriginalLen)."`
}

func ntkCases() NTKCases {
	lin := func(d int, base, s float64) FreqCase {
		return FreqCase{fmt.Sprintf("linear_d=%d_factor=%g", d, s), d, base, s, refScaledFreq(d, base, posenc.LinearScaling(s))}
	}
	ntk := func(d int, base, s float64) FreqCase {
		return FreqCase{fmt.Sprintf("ntk_d=%d_factor=%g", d, s), d, base, s, refScaledFreq(d, base, posenc.NTKScaling(s))}
	}
	dyn := func(d int, base, s float64, l0, seq int) DynamicCase {
		return DynamicCase{fmt.Sprintf("dynamic_d=%d_seq=%d", d, seq), d, base, s, l0, seq,
			refScaledFreq(d, base, posenc.DynamicNTKScaling(s, l0, seq))}
	}
	return NTKCases{
		Linear:  []FreqCase{lin(16, 10000, 4), lin(10, 500000, 2.5)},
		NTK:     []FreqCase{ntk(16, 10000, 4), ntk(128, 500000, 8), ntk(6, 10000, 3)},
		NTKEnds: []NTKEndsCase{{"ntk_keeps_the_highest_divides_the_lowest", 64, 10000, 4, 1, freqWithBase(64, 10000, 1)[31] / 4}},
		Dynamic: []DynamicCase{
			dyn(64, 10000, 2, 2048, 8192), dyn(64, 10000, 2, 2048, 5000), dyn(64, 10000, 2, 2048, 1000), dyn(32, 10000, 4, 4096, 4096),
		},
	}
}

// diagLinear names the idea behind a wrong linear interpolation.
func diagLinear(got []float64, c FreqCase) *Hint {
	type v = variant[[]float64]
	return firstMatch(got, sameVec(1e-9),
		v{hintLinearMultiplied, freqWithBase(c.D, c.Base, 1/c.Factor)},
		v{hintScaledIntDiv, constFreq(c.D, 1/c.Factor)},
		v{hintScaledIntDiv, constFreq(c.D, c.Factor)})
}

// diagNTK names the idea behind a wrong NTK-aware scaling.
func diagNTK(got []float64, d int, base, s float64) *Hint {
	type v = variant[[]float64]
	e := float64(d) / float64(d-2)
	return firstMatch(got, sameVec(1e-9),
		v{hintScaledIntDiv, constFreq(d, 1)},
		v{hintNTKExponent, freqWithBase(d, base*s, 1)},
		v{hintNTKInverseExponent, freqWithBase(d, base*math.Pow(s, 1/e), 1)},
		v{hintNTKIsLinear, freqWithBase(d, base, s)})
}

// dynamicVariants are the known wrong answers of dynamic NTK at seq.
func dynamicVariants(c DynamicCase, seq int) []variant[[]float64] {
	d, base, s, l0 := c.D, c.Base, c.Factor, c.OriginalLen
	e := float64(d) / float64(d-2)
	grown := func(r float64) float64 { return s*math.Max(r, 1) - (s - 1) }
	ratio := float64(seq) / float64(l0)
	type v = variant[[]float64]
	return []v{
		{hintScaledIntDiv, constFreq(d, 1)},
		{hintDynamicMax, freqWithBase(d, base*math.Pow(s*ratio-(s-1), e), 1)},
		{hintDynamicIntDiv, freqWithBase(d, base*math.Pow(grown(float64(max(seq, l0)/l0)), e), 1)},
		{hintDynamicStatic, freqWithBase(d, base*math.Pow(s, e), 1)},
		{hintDynamicOffset, freqWithBase(d, base*math.Pow(s*math.Max(ratio, 1), e), 1)},
		{hintNTKExponent, freqWithBase(d, base*grown(ratio), 1)},
	}
}

// diagDynamic names the idea behind a wrong dynamic NTK. Up to originalLen
// the static factor and the one without −(s−1) coincide: the learner's
// answer at twice originalLen tells them apart.
func diagDynamic(got []float64, c DynamicCase, dynamic func(d int, base, factor float64, originalLen, seqLen int) []float64) *Hint {
	if c.SeqLen < c.OriginalLen && slices.ContainsFunc(got, math.IsNaN) {
		// s·L/L₀ − (s−1) < 0 without the max, and a negative base gives NaN.
		return hintDynamicMax
	}
	return narrow(matchAll(got, sameVec(1e-9), dynamicVariants(c, c.SeqLen)...), func() []*Hint {
		return matchAll(dynamic(c.D, c.Base, c.Factor, c.OriginalLen, 2*c.OriginalLen), sameVec(1e-9), dynamicVariants(c, 2*c.OriginalLen)...)
	})
}

// NTK returns exercise 9's checks of linear, ntk and dynamic on cases.
func NTK(linear, ntk func(d int, base, factor float64) []float64,
	dynamic func(d int, base, factor float64, originalLen, seqLen int) []float64, cases NTKCases) *Exercise {
	var checks []Check
	freqCheck := func(name, call string, got func() []float64, want []float64, diag func([]float64) *Hint) {
		checks = append(checks, Check{Name: name, Call: call, Run: func() *Failure {
			return compareVec(call, got(), want, 1e-9, label("pair"), diag, hintNTKFallback)
		}})
	}
	for _, c := range cases.Linear {
		freqCheck(c.Name, fmt.Sprintf("LinearInvFreq(d=%d, base=%g, factor=%g)", c.D, c.Base, c.Factor),
			func() []float64 { return linear(c.D, c.Base, c.Factor) }, c.Want, func(got []float64) *Hint { return diagLinear(got, c) })
	}
	for _, c := range cases.NTK {
		freqCheck(c.Name, fmt.Sprintf("NTKInvFreq(d=%d, base=%g, factor=%g)", c.D, c.Base, c.Factor),
			func() []float64 { return ntk(c.D, c.Base, c.Factor) }, c.Want, func(got []float64) *Hint { return diagNTK(got, c.D, c.Base, c.Factor) })
	}
	for _, c := range cases.NTKEnds {
		call := fmt.Sprintf("NTKInvFreq(d=%d, base=%g, factor=%g)", c.D, c.Base, c.Factor)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := ntk(c.D, c.Base, c.Factor)
			if msg := lenMsg(call, got, c.D/2); msg != "" {
				return fail(hintNTKFallback, msg)
			}
			last := len(got) - 1
			if closeTo(got[0], c.First, 1e-12) && closeTo(got[last], c.Last, 1e-9) {
				return nil
			}
			return fail(orElse(diagNTK(got, c.D, c.Base, c.Factor), hintNTKFallback),
				fmt.Sprintf("%s: θ_0 = %s (want %s: the fastest pair is kept) and θ_%d = %s (want %s: the slowest pair is "+
					"interpolated by exactly %g).", call, fmtNum(got[0]), fmtNum(c.First), last, fmtNum(got[last]), fmtNum(c.Last), c.Factor))
		}})
	}
	for _, c := range cases.Dynamic {
		freqCheck(c.Name, fmt.Sprintf("DynamicNTKInvFreq(d=%d, base=%g, factor=%g, originalLen=%d, seqLen=%d)", c.D, c.Base, c.Factor, c.OriginalLen, c.SeqLen),
			func() []float64 { return dynamic(c.D, c.Base, c.Factor, c.OriginalLen, c.SeqLen) }, c.Want,
			func(got []float64) *Hint { return diagDynamic(got, c, dynamic) })
	}
	return newExercise(9, checks)
}
