package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 22, Slug: "usable_context", Title: "Usable context from a recall evaluation",
			Test: "TestUsableContext", Funcs: []string{"UsableContext"}, Lesson: 8, Section: secRecall.Title,
			Difficulty: catalog.Easy},
		Blurb: "read a run's recall at each distance, as the lab's results hold it, and find the longest distance " +
			"up to which the model retrieves reliably.",
		Hints: Hints{
			Read: []Section{secRecall},
			Idea: []string{
				"The usable context is how far the model retrieves reliably with no gap: walk the measurements " +
					"from the shortest distance up, and stop at the first that fails.",
			},
			Formula: []string{
				"- Visit the measurements by increasing distance, whatever order they come in, the shortest " +
					"included. Stop at the first that is undefined or below the threshold (an accuracy equal to the " +
					"threshold passes); the answer is the distance of the last one before it, 0 if there is none.",
				"- A later distance that passes again does not count: the model already failed closer than that.",
			},
			Code: []string{
				"- Sort a slice of indices, `slices.SortFunc(order, func(a, b int) int { return distances[a] - " +
					"distances[b] })`, not the arguments: sorting `distances` alone parts each distance from its " +
					"accuracy, and sorting all three changes the caller's data.",
				"- Look at `defined[i]` before `accuracy[i]`: an undefined entry's accuracy may read anything, 1 " +
					"or NaN included.",
			},
		},
		Cases:  usableCases(),
		Checks: func(cases any) *Exercise { return UsableContext(nil, cases.(UsableCases)) },
	})
}

// The lesson section the exercise and its hints cite.
var secRecall = Section{8, "Recall that measures position"}

var (
	hintUsableStrict = newHint("usable context/strict", secRecall,
		"an accuracy exactly at the threshold passes: test accuracy ≥ threshold (stop when accuracy < threshold), "+
			"not accuracy > threshold")
	hintUsableSkipsUndefined = newHint("usable context/skips undefined", secRecall,
		"an undefined distance ends the usable context, like a failure: the model has no answer there at all, so "+
			"it cannot be relied on at that distance or beyond. Do not skip it and carry on")
	hintUsableIgnoresDefined = newHint("usable context/ignores defined", secRecall,
		"an undefined measurement's accuracy means nothing (it may read 1, or NaN, which passes a test like "+
			"accuracy < threshold): look at defined[i] first, and stop there when it is false")
	hintUsableGivenOrder = newHint("usable context/given order", secRecall,
		"the measurements may come in any order: visit them by increasing distance (sort a slice of indices by "+
			"distance), not in the order of the slices")
	hintUsableUnpaired = newHint("usable context/unpaired sort", secRecall,
		"you sorted the distances but read the accuracies in their old order: each accuracy and defined flag "+
			"belongs to its distance, so sort indices (or the three together), never distances alone")
	hintUsableNotPrefix = newHint("usable context/not a prefix", secRecall,
		"the usable context needs every shorter distance to pass as well: stop at the first failure instead of "+
			"taking the longest distance that passes")
	hintUsableFirstFailure = newHint("usable context/first failure", secRecall,
		"you returned the first distance that fails: the usable context is the distance of the last measurement "+
			"that passes before it (0 when the first one fails)")
	hintUsableCount = newHint("usable context/count", secRecall,
		"you returned how many measurements pass; return the distance of the last one that does")
	hintUsableEmpty = newHint("usable context/no measurements", secRecall,
		"with no measurements there is no usable context: return 0 (and do not read distances[0])")
	hintUsableMutates = newHint("usable context/mutates", Section{},
		"your code changed the caller's slices (sorted them in place, or zeroed the undefined accuracies?): sort a "+
			"slice of indices, or copies, and leave the arguments as they were")
	hintUsableSkipsFirst = newHint("usable context/shortest skipped", secRecall,
		"your scan starts at the second shortest distance: the shortest one is a measurement too, and when it fails "+
			"the usable context is 0")
	hintUsableFallback = generic("usable context/fallback", secRecall,
		"the usable context at threshold t is the longest measured distance D such that every measurement at a "+
			"distance up to D is defined and has accuracy ≥ t; 0 when the shortest distance already fails")
)

// recallRun is one run's recall evaluation, as three parallel slices.
type recallRun struct {
	dist []int
	acc  []float64
	def  []bool
}

func (r recallRun) clone() recallRun {
	return recallRun{slices.Clone(r.dist), slices.Clone(r.acc), slices.Clone(r.def)}
}

// permuted returns r's measurements in the order perm gives.
func (r recallRun) permuted(perm []int) recallRun {
	var out recallRun
	for _, i := range perm {
		out.dist, out.acc, out.def = append(out.dist, r.dist[i]), append(out.acc, r.acc[i]), append(out.def, r.def[i])
	}
	return out
}

// passes reports whether measurement i passes at threshold t.
func (r recallRun) passes(i int, t float64) bool { return r.def[i] && r.acc[i] >= t }

// refUsable is the usable context by its definition, without sorting: the
// longest measured distance D such that every measurement at a distance up
// to D passes.
func refUsable(r recallRun, t float64) int {
	best := 0
	for _, d := range r.dist {
		ok := true
		for j, dj := range r.dist {
			if dj <= d && !r.passes(j, t) {
				ok = false
			}
		}
		if ok {
			best = max(best, d)
		}
	}
	return best
}

// byDistance returns r's indices in increasing distance.
func (r recallRun) byDistance() []int {
	idx := make([]int, len(r.dist))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return r.dist[a] - r.dist[b] })
	return idx
}

// scanUsable scans measurements in the order given, stopping at the first
// one stop says fails: the idea behind several wrong answers.
func scanUsable(dist []int, order []int, stop func(i int) bool) int {
	usable := 0
	for _, i := range order {
		if stop(i) {
			break
		}
		usable = dist[i]
	}
	return usable
}

// usableVariants returns the known wrong answers for r at threshold t, each
// with the hint that names its idea.
func usableVariants(r recallRun, t float64) []variant[int] {
	sorted := r.byDistance()
	given := make([]int, len(r.dist))
	for i := range given {
		given[i] = i
	}
	fails := func(i int) bool { return !r.passes(i, t) }
	// The distances sorted alone, the accuracies and flags left in place.
	unpaired := scanUsable(slices.Sorted(slices.Values(r.dist)), given, fails)
	maxPassing, firstFailure, count := 0, 0, 0
	for _, i := range sorted {
		if r.passes(i, t) {
			maxPassing = max(maxPassing, r.dist[i])
		}
	}
	for _, i := range sorted {
		if fails(i) {
			firstFailure = r.dist[i]
			break
		}
		count++
	}
	var skipped []int
	for _, i := range sorted {
		if r.def[i] {
			skipped = append(skipped, i)
		}
	}
	return []variant[int]{
		{hintUsableSkipsFirst, scanUsable(r.dist, sorted[min(1, len(sorted)):], fails)},
		{hintUsableStrict, scanUsable(r.dist, sorted, func(i int) bool { return !r.def[i] || !(r.acc[i] > t) })},
		{hintUsableSkipsUndefined, scanUsable(r.dist, skipped, fails)},
		{hintUsableIgnoresDefined, scanUsable(r.dist, sorted, func(i int) bool { return r.acc[i] < t })},
		{hintUsableGivenOrder, scanUsable(r.dist, given, fails)},
		{hintUsableUnpaired, unpaired},
		{hintUsableNotPrefix, maxPassing},
		{hintUsableFirstFailure, firstFailure},
		{hintUsableCount, count},
	}
}

// diagUsable names the idea behind a wrong answer got for r at threshold t,
// telling apart ideas that give the same answer there by the learner's
// answers on usableProbes.
func diagUsable(got int, r recallRun, t float64, fn func(distances []int, accuracy []float64, defined []bool, threshold float64) int) *Hint {
	answers := func() []int {
		out := make([]int, len(usableProbes))
		for i, p := range usableProbes {
			c := p.run.clone()
			out[i] = fn(c.dist, c.acc, c.def, p.t)
		}
		return out
	}
	return consistentHint(got, func(a, b int) bool { return a == b }, usableVariants(r, t), answers, func(p int) []variant[int] {
		return usableVariants(usableProbes[p].run, usableProbes[p].t)
	})
}

// usableProbes are small evaluations that tell apart wrong ideas one
// check's input may not.
var usableProbes = []struct {
	run recallRun
	t   float64
}{
	// An undefined distance reading 1 (answer 2; skipping it or ignoring the
	// flag both give 16) …
	{recallRun{[]int{2, 4, 8, 16}, []float64{1, 1, 1, 1}, []bool{true, false, true, true}}, 0.9},
	// … and one reading 0 (answer 2; skipping it gives 8, ignoring the flag 2).
	{recallRun{[]int{2, 4, 8}, []float64{1, 0, 1}, []bool{true, false, true}}, 0.9},
	// Shuffled (answer 10; in the given order 40, distances sorted alone 30).
	{recallRun{[]int{30, 10, 40, 20, 50}, []float64{1, 1, 1, 0, 1}, []bool{true, true, true, true, true}}, 0.9},
	// An accuracy at the threshold (answer 16; strict 4).
	{recallRun{[]int{4, 8, 16, 32, 64}, []float64{1, 0.5, 1, 0.25, 1}, []bool{true, true, true, true, true}}, 0.5},
}

// Four evaluations shaped like the lab's: twelve distances inside and past
// L = 64, accuracies in steps of 1/32 (32 probes a distance). They are test
// data with the shapes real runs have (a cliff, a late pass after a
// failure, a slow decline, undefined entries past a learned table), not the
// committed results, which lesson 8 reads with your function.
var (
	labDistances = []int{4, 8, 16, 32, 48, 62, 96, 126, 192, 254, 384, 510}
	allDefined   = []bool{true, true, true, true, true, true, true, true, true, true, true, true}
	ropeRun      = recallRun{labDistances, []float64{1, 1, 1, 1, 1, 1, 1, 0.96875, 0, 0, 0, 0}, allDefined}
	alibiRun     = recallRun{labDistances, []float64{0.96875, 0.84375, 0.9375, 0.9375, 0.90625, 1, 0.71875, 0.6875, 0.5,
		0.375, 0.34375, 0.1875}, allDefined}
	ntkRun     = recallRun{labDistances, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 0.875, 0.90625, 0.84375}, allDefined}
	learnedRun = recallRun{labDistances, []float64{1, 0.96875, 0.96875, 1, 1, 0.90625, 0, 0, 0, 0, 0, 0},
		[]bool{true, true, true, true, true, true, false, false, false, false, false, false}}
)

// UsableCase is one call: UsableContext(Distances, Accuracy, Defined,
// Threshold) must equal Want.
type UsableCase struct {
	Name      string
	Distances []int
	Accuracy  []float64
	Defined   []bool
	Threshold float64
	Want      int
}

// UsableCases is exercise 22's case table.
type UsableCases struct {
	Usable []UsableCase `doc:"UsableContext(Distances, Accuracy, Defined, Threshold) must equal Want: the longest distance D such that every measurement at a distance up to D is defined with an accuracy ≥ Threshold, 0 when the shortest already fails. The first rows have the shapes of lab evaluations (test data, not the committed results); some rows come in shuffled order."`
}

func usableCases() UsableCases {
	row := func(name string, r recallRun, t float64) UsableCase {
		return UsableCase{name, r.dist, r.acc, r.def, t, refUsable(r, t)}
	}
	// The rope run shuffled: its answer is 126 only if the measurements are
	// visited by distance.
	shuffled := ropeRun.permuted([]int{9, 2, 7, 0, 11, 5, 1, 8, 3, 6, 10, 4})
	learnedOnes := learnedRun.clone() // undefined entries that read 1
	for i, d := range learnedOnes.def {
		if !d {
			learnedOnes.acc[i] = 1
		}
	}
	nan := math.NaN()
	return UsableCases{Usable: []UsableCase{
		row("cliff_at_0.9_is_126", ropeRun, 0.9),
		row("stops_before_a_late_pass", ntkRun, 0.9),
		row("slow_decline_at_0.9_is_4", alibiRun, 0.9),
		row("slow_decline_at_0.5_is_192", alibiRun, 0.5),
		row("accuracy_exactly_at_the_threshold_passes", ropeRun, 0.96875),
		row("undefined_past_62", learnedRun, 0.9),
		row("undefined_entries_reading_1_still_end_it", learnedOnes, 0.5),
		row("undefined_in_the_middle_ends_it", recallRun{[]int{4, 8, 16, 32}, []float64{1, nan, 1, 1},
			[]bool{true, false, true, true}}, 0.9),
		row("shortest_distance_fails_is_0", recallRun{[]int{4, 8, 16}, []float64{0.5, 1, 1}, []bool{true, true, true}}, 0.9),
		row("every_distance_passes", recallRun{labDistances, slices.Repeat([]float64{1}, len(labDistances)), allDefined}, 0.9),
		row("any_order", shuffled, 0.9),
		row("any_order_with_an_undefined_distance", learnedRun.permuted([]int{11, 3, 0, 6, 9, 1, 5, 10, 2, 7, 4, 8}), 0.9),
		row("no_measurements_is_0", recallRun{[]int{}, []float64{}, []bool{}}, 0.9),
	}}
}

var usableArgs = argHints{hintUsableMutates, hintUsableMutates}

// UsableContext returns exercise 22's checks of fn on cases.
func UsableContext(fn func(distances []int, accuracy []float64, defined []bool, threshold float64) int, cases UsableCases) *Exercise {
	var checks []Check
	for _, c := range cases.Usable {
		r := recallRun{c.Distances, c.Accuracy, c.Defined}
		call := fmt.Sprintf("UsableContext(distances=%v, accuracy=%v, defined=%v, threshold=%g)", r.dist, r.acc, r.def, c.Threshold)
		var panicHint *Hint
		if len(r.dist) == 0 {
			panicHint = hintUsableEmpty
		}
		checks = append(checks, Check{Name: c.Name, Call: call, PanicHint: panicHint, Run: func() *Failure {
			in := r.clone()
			got := fn(in.dist, in.acc, in.def, c.Threshold)
			if got != c.Want {
				return fail(orElse(diagUsable(got, r, c.Threshold, fn), hintUsableFallback), fmt.Sprintf("%s = %d; want %d", call, got, c.Want))
			}
			return usableArgs.check(call, got, arg{"distances", in.dist, r.dist}, arg{"accuracy", in.acc, r.acc}, arg{"defined", in.def, r.def})
		}})
	}
	return newExercise(22, checks)
}
