package lab

import (
	"math"
	"testing"
)

// TestMcNemar checks the exact test against hand computations of the
// two-sided binomial test, p = min(1, 2·Σ_{i≤k} C(n, i)/2ⁿ), the value
// scipy.stats.binomtest(k, n, 0.5).pvalue gives for these counts:
//
//	(2, 10): n = 12, (C(12,0)+C(12,1)+C(12,2))·2/4096 = 79·2/4096 = 0.03857421875
//	(0, 5):  n = 5, 2/32 = 0.0625 (five discordant pairs cannot reach 0.05)
//	(0, 6):  n = 6, 2/64 = 0.03125
//	(3, 3):  symmetric, 2·P(X ≤ 3) > 1, so 1
//	(1, 0):  n = 1, 2·½ = 1
//	(10, 30), (400, 520): the same sum of exact big-integer binomial
//	          coefficients (binomialTail), independent of McNemar's log-gamma sum
func TestMcNemar(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want float64
	}{
		{2, 10, 79.0 * 2 / 4096},
		{10, 2, 79.0 * 2 / 4096},
		{0, 5, 0.0625},
		{0, 6, 0.03125},
		{3, 3, 1},
		{1, 0, 1},
		{0, 0, 1},
		{10, 30, 2 * binomialTail(40, 10)},
		{400, 520, 2 * binomialTail(920, 400)},
	} {
		got, err := McNemar(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 1e-12*math.Max(1, c.want) && math.Abs(got-c.want)/c.want > 1e-9 {
			t.Errorf("McNemar(%d, %d) = %.15g; want %.15g", c.a, c.b, got, c.want)
		}
	}
	if _, err := McNemar(-1, 2); err == nil {
		t.Error("McNemar(-1, 2): no error")
	}
}

// binomialTail is P(X ≤ k) for X ~ Binomial(n, ½), summed as exact
// big-integer binomial coefficients (math/big), independent of McNemar's
// log-gamma sum.
func binomialTail(n, k int) float64 {
	sum := new(bigInt).setInt(0)
	c := new(bigInt).setInt(1) // C(n, 0)
	for i := 0; i <= k; i++ {
		sum.add(c)
		c.mulDiv(n-i, i+1) // C(n, i+1) = C(n, i)·(n−i)/(i+1)
	}
	return sum.ratioPow2(n)
}

func TestDiscordant(t *testing.T) {
	a := []bool{true, true, false, false, true}
	b := []bool{true, false, true, false, false}
	onlyA, onlyB, err := Discordant(a, b)
	if err != nil || onlyA != 2 || onlyB != 1 {
		t.Errorf("Discordant = %d, %d, %v; want 2, 1", onlyA, onlyB, err)
	}
	if _, _, err := Discordant(a, b[:2]); err == nil {
		t.Error("Discordant of unequal lengths: no error")
	}
}

// outcomesAt returns seeds rows of n outcomes with the given hits each
// (the first hits[s] true).
func outcomesAt(n int, hits ...int) [][]bool {
	var out [][]bool
	for _, h := range hits {
		row := make([]bool, n)
		for i := range h {
			row[i] = true
		}
		out = append(out, row)
	}
	return out
}

// TestBootstrapRecall checks the estimate (the mean of the seeds' rates)
// and that seeds that disagree widen the interval well past the pooled
// binomial's: 3 seeds at 0.2, 0.5, 0.8 of 128 probes pool to 0.5 with a
// Wilson interval of ±0.05, but the seeds alone span 0.6.
func TestBootstrapRecall(t *testing.T) {
	agree, err := BootstrapRecall(outcomesAt(128, 64, 64, 64), 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	disagree, err := BootstrapRecall(outcomesAt(128, 26, 64, 102), 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if agree.Estimate != 0.5 || math.Abs(disagree.Estimate-0.5) > 1e-12 {
		t.Errorf("estimates %g and %g; want 0.5", agree.Estimate, disagree.Estimate)
	}
	lo, hi := Wilson(192, 384)
	if w := agree.Hi - agree.Lo; math.Abs(w-(hi-lo)) > 0.03 {
		t.Errorf("agreeing seeds: interval width %.3f; want about the pooled Wilson width %.3f", w, hi-lo)
	}
	if w := disagree.Hi - disagree.Lo; w < 3*(hi-lo) {
		t.Errorf("disagreeing seeds: interval width %.3f; want over 3× the pooled width %.3f", w, hi-lo)
	}
	if _, err := BootstrapRecall(nil, 2000, 1); err == nil {
		t.Error("no seeds: no error")
	}
}

// TestPairedBootstrap checks that a difference every seed shows is
// resolved and that none is not.
func TestPairedBootstrap(t *testing.T) {
	a, b := outcomesAt(128, 80, 90, 70), outcomesAt(128, 40, 50, 30)
	d, err := PairedBootstrap(a, b, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d.Estimate-40.0/128) > 1e-12 || !d.Excludes(0) {
		t.Errorf("difference %+v; want 40/128 with 0 outside", d)
	}
	same, err := PairedBootstrap(a, a, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if same.Estimate != 0 || same.Excludes(0) {
		t.Errorf("a against itself: %+v; want 0, not resolved", same)
	}
	if _, err := PairedBootstrap(a, b[:2], 2000, 1); err == nil {
		t.Error("unequal seeds: no error")
	}
}
