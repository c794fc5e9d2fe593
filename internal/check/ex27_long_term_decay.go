package check

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 27, Slug: "long_term_decay", Title: "Is the base large enough?", Test: "TestLongTermDecay",
			Funcs: []string{"KeepsLongTermDecay"}, Lesson: 9, Section: secBase.Title, Difficulty: catalog.Medium},
		Blurb: "Men et al.'s long-term decay: does B(m) = Σ cos(m·ω_i) stay non-negative over the whole context?",
		Hints: Hints{
			Read: []Section{secBase},
			Idea: []string{
				"A query should stay more aligned with a similar key than with a random one at every distance of " +
					"the context; for random vectors that margin is B(m), which falls with m, and sooner for a small base.",
			},
			Formula: []string{
				"- B(m) = Σ_i cos(m·ω_i) over the headDim/2 pairs, ω_i = base^(−2i/headDim); B(0) = headDim/2.",
				"- Check every distance m from 0 to contextLen, contextLen included: B(m) dips below zero and can " +
					"come back up, so the last distance alone is not enough.",
			},
		},
		Cases:  decayCases(),
		Checks: func(cases any) *Exercise { return LongTermDecay(nil, cases.(LongTermDecayCases)) },
	})
}

var secBase = Section{9, "How large must the base be?"}

var (
	hintDecayOnlyLast = newHint("long-term decay/last distance only", secBase,
		"B(m) is not monotonic: it can dip below zero at some m < contextLen and be positive again at contextLen. "+
			"Check every distance from 0 to contextLen")
	hintDecayOffByOne = newHint("long-term decay/context excluded", secBase,
		"the context includes the distance contextLen itself: check m = 0 … contextLen, m ≤ contextLen")
	hintDecaySin = newHint("long-term decay/sine", secBase,
		"B(m) sums cosines, Σ cos(m·ω_i): it starts at headDim/2 for m = 0 and measures how aligned a rotated "+
			"query stays with its key")
	hintDecayIntExponent = newHint("long-term decay/integer exponent", secBase,
		"the exponent 2i/headDim was computed with integer division, so every ω_i is 1: convert to float64 "+
			"before dividing")
	hintDecayDims = newHint("long-term decay/dimensions, not pairs", secBase,
		"the sum runs over the headDim/2 pairs, ω_i = base^(−2i/headDim), not over headDim dimensions with "+
			"base^(−i/headDim)")
	hintDecayNoTwo = newHint("long-term decay/exponent without 2", secBase,
		"ω_i = base^(−2i/headDim): the exponent has a factor 2, since pair i spans dimensions 2i and 2i+1; without "+
			"it the slowest pair turns at base^(−1/2) instead of nearly base^(−1)")
	hintDecayFloat32 = newHint("long-term decay/float32 angles", secBase,
		"B(m) comes within 10^−5 of 0 on this row, and float32 angles (m·ω_i rounded to 24 bits, off by up to "+
			"m·2^−24 rad) move it by 10^−4: compute the angles and the cosines in float64")
	hintDecayFallback = generic("long-term decay/fallback", secBase,
		"return false as soon as some m in 0 … contextLen has Σ_i cos(m·base^(−2i/headDim)) < 0, and true otherwise")
)

// decayRule is one way of computing the property: the right one (zero
// value) or a mistake.
type decayRule struct {
	onlyLast, offByOne, sin, intExponent, dims, noTwo, float32 bool
}

// refDecay evaluates the property with rule r, directly from its definition.
func refDecay(d int, base float64, L int, r decayRule) bool {
	n, step := d/2, 2.0
	if r.dims {
		n, step = d, 1
	}
	b := func(m int) float64 {
		s := 0.0
		for i := range n {
			e := step * float64(i) / float64(d)
			switch {
			case r.intExponent:
				e = float64(int(step) * i / d)
			case r.noTwo:
				e = float64(i) / float64(d)
			}
			a := float64(m) * math.Pow(base, -e)
			if r.float32 {
				a = float64(float32(m) * float32(math.Pow(base, -e)))
			}
			if r.sin {
				s += math.Sin(a)
			} else {
				s += math.Cos(a)
			}
		}
		return s
	}
	if r.onlyLast {
		return b(L) >= 0
	}
	last := L
	if r.offByOne {
		last = L - 1
	}
	for m := 0; m <= last; m++ {
		if b(m) < 0 {
			return false
		}
	}
	return true
}

// firstNegative returns the first distance where B(m) < 0, by posenc.
func firstNegative(d int, base float64, upTo int) int {
	r := posenc.NewRoPE(d).WithBase(base)
	for L := 1; L <= upTo; L++ {
		if b, _, _ := posenc.MinLongTermDecay(r, L); b < 0 {
			return L
		}
	}
	panic("check: B(m) stays non-negative")
}

// DecayCase is one call: KeepsLongTermDecay(HeadDim, Base, ContextLen) must
// return Want.
type DecayCase struct {
	Name       string
	HeadDim    int
	Base       float64
	ContextLen int
	Want       bool
}

// LongTermDecayCases is exercise 27's case table.
type LongTermDecayCases struct {
	Calls []DecayCase `doc:"KeepsLongTermDecay(HeadDim, Base, ContextLen) must return Want: whether Σ_i cos(m·Base^(−2i/HeadDim)) ≥ 0 for every m in 0 … ContextLen (posenc.MinLongTermDecay)."`
}

func decayCases() LongTermDecayCases {
	row := func(name string, d int, base float64, L int) DecayCase {
		b, _, err := posenc.MinLongTermDecay(posenc.NewRoPE(d).WithBase(base), L)
		if err != nil {
			panic(err)
		}
		if want := b >= 0; want != refDecay(d, base, L, decayRule{}) {
			panic("check: the direct definition disagrees with posenc for " + name)
		}
		return DecayCase{name, d, base, L, b >= 0}
	}
	m0 := firstNegative(16, 10000, 100000)
	recovered := m0 + 1
	for refDecay(16, 10000, recovered, decayRule{onlyLast: true}) == false {
		recovered++
	}
	bound := func(d, L int) float64 {
		b, err := posenc.RoPEBaseLowerBound(d, L)
		if err != nil {
			panic(err)
		}
		return b
	}
	// Two bases where min B over 0 … 4096 (head 64, gpt-oss's size) lies
	// within 2·10^−5 of 0, one on each side, so that float32 angles flip
	// the answer; found by bisecting min B in the base.
	nearZero := func(name string, base float64, want bool) DecayCase {
		c := row(name, 64, base, 4096)
		b, _, _ := posenc.MinLongTermDecay(posenc.NewRoPE(64).WithBase(base), 4096)
		if c.Want != want || math.Abs(b) > 2e-5 || refDecay(64, base, 4096, decayRule{float32: true}) == want {
			panic(fmt.Sprintf("check: exercise 27's row %s no longer has min B near 0 (%g) that float32 flips", name, b))
		}
		return c
	}
	return LongTermDecayCases{Calls: []DecayCase{
		row("context_0_is_B(0)=d/2", 8, 2, 0),
		row("short_context_3", 16, 10000, 3),
		row("one_before_the_first_dip", 16, 10000, m0-1),
		row("first_dip_exactly_at_the_context", 16, 10000, m0),
		row("dips_then_recovers_by_the_context", 16, 10000, recovered),
		row("lesson_9_bound_for_1024_holds", 128, bound(128, 1024)*1.001, 1024),
		row("gpt_oss_head_base_150000_over_4096", 64, 150000, 4096),
		row("llama_3.1_base_5e5_over_its_trained_8192", 128, 5e5, 8192),
		nearZero("head_64_base_159020.83_holds_by_5e-6", 159020.83, true),
		nearZero("head_64_base_141363.05_fails_by_1.5e-5", 141363.05, false),
	}}
}

// LongTermDecay returns exercise 27's checks of fn on cases. A wrong answer
// is a single boolean, so the mistake is named by the learner's answers on
// every row of the table: the rule that gives all of them.
func LongTermDecay(fn func(headDim int, base float64, contextLen int) bool, cases LongTermDecayCases) *Exercise {
	diag := func() *Hint {
		for _, v := range []struct {
			hint *Hint
			rule decayRule
		}{
			{hintDecayOffByOne, decayRule{offByOne: true}},
			{hintDecayOnlyLast, decayRule{onlyLast: true}},
			{hintDecaySin, decayRule{sin: true}},
			{hintDecayIntExponent, decayRule{intExponent: true}},
			{hintDecayDims, decayRule{dims: true}},
			{hintDecayNoTwo, decayRule{noTwo: true}},
			{hintDecayFloat32, decayRule{float32: true}},
		} {
			all := true
			for _, c := range cases.Calls {
				all = all && fn(c.HeadDim, c.Base, c.ContextLen) == refDecay(c.HeadDim, c.Base, c.ContextLen, v.rule)
			}
			if all {
				return v.hint
			}
		}
		return nil
	}
	var checks []Check
	for _, c := range cases.Calls {
		call := fmt.Sprintf("KeepsLongTermDecay(headDim=%d, base=%g, contextLen=%d)", c.HeadDim, c.Base, c.ContextLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			if got := fn(c.HeadDim, c.Base, c.ContextLen); got != c.Want {
				return fail(orElse(diag(), hintDecayFallback), fmt.Sprintf("%s = %v; want %v", call, got, c.Want))
			}
			return nil
		}})
	}
	return newExercise(27, checks)
}
