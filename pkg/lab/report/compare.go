package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/posenc/course/pkg/lab"
)

// Bootstrap is the number of replicates of every bootstrap the report
// draws, and BootstrapSeed their seed: the same intervals on every run.
const (
	Bootstrap     = 2000
	BootstrapSeed = 1
)

// Alpha is the level at which a paired comparison is resolved.
const Alpha = 0.05

// RecallEstimate is recall over seeds, reported like loss: the mean of the
// seeds' rates, their range, and a 95% interval from a bootstrap over
// seeds and probes (lab.BootstrapRecall). Results without per-probe
// outcomes (revision 1) have no bootstrap: Lo and Hi are then the seeds'
// range, and Bootstrapped is false.
type RecallEstimate struct {
	Defined          bool
	Mean             float64
	SeedMin, SeedMax float64
	Lo, Hi           float64
	Seeds            int
	Bootstrapped     bool
}

// seedOutcomes returns, for each seed of name, the outcomes of the cells
// match accepts, one after another (nil rows when the results have none),
// and each seed's rate; defined is false when any such cell is.
func seedOutcomes(r *lab.Results, name string, match func(lab.RecallCell) bool) (seeds []int64, rows [][]bool, rates []float64, defined bool, err error) {
	runs, err := r.Seeds(name)
	if err != nil {
		return nil, nil, nil, false, err
	}
	defined = true
	for _, run := range runs {
		var row []bool
		correct, n, outcomes := 0, 0, true
		for _, c := range run.Recall {
			if !match(c) {
				continue
			}
			if !c.Defined {
				defined = false
			}
			correct, n = correct+c.Correct, n+c.N
			outcomes = outcomes && len(c.Outcomes) > 0
			row = append(row, c.Outcomes.Bools(c.N)...)
		}
		if n == 0 {
			return nil, nil, nil, false, fmt.Errorf("report: run %q, seed %d, has no recall cell of that kind", name, run.Seed)
		}
		if !outcomes {
			row = nil
		}
		seeds, rows, rates = append(seeds, run.Seed), append(rows, row), append(rates, float64(correct)/float64(n))
	}
	return seeds, rows, rates, defined, nil
}

// EstimateRecall returns name's recall over the cells match accepts
// (several depths pool into one rate per seed).
func EstimateRecall(r *lab.Results, name string, match func(lab.RecallCell) bool) (RecallEstimate, error) {
	_, rows, rates, defined, err := seedOutcomes(r, name, match)
	if err != nil || !defined {
		return RecallEstimate{}, err
	}
	sp := lab.SpreadOf(rates)
	e := RecallEstimate{Defined: true, Mean: sp.Mean, SeedMin: sp.Min, SeedMax: sp.Max, Lo: sp.Min, Hi: sp.Max, Seeds: sp.N}
	if !slices.ContainsFunc(rows, func(row []bool) bool { return row == nil }) {
		iv, err := lab.BootstrapRecall(rows, Bootstrap, BootstrapSeed)
		if err != nil {
			return RecallEstimate{}, err
		}
		e.Lo, e.Hi, e.Bootstrapped = iv.Lo, iv.Hi, true
	}
	return e, nil
}

// DepthCells accepts the depth probes at multiple·L, at depths (none: all).
func DepthCells(multiple int, depths ...float64) func(lab.RecallCell) bool {
	return func(c lab.RecallCell) bool {
		return c.Kind == lab.ProbeDepth && c.Multiple == multiple && (len(depths) == 0 || slices.Contains(depths, c.Depth))
	}
}

// Comparison is a paired comparison of the recall of two runs on the same
// probes, seed by seed (the seeds both have): the probes only A answered
// and only B answered, McNemar's exact p-value on them, and the difference
// A − B with a 95% paired bootstrap interval over seeds and probes.
type Comparison struct {
	A, B         string
	Seeds        []int64
	OnlyA, OnlyB int
	P            float64
	Diff         lab.Interval
}

// Resolved reports whether both tests clear the difference: McNemar's p
// below Alpha and the paired bootstrap's interval clear of 0. Anything
// else is unresolved: at these seeds and probes the two cannot be ranked,
// which is not the same as equal.
func (c Comparison) Resolved() bool { return c.P < Alpha && c.Diff.Excludes(0) }

// Label says what the comparison shows: "resolved: A above B" (or below),
// or "unresolved", with the numbers behind it.
func (c Comparison) Label() string {
	nums := fmt.Sprintf("(difference %+.2f, 95%% %+.2f to %+.2f; McNemar p = %.2g, %d vs %d probes, %d seeds)",
		c.Diff.Estimate, c.Diff.Lo, c.Diff.Hi, c.P, c.OnlyA, c.OnlyB, len(c.Seeds))
	if !c.Resolved() {
		return "unresolved " + nums
	}
	dir := "above"
	if c.Diff.Estimate < 0 {
		dir = "below"
	}
	return fmt.Sprintf("resolved: %s %s %s %s", c.A, dir, c.B, nums)
}

// Compare compares the recall of runs a and b on the cells match accepts,
// paired probe by probe on the seeds both have. The results must hold
// per-probe outcomes (revision 2).
func Compare(r *lab.Results, a, b string, match func(lab.RecallCell) bool) (Comparison, error) {
	seedsA, rowsA, _, okA, err := seedOutcomes(r, a, match)
	if err != nil {
		return Comparison{}, err
	}
	seedsB, rowsB, _, okB, err := seedOutcomes(r, b, match)
	if err != nil {
		return Comparison{}, err
	}
	if !okA || !okB {
		return Comparison{}, fmt.Errorf("report: %s or %s has no recall there (undefined)", a, b)
	}
	c := Comparison{A: a, B: b}
	var pa, pb [][]bool
	for i, s := range seedsA {
		j := slices.Index(seedsB, s)
		if j < 0 {
			continue
		}
		if rowsA[i] == nil || rowsB[j] == nil {
			return Comparison{}, fmt.Errorf("report: %s or %s, seed %d, has no per-probe outcomes (results of revision 1): no paired test", a, b, s)
		}
		oa, ob, err := lab.Discordant(rowsA[i], rowsB[j])
		if err != nil {
			return Comparison{}, err
		}
		c.Seeds, c.OnlyA, c.OnlyB = append(c.Seeds, s), c.OnlyA+oa, c.OnlyB+ob
		pa, pb = append(pa, rowsA[i]), append(pb, rowsB[j])
	}
	if len(c.Seeds) == 0 {
		return Comparison{}, fmt.Errorf("report: %s (seeds %v) and %s (seeds %v) share no seed", a, seedsA, b, seedsB)
	}
	if c.P, err = lab.McNemar(c.OnlyA, c.OnlyB); err != nil {
		return Comparison{}, err
	}
	if c.Diff, err = lab.PairedBootstrap(pa, pb, Bootstrap, BootstrapSeed); err != nil {
		return Comparison{}, err
	}
	if math.IsNaN(c.Diff.Estimate) {
		return Comparison{}, fmt.Errorf("report: %s against %s: no estimate", a, b)
	}
	return c, nil
}
