package longrun

import (
	"path/filepath"
	"testing"
	"time"
)

// TestForwardWork counts the attention pairs by hand: a window of 4 chunks
// reads 1, 2, 3 and 4 chunks' slots; a prompt that ends inside its last
// chunk reads only up to its last token; a continuation from position 5
// in chunks of 4 reads 9, then 12 slots (up to each chunk's last query).
func TestForwardWork(t *testing.T) {
	for _, c := range []struct {
		from, to, chunk int
		want            Work
	}{
		{0, 16, 4, Work{Tokens: 16, Pairs: 4 * (4 + 8 + 12 + 16)}},
		{0, 14, 4, Work{Tokens: 14, Pairs: 4*(4+8+12) + 2*14}},
		{5, 12, 4, Work{Tokens: 7, Pairs: 4*9 + 3*12}},
	} {
		if got := forwardWork(c.from, c.to, c.chunk); got != c.want {
			t.Errorf("forwardWork(%d, %d, %d) = %+v, want %+v", c.from, c.to, c.chunk, got, c.want)
		}
	}
}

// TestWorkLeft checks that the estimate the run prints counts what is
// left: all of Config.Work on an empty store, less a cell's work once the
// cell is on disk.
func TestWorkLeft(t *testing.T) {
	c := DefaultConfig()
	store := Store{Dir: t.TempDir()}
	if got, want := c.workLeft(store), c.Work(); got != want {
		t.Errorf("an empty store leaves %+v, want the whole grid %+v", got, want)
	}
	if err := writeJSON(store.nllPath(c.Texts[0], "none"), NLLCell{}); err != nil {
		t.Fatal(err)
	}
	left, all := c.workLeft(store), c.Work()
	if d := all.Tokens - left.Tokens; d != float64(c.Window) {
		t.Errorf("one NLL cell done: %g tokens fewer, want %d", d, c.Window)
	}
	if d := c.Work().Duration(BenchCost); d < time.Minute || d > 24*time.Hour {
		t.Errorf("the whole grid is estimated at %v", d)
	}
}

// TestEstimateMatchesCommittedRun checks the time the run prints at its
// start against the committed run that made every cell in one go: within
// a factor of 1.5 either way. An engine made faster or slower without
// BenchCost re-fitted to its bench fails it (the estimate once said 3 h 40
// min for a run of 64 min).
func TestEstimateMatchesCommittedRun(t *testing.T) {
	runs, err := Store{Dir: filepath.Join(root, committedDir)}.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var whole *RunRecord
	for i := range runs {
		if runs[i].CellsKept == 0 && runs[i].CellsRun > 0 && runs[i].Config.Window == DefaultConfig().Window {
			whole = &runs[i]
		}
	}
	if whole == nil {
		t.Skipf("%s records no run that made every cell at once", committedDir)
	}
	est := whole.Config.Work().Duration(BenchCost)
	took := time.Duration(whole.WallSeconds * float64(time.Second))
	if r := est.Seconds() / took.Seconds(); r < 1/1.5 || r > 1.5 {
		t.Errorf("the whole grid is estimated at %v; the committed run (commit %.7s) took %v, %.2f times the estimate: re-fit BenchCost to the committed make model-bench run",
			est.Round(time.Minute), whole.Commit, took.Round(time.Minute), 1/r)
	}
	t.Logf("estimated %v, the committed run took %v", est.Round(time.Minute), took.Round(time.Minute))
}
