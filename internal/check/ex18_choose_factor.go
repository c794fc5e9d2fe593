package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 18, Slug: "choose_factor", Title: "Choosing a scaling factor", Test: "TestChooseFactor",
			Funcs: []string{"PairsPastTrained", "SmallestNTKFactor"}, Lesson: 5, Section: "NTK falls short in the middle",
			Difficulty: catalog.Medium},
		Blurb: "which pairs leave their trained range at a longer length, and the smallest NTK factor that brings " +
			"them back.",
		Hints: Hints{
			Read: []Section{secSeen, secNTKShort},
			Idea: []string{
				"A pair that never finished a turn in training has met only part of the circle; at a longer " +
					"length it meets angles it never saw. NTK-aware scaling slows pair i by a factor that grows with " +
					"i, so the smallest factor that brings all such pairs back is set by the first of them.",
			},
			Formula: []string{
				"- Pair i is past its trained angles at targetLen when targetLen > trainLen and trainLen·θ_i < " +
					"2π, with θ_i = base^(−2i/d) and pair 0 included.",
				"- NTK with factor s divides pair i by s^(2i/(d−2)). The first such pair, i₀, is divided least, " +
					"and needs targetLen/trainLen: s = (targetLen/trainLen)^((d−2)/(2·i₀)). Lesson 5's head (d = " +
					"128, base 10000, 4096 → 16384) gives pairs 46 … 63 and s ≈ 6.68.",
				"- No pair past: 1. Pair 0 past (NTK never changes it): +∞.",
			},
			Code: []string{
				"- Every ratio and exponent in float64: `math.Pow(float64(targetLen)/float64(trainLen), " +
					"float64(d-2)/float64(2*i0))`, and `math.Inf(1)` when i₀ = 0.",
			},
		},
		Cases:  chooseFactorCases(),
		Checks: func(cases any) *Exercise { return ChooseFactor(nil, nil, cases.(ChooseFactorCases)) },
	})
}

var (
	hintPastTwoPi = newHint("choose factor/turns vs radians", secSeen,
		"a pair completes a turn when its angle reaches 2π radians: it never finished one in training when "+
			"trainLen·θ_i < 2π, not trainLen·θ_i < 1")
	hintPastTargetLen = newHint("choose factor/which length", secSeen,
		"whether a pair finished a turn is decided by the training length: the pairs at risk are those with "+
			"trainLen·θ_i < 2π (they only ever saw an arc), whatever targetLen is")
	hintPastNotLonger = newHint("choose factor/no longer input", secSeen,
		"when targetLen ≤ trainLen no pair reaches a new angle: return no pairs (and a factor of 1)")
	hintPastComplement = newHint("choose factor/complement", secSeen,
		"you returned the pairs that did finish a turn: those are safe, since every angle they meet later is one they "+
			"have met; the pairs past their trained angles are the slow ones, trainLen·θ_i < 2π")
	hintPastFirstPair = newHint("choose factor/pair 0 skipped", secSeen,
		"your loop starts at pair 1: pair 0 counts too. Its frequency is 1, so it never finishes a turn when "+
			"trainLen < 2π, and is then past its trained angles like the others")
	hintFactorIntRatio = newHint("choose factor/integer ratio", secNTKShort,
		"targetLen/trainLen was computed with integer division: 10000/4096 is 2.44…, not 2. Convert both to float64 "+
			"before dividing")
	hintFactorIntExponent = newHint("choose factor/integer exponent", secNTKShort,
		"the exponent (d−2)/(2i) was computed with integer division: for d = 128 and pair 46 it is 126/92 = 1.37, "+
			"not 1, and for d = 16 and pair 3 it is 14/6 = 2.33, not 2")
	hintFactorExponentOne = newHint("choose factor/last pair", secNTKShort,
		"your factor is targetLen/trainLen itself, which is what the last pair, i = d/2−1, needs. NTK divides pair i "+
			"by s^(2i/(d−2)), less for smaller i, so the pair that needs the largest factor is the first (lowest) one "+
			"past its trained angles")
	hintFactorExponent = newHint("choose factor/exponent", secNTKShort,
		"NTK-aware scaling with factor s divides pair i's frequency by s^(2i/(d−2)); it must divide the first pair "+
			"past its trained angles, i₀, by targetLen/trainLen, so s = (targetLen/trainLen)^((d−2)/(2·i₀))")
	hintFactorNone = newHint("choose factor/nothing to fix", secNTKShort,
		"when no pair is past its trained angles the smallest factor is 1 (no scaling)")
	hintFactorImpossible = newHint("choose factor/pair 0", secNTKShort,
		"when pair 0 itself never finished a turn (trainLen < 2π), no NTK factor helps, since NTK never changes "+
			"pair 0: return math.Inf(1)")
	hintPastFallback = generic("choose factor/pairs fallback", secNTKShort,
		"pair i is past its trained angles at targetLen when targetLen > trainLen and trainLen·θ_i < 2π, θ_i = base^(−2i/d)")
	hintFactorFallback = generic("choose factor/factor fallback", secNTKShort,
		"find the first pair past its trained angles, i₀, and solve s^(2·i₀/(d−2)) = targetLen/trainLen for s")
)

// refPastTrained returns the pairs past their trained angles, with variants:
// turn is the angle of one turn (2π), decideAt the length that decides
// whether a pair finished one.
func refPastTrained(d int, base float64, trainLen, targetLen int, turn float64, decideAt int, needLonger bool) []int {
	out := []int{}
	if needLonger && targetLen <= trainLen {
		return out
	}
	for i := range d / 2 {
		if float64(decideAt)*math.Pow(base, -float64(2*i)/float64(d)) < turn {
			out = append(out, i)
		}
	}
	return out
}

// refNTKFactor solves for the smallest NTK factor, with variants.
func refNTKFactor(d int, base float64, trainLen, targetLen int, intRatio, intExponent, last bool, exponent func(d, i int) float64) float64 {
	past := refPastTrained(d, base, trainLen, targetLen, 2*math.Pi, trainLen, true)
	if len(past) == 0 {
		return 1
	}
	i := past[0]
	if last {
		i = past[len(past)-1]
	}
	if i == 0 {
		return math.Inf(1)
	}
	r := float64(targetLen) / float64(trainLen)
	if intRatio {
		r = float64(targetLen / trainLen)
	}
	e := float64(d-2) / float64(2*i)
	if intExponent {
		e = float64((d - 2) / (2 * i))
	}
	if exponent != nil {
		e = exponent(d, i)
	}
	return math.Pow(r, e)
}

// pastTrainedNTK checks the answer with NTK frequencies: no pair past its
// trained angles at targetLen under factor s (the lesson's own test).
func pastTrainedNTK(d int, base float64, trainLen, targetLen int, s float64) []int {
	var out []int
	nb := base * math.Pow(s, float64(d)/float64(d-2))
	for i := range d / 2 {
		w := math.Pow(base, -float64(2*i)/float64(d))
		ws := math.Pow(nb, -float64(2*i)/float64(d))
		if float64(trainLen)*w < 2*math.Pi && float64(targetLen)*ws > float64(trainLen)*w*(1+1e-9) {
			out = append(out, i)
		}
	}
	return out
}

// PairsCase is one call: PairsPastTrained(D, Base, TrainLen, TargetLen)
// must equal Want.
type PairsCase struct {
	Name                string
	D                   int
	Base                float64
	TrainLen, TargetLen int
	Want                []int
}

// NTKFactorCase is one call: SmallestNTKFactor(D, Base, TrainLen,
// TargetLen) must equal Want, to 1e-9.
type NTKFactorCase struct {
	Name                string
	D                   int
	Base                float64
	TrainLen, TargetLen int
	Want                float64
}

// ChooseFactorCases is exercise 18's case table.
type ChooseFactorCases struct {
	Pairs  []PairsCase     `doc:"PairsPastTrained(D, Base, TrainLen, TargetLen) must equal Want: the pairs i with TrainLen·θ_i < 2π, when TargetLen > TrainLen."`
	Factor []NTKFactorCase `doc:"SmallestNTKFactor(D, Base, TrainLen, TargetLen) must equal Want, to 1e-9: s = (TargetLen/TrainLen)^((D−2)/(2·i₀)) for the first pair past its trained angles, i₀; 1 when there is none, +Inf when it is pair 0."`
}

func chooseFactorCases() ChooseFactorCases {
	pairs := func(name string, d int, base float64, trainLen, targetLen int) PairsCase {
		return PairsCase{name, d, base, trainLen, targetLen, refPastTrained(d, base, trainLen, targetLen, 2*math.Pi, trainLen, true)}
	}
	factor := func(name string, d int, base float64, trainLen, targetLen int) NTKFactorCase {
		want := refNTKFactor(d, base, trainLen, targetLen, false, false, false, nil)
		if !math.IsInf(want, 1) && len(pastTrainedNTK(d, base, trainLen, targetLen, want*(1+1e-12))) > 0 {
			panic("check: the reference NTK factor leaves pairs past their trained angles for " + name)
		}
		return NTKFactorCase{name, d, base, trainLen, targetLen, want}
	}
	return ChooseFactorCases{
		Pairs: []PairsCase{
			pairs("pairs_lesson_5_llama2_head_4096_to_16384", 128, 10000, 4096, 16384),
			pairs("pairs_llama3_base_8192_to_32768", 128, 500000, 8192, 32768),
			pairs("pairs_small_head_100_to_400", 16, 10000, 100, 400),
			pairs("pairs_same_length_nothing_past", 64, 10000, 4096, 4096),
			pairs("pairs_shorter_input_nothing_past", 64, 10000, 4096, 1000),
			pairs("pairs_pair_0_never_turned_base_16", 8, 16, 4, 5),
		},
		Factor: []NTKFactorCase{
			factor("factor_lesson_5_is_6.68", 128, 10000, 4096, 16384),
			factor("factor_lengths_not_multiples_4096_to_10000", 64, 10000, 4096, 10000),
			factor("factor_llama3_base_8192_to_32768", 128, 500000, 8192, 32768),
			factor("factor_small_head_100_to_400", 16, 10000, 100, 400),
			factor("factor_same_length_is_1", 64, 10000, 4096, 4096),
			factor("factor_pair_0_never_turned_no_factor_helps", 8, 10000, 4, 16),
		},
	}
}

// diagPairs names the idea behind a wrong list of pairs.
func diagPairs(got []int, c PairsCase) *Hint {
	d, base, trainLen, targetLen := c.D, c.Base, c.TrainLen, c.TargetLen
	all := make([]int, d/2)
	for i := range all {
		all[i] = i
	}
	complement := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return slices.Contains(c.Want, i) })
	unitFreq := []int{} // 2i/d in integers: every θ_i is 1
	if targetLen > trainLen && float64(trainLen) < 2*math.Pi {
		unitFreq = all
	}
	switch {
	case len(c.Want) > 0 && c.Want[0] == 0 && slices.Equal(got, c.Want[1:]):
		return hintPastFirstPair
	case slices.Equal(got, unitFreq) && !slices.Equal(unitFreq, c.Want):
		return hintScaledIntDiv
	case slices.Equal(got, refPastTrained(d, base, trainLen, targetLen, 1, trainLen, true)):
		return hintPastTwoPi
	case slices.Equal(got, refPastTrained(d, base, trainLen, targetLen, 2*math.Pi, targetLen, true)):
		return hintPastTargetLen
	case slices.Equal(got, refPastTrained(d, base, trainLen, targetLen, 2*math.Pi, trainLen, false)):
		return hintPastNotLonger
	case len(c.Want) > 0 && slices.Equal(got, complement):
		return hintPastComplement
	}
	return nil
}

// ChooseFactor returns exercise 18's checks of past and factor on cases.
func ChooseFactor(past func(d int, base float64, trainLen, targetLen int) []int,
	factor func(d int, base float64, trainLen, targetLen int) float64, cases ChooseFactorCases) *Exercise {
	var checks []Check
	for _, c := range cases.Pairs {
		call := fmt.Sprintf("PairsPastTrained(d=%d, base=%g, trainLen=%d, targetLen=%d)", c.D, c.Base, c.TrainLen, c.TargetLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := past(c.D, c.Base, c.TrainLen, c.TargetLen)
			if slices.Equal(got, c.Want) {
				return nil
			}
			return fail(orElse(diagPairs(got, c), hintPastFallback), fmt.Sprintf("%s = %v; want %v", call, got, c.Want))
		}})
	}
	for _, c := range cases.Factor {
		call := fmt.Sprintf("SmallestNTKFactor(d=%d, base=%g, trainLen=%d, targetLen=%d)", c.D, c.Base, c.TrainLen, c.TargetLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			got := factor(c.D, c.Base, c.TrainLen, c.TargetLen)
			if closeTo(got, c.Want, 1e-9) {
				return nil
			}
			return fail(orElse(diagFactor(got, c.Want, c.D, c.Base, c.TrainLen, c.TargetLen, past, factor), hintFactorFallback),
				fmt.Sprintf("%s = %s; want %s", call, fmtNum(got), fmtNum(c.Want)))
		}})
	}
	return newExercise(18, checks)
}

// diagFactor names the idea behind a wrong factor. A wrong list of pairs
// makes the factor wrong too: that is PairsPastTrained's mistake, reported
// by its own checks, so the factor is diagnosed only when the learner's
// pairs are right.
func diagFactor(got, want float64, d int, base float64, trainLen, targetLen int,
	past func(d int, base float64, trainLen, targetLen int) []int,
	factor func(d int, base float64, trainLen, targetLen int) float64) *Hint {
	pairs := refPastTrained(d, base, trainLen, targetLen, 2*math.Pi, trainLen, true)
	if !slices.Equal(past(d, base, trainLen, targetLen), pairs) {
		return nil
	}
	v := func(intRatio, intExp, last bool, e func(d, i int) float64) float64 {
		return refNTKFactor(d, base, trainLen, targetLen, intRatio, intExp, last, e)
	}
	switch {
	case want == 1:
		return hintFactorNone
	case math.IsInf(want, 1):
		if len(pairs) > 1 && closeTo(got, math.Pow(float64(targetLen)/float64(trainLen), float64(d-2)/float64(2*pairs[1])), 1e-9) {
			return hintFactorImpossible // solved for pair 1, as if pair 0 did not count
		}
		if closeTo(got, v(false, false, true, nil), 1e-9) {
			return hintFactorExponentOne
		}
		return nil
	case closeTo(got, v(true, false, false, nil), 1e-9):
		return hintFactorIntRatio
	case closeTo(got, v(false, true, false, nil), 1e-9) && closeTo(got, v(false, false, true, nil), 1e-9):
		// Exponent 1: the last pair's, or (d−2)/(2i) in integers. A
		// configuration where the integer exponent is 2 tells them apart.
		if closeTo(factor(16, 10000, 100, 400), math.Pow(4, 2), 1e-9) {
			return hintFactorIntExponent
		}
		return hintFactorExponentOne
	case closeTo(got, v(false, false, true, nil), 1e-9):
		return hintFactorExponentOne
	case closeTo(got, v(false, true, false, nil), 1e-9):
		return hintFactorIntExponent
	case closeTo(got, v(false, false, false, func(d, i int) float64 { return float64(d) / float64(2*i) }), 1e-9),
		closeTo(got, v(false, false, false, func(d, i int) float64 { return float64(2*i) / float64(d-2) }), 1e-9),
		closeTo(got, v(false, false, false, func(d, i int) float64 { return float64(d) / float64(d-2) }), 1e-9):
		return hintFactorExponent
	}
	return nil
}
