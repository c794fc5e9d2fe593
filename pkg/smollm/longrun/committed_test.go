package longrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// root is the repository root, from this package's folder.
const root = "../../.."

// committedDir holds the committed long run.
const committedDir = "model/results"

// committedCommand is the command that must have made every cell.
const committedCommand = "go run ./cmd/modelresults"

// gitIn runs git in the repository at dir.
func gitIn(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// stale returns, for each commit a cell came from, why it no longer
// matches the code at HEAD: not in HEAD's history, or a file of
// ResultPaths changed since.
func stale(dir string, commits []string) []string {
	var problems []string
	seen := map[string]bool{}
	for _, c := range commits {
		if seen[c] {
			continue
		}
		seen[c] = true
		if out, err := gitIn(dir, "merge-base", "--is-ancestor", c, "HEAD"); err != nil {
			problems = append(problems, fmt.Sprintf("commit %q is not in this checkout's history (%v %s)", c, err, out))
			continue
		}
		out, err := gitIn(dir, append([]string{"diff", "--stat", c, "HEAD", "--"}, ResultPaths...)...)
		if err != nil || out != "" {
			problems = append(problems, fmt.Sprintf("code that decides the numbers changed since commit %s: %v\n%s", c, err, out))
		}
	}
	return problems
}

// TestCommittedResults checks that model/results is the full long run of
// the committed code: every cell of DefaultConfig present, each made by
// the committed command from a clean checkout of a commit in this one's
// history, and none of ResultPaths (posenc, posgraph, the model, this
// package, the texts) changed since. Until the long run is committed the
// test skips and says so; while it is unfinished (a run split over
// sessions commits its cells as they finish), the cells present are
// checked and the test skips, saying what is missing.
func TestCommittedResults(t *testing.T) {
	store := Store{Dir: filepath.Join(root, committedDir)}
	if _, err := os.Stat(store.Dir); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s does not exist yet: no long run is committed (make model-results writes it, hours on XLA CPU: it prints its estimate)", committedDir)
	}
	c := DefaultConfig()
	cells, err := store.NLLCells()
	if err != nil {
		t.Fatal(err)
	}
	trials, err := store.PasskeyTrials()
	if err != nil {
		t.Fatal(err)
	}
	var provs []Provenance
	got := map[string]bool{}
	for _, cell := range cells {
		got["nll "+cell.Text+" "+cell.Method] = true
		provs = append(provs, cell.Provenance)
		if cell.Tokens != c.Window || len(cell.NLL) != c.Window-1 {
			t.Errorf("%s under %s has %d tokens and %d losses; want %d and %d", cell.Text, cell.Method, cell.Tokens, len(cell.NLL), c.Window, c.Window-1)
		}
	}
	for _, tr := range trials {
		got[fmt.Sprintf("passkey %s %d %.2f %d", tr.Method, tr.Length, tr.Depth, tr.Trial)] = true
		provs = append(provs, tr.Provenance)
	}
	var missing []string
	for _, m := range Methods(c.Factor, c.OriginalLen) {
		for _, text := range c.Texts {
			if k := "nll " + text + " " + m.Name; !got[k] {
				missing = append(missing, k)
			}
		}
	}
	for _, n := range c.PasskeyLengths {
		for _, m := range c.passkeyMethods(n) {
			for _, d := range c.PasskeyDepths {
				for trial := range c.trials(n) {
					if k := fmt.Sprintf("passkey %s %d %.2f %d", m, n, d, trial); !got[k] {
						missing = append(missing, k)
					}
				}
			}
		}
	}
	var commits []string
	for _, p := range provs {
		if p.Command != committedCommand {
			t.Errorf("a cell was made by %q; want %s", p.Command, committedCommand)
			break
		}
		if p.Dirty || p.Commit == "" {
			t.Fatalf("a cell was made from commit %q with uncommitted changes: %t; commit the code, then run make model-results", p.Commit, p.Dirty)
		}
		commits = append(commits, p.Commit)
	}
	if _, err := gitIn(root, "rev-parse", "--git-dir"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set, but git cannot read this checkout (%v): the results cannot be compared with the code", err)
		}
		t.Skip("not a git checkout git can read: cannot compare the code version")
	}
	for _, p := range stale(root, commits) {
		t.Error(p + "\nre-run make model-results into an empty model/results")
	}
	if len(missing) > 0 {
		// A run split over sessions commits its cells as they finish:
		// those present are checked above; the rest are to come.
		if !t.Failed() {
			t.Skipf("%s holds an unfinished long run, %d cells short of the full run; make model-results resumes it. Missing: %s",
				committedDir, len(missing), strings.Join(missing[:min(len(missing), 5)], "; ")+"…")
		}
		return
	}
	s, err := Summarize(store, c)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk Summary
	if err := readJSON(filepath.Join(store.Dir, "summary.json"), &onDisk); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.NLL, onDisk.NLL) || !reflect.DeepEqual(s.Passkey, onDisk.Passkey) {
		t.Errorf("%s/summary.json differs from its cells: go run ./cmd/modelresults --only summary", committedDir)
	}
}

// TestStaleDetectsChangedCode checks the check: results from HEAD match
// HEAD, and results from the repository's first commit, which had none of
// the model's code, are stale.
func TestStaleDetectsChangedCode(t *testing.T) {
	head, err := gitIn(root, "rev-parse", "HEAD")
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	first, err := gitIn(root, "rev-list", "--max-parents=0", "HEAD")
	if err != nil || first == "" {
		t.Skipf("no history to compare with (a shallow clone?): %v", err)
	}
	first = strings.Fields(first)[0]
	if p := stale(root, []string{head}); len(p) != 0 {
		t.Errorf("results of HEAD are stale at HEAD: %v", p)
	}
	if p := stale(root, []string{first}); len(p) != 1 || !strings.Contains(p[0], "changed since") {
		t.Errorf("results of the first commit %s: got %q, want one problem, code changed since", first, p)
	}
	if p := stale(root, []string{"0123456789012345678901234567890123456789"}); len(p) != 1 || !strings.Contains(p[0], "not in this checkout") {
		t.Errorf("results of an unknown commit: got %q, want not in this checkout's history", p)
	}
}
