package report

import (
	"math"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// outcomeRun returns a run of name and seed with one recall cell at L,
// depth 0.5, whose probe i was answered when answered(i).
func outcomeRun(name string, seed int64, n int, answered func(i int) bool) lab.Run {
	bs := make([]bool, n)
	correct := 0
	for i := range bs {
		bs[i] = answered(i)
		if bs[i] {
			correct++
		}
	}
	return lab.Run{Name: name, Seed: seed, Recall: []lab.RecallCell{{Multiple: 1, Length: 64, Depth: 0.5, Defined: true,
		Correct: correct, N: n, Pairs: 4, Outcomes: lab.NewOutcomes(bs)}}}
}

func TestCompare(t *testing.T) {
	r := &lab.Results{}
	for seed := int64(1); seed <= 3; seed++ {
		// a answers the first 80 of 128 probes, b the first 40 and c the
		// first 78 and probes 126–127: c and a differ on 4 probes only.
		r.Runs = append(r.Runs,
			outcomeRun("a", seed, 128, func(i int) bool { return i < 80 }),
			outcomeRun("b", seed, 128, func(i int) bool { return i < 40 }),
			outcomeRun("c", seed, 128, func(i int) bool { return i < 78 || i >= 126 }))
	}
	r.Runs = append(r.Runs, outcomeRun("b", 4, 128, func(int) bool { return true })) // a has no seed 4: left out
	at := DepthCells(1, 0.5)
	ab, err := Compare(r, "a", "b", at)
	if err != nil {
		t.Fatal(err)
	}
	// 40 probes only a answered, in each of 3 seeds: McNemar's p is
	// 2·2⁻¹²⁰ (none only b answered), the difference 40/128.
	if ab.OnlyA != 120 || ab.OnlyB != 0 || len(ab.Seeds) != 3 || math.Abs(ab.P-2*math.Pow(2, -120)) > 1e-40 ||
		math.Abs(ab.Diff.Estimate-40.0/128) > 1e-12 || !ab.Resolved() {
		t.Errorf("a vs b: %+v; want 120 vs 0 discordant over 3 seeds, p = 2^-119, +0.3125, resolved", ab)
	}
	if l := ab.Label(); !strings.HasPrefix(l, "resolved: a above b") {
		t.Errorf("label %q; want resolved: a above b", l)
	}
	ac, err := Compare(r, "a", "c", at)
	if err != nil {
		t.Fatal(err)
	}
	// 2 probes each way in each seed: 6 vs 6, p = 1.
	if ac.OnlyA != 6 || ac.OnlyB != 6 || ac.P != 1 || ac.Resolved() || !strings.HasPrefix(ac.Label(), "unresolved") {
		t.Errorf("a vs c: %+v, %q; want 6 vs 6, p = 1, unresolved", ac, ac.Label())
	}
	// Results without outcomes (revision 1) cannot be paired.
	old := &lab.Results{Runs: []lab.Run{outcomeRun("a", 1, 8, func(int) bool { return true }), outcomeRun("b", 1, 8, func(int) bool { return false })}}
	old.Runs[0].Recall[0].Outcomes, old.Runs[1].Recall[0].Outcomes = nil, nil
	if _, err := Compare(old, "a", "b", at); err == nil || !strings.Contains(err.Error(), "no per-probe outcomes") {
		t.Errorf("without outcomes: %v; want an error saying so", err)
	}
	if _, err := Compare(r, "a", "z", at); err == nil || !strings.Contains(err.Error(), `"z"`) {
		t.Errorf("a missing run: %v; want an error naming it", err)
	}
}

func TestEstimateRecall(t *testing.T) {
	r := &lab.Results{}
	for seed, hits := range map[int64]int{1: 32, 2: 64, 3: 96} {
		r.Runs = append(r.Runs, outcomeRun("a", seed, 128, func(i int) bool { return i < hits }))
	}
	e, err := EstimateRecall(r, "a", DepthCells(1))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Defined || !e.Bootstrapped || e.Mean != 0.5 || e.SeedMin != 0.25 || e.SeedMax != 0.75 || e.Seeds != 3 {
		t.Errorf("estimate %+v; want mean 0.5, seeds 0.25–0.75, bootstrapped", e)
	}
	// The seeds disagree: the interval is far wider than a pooled Wilson
	// interval of 384 probes (±0.05).
	if !(e.Lo < 0.4 && e.Hi > 0.6) {
		t.Errorf("interval %.2f–%.2f; want wider than 0.4–0.6", e.Lo, e.Hi)
	}
	for i := range r.Runs {
		r.Runs[i].Recall[0].Outcomes = nil
	}
	e, err = EstimateRecall(r, "a", DepthCells(1))
	if err != nil || e.Bootstrapped || e.Lo != 0.25 || e.Hi != 0.75 {
		t.Errorf("without outcomes: %+v, %v; want the seeds' range as the interval", e, err)
	}
}
