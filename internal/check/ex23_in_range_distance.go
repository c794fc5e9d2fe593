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
		Exercise: catalog.Exercise{Num: 23, Slug: "in_range_distance", Title: "How far a scaled RoPE stays on trained angles",
			Test: "TestInRangeDistance", Funcs: []string{"InRangeDistance"}, Lesson: 8, Section: secScaledLab.Title,
			Difficulty: catalog.Medium},
		Blurb: "from the frequencies before and after a scaling, the longest distance at which every rotary pair " +
			"still meets only angles it met in training; then compare it with the lab's recall.",
		Hints: Hints{
			Read: []Section{secSeen, secScaledLab},
			Idea: []string{
				"In training each rotary pair met the angles from 0 to trainLen times its frequency. After a " +
					"scaling, a pair stays on angles it knows until it passes the end of that arc; the model meets " +
					"something new at the first distance where any pair does.",
			},
			Formula: []string{
				"- Pair i's trained arc is arc_i = trainLen·trained[i]. If arc_i ≥ 2π (exactly 2π included) it " +
					"went all the way round and sets no limit: decide this with the trained frequency, not the " +
					"scaled one.",
				"- Any other pair leaves its arc past Δ = arc_i/scaled[i]. The answer is the smallest of these " +
					"limits over every pair, pair 0 included, and +∞ when every pair went round.",
				"- NTK at 8L on the lab's RoPE model (d = 16, base 10000, trainLen 64) gives 156.0, dynamic NTK " +
					"with factor 2 at 512 gives 204.3, position interpolation by 8 gives 512.",
			},
			Code: []string{
				"- Start from `math.Inf(1)`, loop over every pair from 0, and keep the minimum in float64, " +
					"without rounding.",
			},
		},
		Cases:  inRangeCases(),
		Checks: func(cases any) *Exercise { return InRangeDistance(nil, cases.(InRangeCases)) },
	})
}

// The lesson section the exercise and its hints cite.
var secScaledLab = Section{8, "Scaling RoPE at inference, without training"}

var (
	hintRangeNoExemption = newHint("in range/no full-turn exemption", secSeen,
		"a pair whose trained arc reaches a full turn, trainLen·trained[i] ≥ 2π, has met every angle there is, so "+
			"it sets no limit: leave it out. Your answer comes from such a pair (under NTK-aware scaling pair 0 "+
			"keeps its frequency and gives exactly trainLen)")
	hintRangeTurnedScaled = newHint("in range/turn decided with the scaled frequency", secSeen,
		"whether a pair went all the way round is decided by training: trainLen·trained[i] ≥ 2π, with the trained "+
			"frequency. A scaling slows a pair down at inference, but it does not take back the angles it met")
	hintRangeStrict = newHint("in range/exactly one turn", secSeen,
		"a pair whose arc is exactly 2π has met every angle of the circle: test trainLen·trained[i] ≥ 2π, not > 2π")
	hintRangeRadian = newHint("in range/one radian", secSeen,
		"a full turn is 2π radians, not 1: a pair is all the way round when trainLen·trained[i] ≥ 2π")
	hintRangeMax = newHint("in range/largest limit", secScaledLab,
		"you took the largest of the pairs' limits: the model meets something new as soon as the first pair leaves "+
			"its arc, so take the smallest")
	hintRangeOnePair = newHint("in range/one pair", secScaledLab,
		"you took the limit of the first (or last) pair that did not go round: every such pair has its own limit, "+
			"arc_i/scaled[i], and the answer is the smallest over all of them")
	hintRangeInverted = newHint("in range/ratio upside down", secScaledLab,
		"pair i is at Δ·scaled[i] at distance Δ and met angles up to trainLen·trained[i], so it leaves its arc past "+
			"Δ = trainLen·trained[i]/scaled[i]: a scaling that slows the pair (scaled < trained) must lengthen the "+
			"distance, not shorten it")
	hintRangeMinusOne = newHint("in range/trainLen − 1", secSeen,
		"the stub uses lesson 5's convention: the largest angle pair i met in training is trainLen·trained[i], at "+
			"distance trainLen, not (trainLen − 1)·trained[i]")
	hintRangeRounded = newHint("in range/rounded", secScaledLab,
		"do not round the distance to a whole number: return arc_i/scaled[i] as it is (dynamic NTK at 512 on the "+
			"lab's RoPE model gives 204.3)")
	hintRangeNoInf = newHint("in range/no limit", secScaledLab,
		"when every pair went all the way round in training, no distance takes any pair off its trained angles: "+
			"return math.Inf(1), not 0, −1 or a large number")
	hintRangeIgnoresScaled = newHint("in range/scaled unused", secScaledLab,
		"the scaled frequencies decide how fast each pair turns at inference: at distance Δ pair i is at "+
			"Δ·scaled[i], not Δ·trained[i]")
	hintRangeMutates = newHint("in range/mutates", Section{},
		"your code changed trained or scaled (kept a ratio in it, or marked the pairs that went round?): leave the "+
			"caller's slices as they were")
	hintRangeFirstPair = newHint("in range/pair 0 skipped", secSeen,
		"your loop starts at pair 1: pair 0 counts too. Its frequency is the fastest, so it usually goes all the way "+
			"round, but not when trainLen·trained[0] < 2π, and then it can set the limit")
	hintRangeFallback = generic("in range/fallback", secScaledLab,
		"leave out the pairs with trainLen·trained[i] ≥ 2π; the answer is the smallest trainLen·trained[i]/scaled[i] "+
			"over the others, and math.Inf(1) when there are none")
)

// rangeInput is one call's arguments.
type rangeInput struct {
	trained, scaled []float64
	trainLen        int
}

// rangeOpts are the ideas behind the reference and its wrong variants.
type rangeOpts struct {
	turn       float64               // the arc that counts as all the way round (2π)
	strict     bool                  // arc > turn instead of ≥
	turnScaled bool                  // decide the turn with the scaled frequency
	noExempt   bool                  // every pair sets a limit
	pick       string                // "min" (right), "max", "first", "last"
	inverted   bool                  // trainLen·scaled/trained
	minusOne   bool                  // (trainLen − 1)
	round      func(float64) float64 // rounded to a whole number
	none       float64               // the answer with no limit (+Inf)
	unscaled   bool                  // trained in place of scaled
	skipFirst  bool                  // the loop starts at pair 1
}

var rangeRight = rangeOpts{turn: 2 * math.Pi, pick: "min", none: math.Inf(1)}

// refRange computes the in-range distance with the ideas of o.
func refRange(in rangeInput, o rangeOpts) float64 {
	var limits []float64
	l := float64(in.trainLen)
	if o.minusOne {
		l--
	}
	for i, w := range in.trained {
		if o.skipFirst && i == 0 {
			continue
		}
		ws := in.scaled[i]
		if o.unscaled {
			ws = w
		}
		arc := float64(in.trainLen) * w
		if o.turnScaled {
			arc = float64(in.trainLen) * ws
		}
		if !o.noExempt && (arc >= o.turn && !o.strict || arc > o.turn) {
			continue
		}
		limit := l * w / ws
		if o.inverted {
			limit = l * ws / w
		}
		limits = append(limits, limit)
	}
	if len(limits) == 0 {
		return o.none
	}
	var d float64
	switch o.pick {
	case "min":
		d = slices.Min(limits)
	case "max":
		d = slices.Max(limits)
	case "first":
		d = limits[0]
	case "last":
		d = limits[len(limits)-1]
	}
	if o.round != nil {
		d = o.round(d)
	}
	return d
}

// rangeVariants returns the known wrong answers for in, with their hints.
func rangeVariants(in rangeInput) []variant[float64] {
	with := func(change func(o *rangeOpts)) float64 {
		o := rangeRight
		change(&o)
		return refRange(in, o)
	}
	return []variant[float64]{
		{hintRangeNoExemption, with(func(o *rangeOpts) { o.noExempt = true })},
		{hintRangeTurnedScaled, with(func(o *rangeOpts) { o.turnScaled = true })},
		{hintRangeStrict, with(func(o *rangeOpts) { o.strict = true })},
		{hintRangeRadian, with(func(o *rangeOpts) { o.turn = 1 })},
		{hintRangeMax, with(func(o *rangeOpts) { o.pick = "max" })},
		{hintRangeOnePair, with(func(o *rangeOpts) { o.pick = "first" })},
		{hintRangeOnePair, with(func(o *rangeOpts) { o.pick = "last" })},
		{hintRangeInverted, with(func(o *rangeOpts) { o.inverted = true })},
		{hintRangeMinusOne, with(func(o *rangeOpts) { o.minusOne = true })},
		{hintRangeRounded, with(func(o *rangeOpts) { o.round = math.Floor })},
		{hintRangeRounded, with(func(o *rangeOpts) { o.round = math.Round })},
		{hintRangeNoInf, with(func(o *rangeOpts) { o.none = 0 })},
		{hintRangeNoInf, with(func(o *rangeOpts) { o.none = -1 })},
		{hintRangeNoInf, with(func(o *rangeOpts) { o.none = math.MaxFloat64 })},
		{hintRangeIgnoresScaled, with(func(o *rangeOpts) { o.unscaled = true })},
		{hintRangeFirstPair, with(func(o *rangeOpts) { o.skipFirst = true })},
	}
}

// rangeSame compares two distances: equal infinities, or within 1e-9.
func rangeSame(a, b float64) bool { return closeTo(a, b, 1e-9) }

// rangeProbes tell apart ideas that one check's input may not.
var rangeProbes = []rangeInput{
	// The lab's rope-hd8 model under NTK ×8: right 256; turn decided with
	// the scaled frequency 128; no exemption 64; largest or last limit 512.
	hd8Range(posenc.NTKScaling(8)),
	// A middle pair sets the limit: right 150; first 200, last and largest 300.
	middlePair,
	// The last pair is not the farthest: right 200, last 300, largest 500.
	lastNotFarthest,
	// Every pair went round: right +Inf.
	{[]float64{1, 0.5}, []float64{0.5, 0.25}, 64},
}

// Three pairs that did not go round in 100 tokens, with limits 200, 150
// and 300 …
var middlePair = rangeInput{[]float64{1, 0.05, 0.01, 0.002}, []float64{1, 0.05 / 2, 0.01 / 1.5, 0.002 / 3}, 100}

// … and 200, 500 and 300.
var lastNotFarthest = rangeInput{[]float64{1, 0.05, 0.01, 0.002}, []float64{1, 0.05 / 2, 0.01 / 5, 0.002 / 3}, 100}

// labRange returns the lab's RoPE model (head dimension 16, base 10000,
// trained on 64 tokens) before and after sc.
func labRange(sc posenc.Scaling) rangeInput {
	return rangeInput{refScaledFreq(16, 10000, posenc.Scaling{}), refScaledFreq(16, 10000, sc), 64}
}

// hd8Range returns the lab's rope-hd8 model (head dimension 8, the rest as
// labRange's) before and after sc.
func hd8Range(sc posenc.Scaling) rangeInput {
	return rangeInput{refScaledFreq(8, 10000, posenc.Scaling{}), refScaledFreq(8, 10000, sc), 64}
}

// checkRangeRef checks the reference against the definition, by angles: at
// a distance just short of it no pair that did not go round is past its
// trained arc, and just beyond it one is.
func checkRangeRef(name string, in rangeInput, want float64) {
	past := func(dist float64) bool {
		for i, w := range in.trained {
			arc := float64(in.trainLen) * w
			if arc < 2*math.Pi && dist*in.scaled[i] > arc {
				return true
			}
		}
		return false
	}
	if math.IsInf(want, 1) {
		if past(1e300) {
			panic("check: the reference in-range distance is +Inf, yet a pair leaves its arc, for " + name)
		}
		return
	}
	if past(want*(1-1e-9)) || !past(want*(1+1e-9)) {
		panic("check: the reference in-range distance disagrees with the angles for " + name)
	}
}

// InRangeCase is one call: InRangeDistance(Trained, Scaled, TrainLen) must
// equal Want, to 1e-9 (+Inf exactly).
type InRangeCase struct {
	Name            string
	Trained, Scaled []float64
	TrainLen        int
	Want            float64
}

// InRangeCases is exercise 23's case table.
type InRangeCases struct {
	Distance []InRangeCase `doc:"InRangeDistance(Trained, Scaled, TrainLen) must equal Want, to 1e-9: the smallest TrainLen·Trained[i]/Scaled[i] over the pairs with TrainLen·Trained[i] < 2π, +Inf when there are none. The lab rows are its RoPE model (d = 16, base 10000, trained on 64 tokens) under each scaling, the hd8 rows its rope-hd8 model (d = 8); the lesson 5 rows a Llama 2 head (d = 128, 4096 tokens)."`
}

func inRangeCases() InRangeCases {
	row := func(name string, in rangeInput) InRangeCase {
		want := refRange(in, rangeRight)
		checkRangeRef(name, in, want)
		return InRangeCase{name, in.trained, in.scaled, in.trainLen, want}
	}
	llama2 := func(sc posenc.Scaling) rangeInput {
		return rangeInput{refScaledFreq(128, 10000, posenc.Scaling{}), refScaledFreq(128, 10000, sc), 4096}
	}
	// Pair 1 of a two-pair head turns exactly once in 64 tokens: 64·(2π/64)
	// is 2π exactly in float64.
	oneTurn := rangeInput{[]float64{1, 2 * math.Pi / 64}, []float64{0.25, 2 * math.Pi / 64 / 4}, 64}
	hd8 := refScaledFreq(8, 10000, posenc.Scaling{})
	return InRangeCases{Distance: []InRangeCase{
		row("lab_no_scaling_is_L", labRange(posenc.Scaling{})),
		row("lab_pi_x8_is_8L", labRange(posenc.LinearScaling(8))),
		row("lab_ntk_x8_is_156.0", labRange(posenc.NTKScaling(8))),
		row("lab_dynamic_ntk_at_8L_is_204.3", labRange(posenc.DynamicNTKScaling(2, 64, 512))),
		row("lab_yarn_x8_is_8L", labRange(posenc.YaRNScaling(8, 64))),
		row("lab_ntk_x2_is_86.1", labRange(posenc.NTKScaling(2))),
		row("hd8_ntk_x8_is_4L", hd8Range(posenc.NTKScaling(8))),
		row("hd8_dynamic_ntk_at_8L_is_389.3", hd8Range(posenc.DynamicNTKScaling(2, 64, 512))),
		row("hd8_ntk_x2_is_101.6", hd8Range(posenc.NTKScaling(2))),
		row("lesson_5_ntk_x4_falls_short_of_16384", llama2(posenc.NTKScaling(4))),
		row("lesson_5_ntk_x6.68_reaches_16384", llama2(posenc.NTKScaling(math.Pow(4, 126/92.0)))),
		row("lesson_5_yarn_x4_reaches_16384", llama2(posenc.YaRNScaling(4, 4096))),
		row("pair_0_sets_the_limit", rangeInput{[]float64{1, 0.5}, []float64{0.5, 0.1}, 4}),
		row("a_middle_pair_sets_the_limit", middlePair),
		row("the_last_pair_is_not_the_farthest", lastNotFarthest),
		row("faster_frequencies_halve_it", rangeInput{hd8, []float64{2 * hd8[0], 2 * hd8[1], 2 * hd8[2], 2 * hd8[3]}, 64}),
		row("exactly_one_turn_is_all_the_way_round", oneTurn),
		row("every_pair_went_round_is_inf", rangeInput{hd8, slices.Clone(hd8), 1 << 20}),
	}}
}

var inRangeArgs = argHints{hintRangeMutates, hintRangeMutates}

// diagInRange names the idea behind a wrong distance, telling apart ideas
// that give the same answer for one input by the learner's answers on
// rangeProbes.
func diagInRange(got float64, in rangeInput, fn func(trained, scaled []float64, trainLen int) float64) *Hint {
	answers := func() []float64 {
		out := make([]float64, len(rangeProbes))
		for i, p := range rangeProbes {
			out[i] = fn(slices.Clone(p.trained), slices.Clone(p.scaled), p.trainLen)
		}
		return out
	}
	return consistentHint(got, rangeSame, rangeVariants(in), answers, func(p int) []variant[float64] { return rangeVariants(rangeProbes[p]) })
}

// InRangeDistance returns exercise 23's checks of fn on cases.
func InRangeDistance(fn func(trained, scaled []float64, trainLen int) float64, cases InRangeCases) *Exercise {
	var checks []Check
	for _, c := range cases.Distance {
		in := rangeInput{c.Trained, c.Scaled, c.TrainLen}
		call := fmt.Sprintf("InRangeDistance(trained=%s, scaled=%s, trainLen=%d)", fmtVec(in.trained, 0), fmtVec(in.scaled, 0), in.trainLen)
		checks = append(checks, Check{Name: c.Name, Call: call, Run: func() *Failure {
			trained, scaled := slices.Clone(c.Trained), slices.Clone(c.Scaled)
			got := fn(trained, scaled, c.TrainLen)
			if !rangeSame(got, c.Want) {
				return fail(orElse(diagInRange(got, in, fn), hintRangeFallback), fmt.Sprintf("%s = %s; want %s", call, fmtNum(got), fmtNum(c.Want)))
			}
			return inRangeArgs.check(call, got, arg{"trained", trained, c.Trained}, arg{"scaled", scaled, c.Scaled})
		}})
	}
	return newExercise(23, checks)
}
