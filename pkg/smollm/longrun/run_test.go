package longrun

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

// byteTokenizer is one token per byte: enough to test the bookkeeping
// without the model.
type byteTokenizer struct{}

func (byteTokenizer) Encode(text string) []int {
	ids := make([]int, len(text))
	for i := range len(text) {
		ids[i] = int(text[i])
	}
	return ids
}

// fakeEngine gives each method a loss of its own and retrieves the key
// only without scaling; it counts its calls.
type fakeEngine struct{ calls int }

func (e *fakeEngine) NLL(ids []int32, sc posenc.Scaling) ([]float32, error) {
	e.calls++
	out := make([]float32, len(ids)-1)
	for i := range out {
		out[i] = float32(sc.Kind) + float32(i)/float32(len(out))
	}
	return out, nil
}

func (e *fakeEngine) Logits(ids []int32, rows []int, sc posenc.Scaling) ([][]float32, error) {
	e.calls++
	var out [][]float32
	for _, r := range rows {
		l := make([]float32, 256)
		if sc.Kind == posenc.ScalingNone {
			l[ids[r+1]] = 10
		}
		out = append(out, l)
	}
	return out, nil
}

func tinyConfig() Config {
	c := QuickConfig()
	c.Window, c.RangeEdges = 64, []int{0, 32, 64}
	c.PasskeyLengths, c.OriginalLen = []int{600, 1200}, 800
	c.PasskeyDepths, c.TrialsInside, c.TrialsBeyond = []float64{0, 1}, 3, 2
	return c
}

// TestRunResumes checks that a run writes every cell, that a second run
// skips them all, and that a lost cell is run again alone.
func TestRunResumes(t *testing.T) {
	c := tinyConfig()
	store := Store{Dir: t.TempDir()}
	e := &fakeEngine{}
	if err := Run(c, store, e, byteTokenizer{}, Provenance{Command: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	nllCells := 6 * len(c.Texts)
	trials := 2*3 + 2*2*2 // 600: none, 2 depths × 3; 1200: none and yarn, 2 depths × 2
	if e.calls != nllCells+trials {
		t.Fatalf("first run: %d engine calls, want %d", e.calls, nllCells+trials)
	}
	if err := Run(c, store, e, byteTokenizer{}, Provenance{Command: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if e.calls != nllCells+trials {
		t.Fatalf("second run made %d engine calls, want none", e.calls-nllCells-trials)
	}
	if err := os.Remove(store.nllPath("genesis", "yarn")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(store.passkeyPath("yarn", 1200, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if err := Run(c, store, e, byteTokenizer{}, Provenance{Command: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := e.calls - nllCells - trials; got != 2 {
		t.Fatalf("after losing two cells, a run made %d engine calls, want 2", got)
	}
	runs, err := store.Runs()
	if err != nil || len(runs) != 3 || runs[2].CellsRun != 2 || runs[2].CellsKept != nllCells+trials-2 {
		t.Fatalf("runs.json: %+v (%v); want 3 runs, the last with 2 cells run and the rest kept", runs, err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(store.Dir, "*", "*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}

	s, err := Summarize(store, c)
	if err != nil {
		t.Fatal(err)
	}
	// The fake loss of kind k at prediction i is k + i/63: positions 1…31
	// are predictions 0…30, mean k + 15/63; positions 32…63 are 31…62.
	for _, row := range s.NLL {
		m, _ := method(Methods(c.Factor, c.OriginalLen), row.Method)
		want := float64(m.Scaling.Kind) + 15.0/63
		if row.From == 32 {
			want = float64(m.Scaling.Kind) + 46.5/63
		}
		if math.Abs(row.Spread.Mean-want) > 1e-4 || row.Spread.N != len(c.Texts) {
			t.Errorf("%s [%d, %d): mean %.5f over %d texts, want %.5f over %d", row.Method, row.From, row.To, row.Spread.Mean, row.Spread.N, want, len(c.Texts))
		}
	}
	for _, cell := range s.Passkey {
		wantPassed := 0
		if cell.Method == "none" {
			wantPassed = cell.Trials
		}
		if cell.Passed != wantPassed || !(cell.Lo <= float64(cell.Passed)/float64(cell.Trials) && cell.Hi >= float64(cell.Passed)/float64(cell.Trials)) {
			t.Errorf("passkey %+v: want %d passed, inside its interval", cell, wantPassed)
		}
	}
	if len(s.Passkey) != 2+2+2 {
		t.Errorf("%d passkey cells, want 6 (none at 600 and 1200, yarn at 1200, two depths each)", len(s.Passkey))
	}
	if err := WriteSummary(store, c); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(store.Dir, "summary.md"))
	if !strings.Contains(string(md), "| yarn-no-temp |") || !strings.Contains(string(md), "| none | 600 | 0.00 | 3/3 |") {
		t.Errorf("summary.md lacks a row:\n%s", md)
	}
}

// TestPasskeyPromptPlacesTheKey checks the prompt's layout with one token
// per byte: its length within one filler of the asked, the needle at the
// asked depth, the answer last.
func TestPasskeyPromptPlacesTheKey(t *testing.T) {
	for _, depth := range []float64{0, 0.5, 1} {
		p, err := NewPasskeyPrompt(byteTokenizer{}, 2000, depth, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.IDs) > 2000 || len(p.IDs) <= 2000-len(PasskeyFiller) {
			t.Errorf("depth %g: %d tokens, want within a filler (%d) below 2000", depth, len(p.IDs), len(PasskeyFiller))
		}
		if got := (byteTokenizer{}).Encode(p.Text); len(got) != len(p.IDs) {
			t.Errorf("depth %g: the text has %d tokens, the ids %d", depth, len(got), len(p.IDs))
		}
		frac := float64(p.NeedleAt-len(PasskeyIntro)) / float64(p.FillerN*len(PasskeyFiller))
		if math.Abs(frac-depth) > 0.5/float64(p.FillerN)+1e-9 { // rounded to whole fillers
			t.Errorf("depth %g: needle after %.3f of the filler", depth, frac)
		}
		if !strings.HasSuffix(p.Text, PasskeyQuestion+" "+itoa(p.Key)) || p.Key < 10000 || p.Key > 99999 {
			t.Errorf("depth %g: prompt ends %q, key %d", depth, p.Text[len(p.Text)-60:], p.Key)
		}
	}
	if _, err := NewPasskeyPrompt(byteTokenizer{}, 100, 0.5, 1); err == nil || !strings.Contains(err.Error(), "passkey length 100") {
		t.Errorf("a length too short: got %v, want an error naming it", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestConfigValidate checks that a bad config names its field.
func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Window = 1 }, "window 1"},
		{func(c *Config) { c.Factor = 0.5 }, "factor 0.5"},
		{func(c *Config) { c.PasskeyDepths = []float64{1.5} }, "depth 1.5"},
		{func(c *Config) { c.Texts = []string{"nope"} }, `no text "nope"`},
		{func(c *Config) { c.RangeEdges = []int{0, 100} }, "range edges"},
	} {
		cfg := DefaultConfig()
		c.edit(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Error(err)
	}
	if err := QuickConfig().Validate(); err != nil {
		t.Error(err)
	}
}

// sharingEngine is fakeEngine with a PrefixSharer that says it ran half
// of each prefix, and it checks that the run is on record while it runs.
type sharingEngine struct {
	fakeEngine
	store    Store
	prefixes int
	t        *testing.T
}

func (e *sharingEngine) SharePrefix(prefix []int32, capacity int, sc posenc.Scaling) (int, error) {
	if prefix == nil {
		return 0, nil
	}
	e.prefixes++
	return len(prefix) / 2, nil
}

func (e *sharingEngine) NLL(ids []int32, sc posenc.Scaling) ([]float32, error) {
	if runs, err := e.store.Runs(); err != nil || len(runs) != 1 {
		e.t.Errorf("while the run runs, runs.json holds %d runs (%v), want it on record", len(runs), err)
	}
	return e.fakeEngine.NLL(ids, sc)
}

// TestRunRecordsItsTime checks that a run is in runs.json from its start
// and up to date after each cell, that each shared prefix gets a record
// with the tokens it ran, and that the summary's time adds up the cells'
// and the prefixes' seconds.
func TestRunRecordsItsTime(t *testing.T) {
	c := tinyConfig()
	store := Store{Dir: t.TempDir()}
	e := &sharingEngine{store: store, t: t}
	if err := Run(c, store, e, byteTokenizer{}, Provenance{Command: "test"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	runs, err := store.Runs()
	nllCells, trials := 6*len(c.Texts), 2*3+2*2*2
	if err != nil || len(runs) != 1 || runs[0].CellsRun != nllCells+trials || runs[0].WallSeconds <= 0 {
		t.Fatalf("runs.json: %+v (%v); want one run of %d cells with its wall time", runs, err, nllCells+trials)
	}
	prefixes, err := store.PrefixRuns()
	// none at 600 and 1200, yarn at 1200: two depths each.
	if err != nil || len(prefixes) != 6 || e.prefixes != 6 {
		t.Fatalf("%d prefix records (%v) for %d prefixes run, want 6", len(prefixes), err, e.prefixes)
	}
	for _, p := range prefixes {
		if p.Tokens != p.NeedleAt/2 || p.Seconds < 0 || p.Provenance.Command != "test" {
			t.Errorf("prefix record %+v: want the %d tokens the engine ran, and the run's provenance", p, p.NeedleAt/2)
		}
	}
	s, err := Summarize(store, c)
	if err != nil {
		t.Fatal(err)
	}
	var want CellTime
	cells, _ := store.NLLCells()
	for _, cell := range cells {
		want.NLL += cell.Seconds
	}
	all, _ := store.PasskeyTrials()
	for _, tr := range all {
		want.Passkey += tr.Seconds
	}
	for _, p := range prefixes {
		want.Prefixes += p.Seconds
	}
	if s.Time != want || s.Time.Total() != want.NLL+want.Passkey+want.Prefixes {
		t.Errorf("summary's time %+v, want %+v", s.Time, want)
	}
	if md := s.Markdown(); !strings.Contains(md, "The cells took ") {
		t.Errorf("summary.md does not say what the cells took:\n%s", md)
	}
}
