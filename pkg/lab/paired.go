package lab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Paired comparisons of recall: two conditions answered the same probes
// (the same model and seed with and without YaRN's temperature; two
// models at one depth, seed by seed), so each probe's two outcomes form a
// pair. Counting the probes only one condition answered is far more
// sensitive than comparing two pooled rates, and honest about what the
// seeds disagree on.

// McNemar returns the two-sided p-value of McNemar's exact test (McNemar
// 1947; the exact, conditional form of Fagerland, Lydersen & Laake 2013):
// of the n = onlyA + onlyB discordant pairs, onlyA were answered by the
// first condition only; under "no difference" onlyA ~ Binomial(n, ½), and
// the p-value is the two-sided binomial test's,
// min(1, 2·P(X ≤ min(onlyA, onlyB))). It is 1 when n = 0.
func McNemar(onlyA, onlyB int) (float64, error) {
	if onlyA < 0 || onlyB < 0 {
		return 0, fmt.Errorf("lab: discordant counts must not be negative, got %d and %d", onlyA, onlyB)
	}
	n, k := onlyA+onlyB, min(onlyA, onlyB)
	if n == 0 {
		return 1, nil
	}
	// P(X ≤ k) summed in logs: C(n, i)/2ⁿ underflows float64 past n ≈ 1,070.
	lgn, _ := math.Lgamma(float64(n + 1))
	tail := 0.0
	for i := 0; i <= k; i++ {
		lgi, _ := math.Lgamma(float64(i + 1))
		lgr, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lgn - lgi - lgr - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*tail), nil
}

// Discordant counts the pairs only a answered (onlyA) and only b answered
// (onlyB); a and b hold the outcomes of the same probes, in the same order.
func Discordant(a, b []bool) (onlyA, onlyB int, err error) {
	if len(a) != len(b) {
		return 0, 0, fmt.Errorf("lab: paired outcomes must be as many, got %d and %d", len(a), len(b))
	}
	for i := range a {
		switch {
		case a[i] && !b[i]:
			onlyA++
		case b[i] && !a[i]:
			onlyB++
		}
	}
	return onlyA, onlyB, nil
}

// Interval is an estimate with a 95% interval.
type Interval struct {
	Estimate, Lo, Hi float64
}

// Excludes reports whether v lies outside [Lo, Hi].
func (i Interval) Excludes(v float64) bool { return v < i.Lo || v > i.Hi }

// BootstrapRecall returns the mean recall of outcomes (one row per seed,
// one column per probe) with a 95% percentile interval from a two-level
// bootstrap (Davison & Hinkley 1997, §3.8): each of reps replicates draws
// the seeds with replacement, then within each drawn seed its probes with
// replacement. Both the seeds' disagreement and the probes' sampling widen
// the interval; pooling every probe as one binomial would keep the second
// only.
func BootstrapRecall(outcomes [][]bool, reps int, seed uint64) (Interval, error) {
	return bootstrap(outcomes, nil, reps, seed)
}

// PairedBootstrap returns the difference in mean recall a − b with a 95%
// percentile interval from the same two-level bootstrap, drawing the same
// seeds and the same probes for both: a[s][i] and b[s][i] are one probe
// of seed s under the two conditions.
func PairedBootstrap(a, b [][]bool, reps int, seed uint64) (Interval, error) {
	if b == nil {
		return Interval{}, fmt.Errorf("lab: a paired bootstrap needs two sets of outcomes")
	}
	return bootstrap(a, b, reps, seed)
}

// bootstrap is BootstrapRecall (b nil) and PairedBootstrap.
func bootstrap(a, b [][]bool, reps int, seed uint64) (Interval, error) {
	if len(a) == 0 || reps < 100 {
		return Interval{}, fmt.Errorf("lab: a bootstrap needs outcomes of at least one seed and 100 or more replicates, got %d seeds and %d", len(a), reps)
	}
	if b != nil && len(b) != len(a) {
		return Interval{}, fmt.Errorf("lab: paired outcomes must have as many seeds, got %d and %d", len(a), len(b))
	}
	for s := range a {
		if len(a[s]) == 0 || (b != nil && len(b[s]) != len(a[s])) {
			return Interval{}, fmt.Errorf("lab: seed %d: paired outcomes must be as many and not none", s)
		}
	}
	stat := func(pick func(n int) int) float64 {
		sum := 0.0
		for range a {
			s := pick(len(a))
			row, hits := a[s], 0
			for range row {
				i := pick(len(row))
				if row[i] {
					hits++
				}
				if b != nil && b[s][i] {
					hits--
				}
			}
			sum += float64(hits) / float64(len(row))
		}
		return sum / float64(len(a))
	}
	est := 0.0 // the statistic of the data as they are
	for s := range a {
		hits := 0
		for i := range a[s] {
			if a[s][i] {
				hits++
			}
			if b != nil && b[s][i] {
				hits--
			}
		}
		est += float64(hits) / float64(len(a[s])) / float64(len(a))
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	draws := make([]float64, reps)
	for r := range draws {
		draws[r] = stat(rng.IntN)
	}
	slices.Sort(draws)
	q := func(p float64) float64 { return draws[int(math.Round(p*float64(reps-1)))] }
	return Interval{Estimate: est, Lo: q(0.025), Hi: q(0.975)}, nil
}
