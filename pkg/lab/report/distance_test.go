package report

import (
	"strings"
	"testing"
)

func TestRecallByDistance(t *testing.T) {
	r := handResults()
	rows, err := RecallByDistance(r, "rope", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ distance, length, correct, n int }{
		{14, 16, 18, 20}, // 1×L: seeds 1 and 2 answer 10 and 8 of 10
		{30, 32, 10, 20},
		{62, 64, 11, 20},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows; want %d", len(rows), len(want))
	}
	for i, w := range want {
		g := rows[i]
		if g.Distance != w.distance || g.Length != w.length || g.Correct != w.correct || g.N != w.n || !g.Defined {
			t.Errorf("row %d: %+v; want distance %d in %d tokens, %d of %d", i, g, w.distance, w.length, w.correct, w.n)
		}
	}
	rows, err = RecallByDistance(r, "learned", 0)
	if err != nil || len(rows) != 3 || !rows[0].Defined || rows[1].Defined || rows[2].Defined || rows[2].Distance != 62 {
		t.Errorf("learned: %+v, %v; want 3 rows, defined at L only, distances kept", rows, err)
	}
	if _, err := RecallByDistance(r, "alibi", 0); err == nil || !strings.Contains(err.Error(), "alibi") {
		t.Errorf("RecallByDistance(alibi) error = %v; want one naming it", err)
	}
	if _, err := RecallByDistance(r, "rope", 0.5); err == nil || !strings.Contains(err.Error(), "depth 0.5") {
		t.Errorf("RecallByDistance at depth 0.5 error = %v; want one naming the depth", err)
	}
}

func TestUsableContext(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name             string
		depth, threshold float64
		want             int
	}{
		// rope at depth 0: 0.9 at distance 14, 0.5 at 30, 0.55 at 62.
		{"rope", 0, 0.85, 14},
		{"rope", 0, 0.5, 62},
		{"rope", 0, 0.55, 14}, // stops at 30: 62 reaching it again does not count
		{"rope", 0, 0.95, 0},  // even the shortest falls short
		{"rope", 0, 0, 62},
		{"rope", 1, 0.9, 1}, // depth 1: distance 1 at every length
		// learned: 0.8 at 14, then undefined, which stops it whatever the threshold.
		{"learned", 0, 0.5, 14},
		{"learned", 0, 0, 14},
	} {
		got, err := UsableContext(r, c.name, c.depth, c.threshold)
		if err != nil || got != c.want {
			t.Errorf("UsableContext(%s, depth %g, %g) = %d, %v; want %d", c.name, c.depth, c.threshold, got, err, c.want)
		}
	}
	if _, err := UsableContext(r, "t5", 0, 0.5); err == nil || !strings.Contains(err.Error(), "t5") {
		t.Errorf("UsableContext(t5) error = %v; want one naming it", err)
	}
}
