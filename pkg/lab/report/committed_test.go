package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// TestCommittedResults checks that each suite's committed results are the
// full run of the committed code: its config is the suite's, made by the
// suite's command, every model and seed present, from a clean checkout of
// a commit in this one's history, none of ResultFiles changed since.
// Lesson 8's suite must be there (on CI its absence fails); the layers
// suite, whose results the course does not read yet, is skipped until it
// has run.
func TestCommittedResults(t *testing.T) {
	for _, c := range []struct {
		suite, path string
		config      lab.Config
		required    bool // on CI, a missing file fails
	}{
		{"lab", "lab/results/results.json", lab.DefaultConfig(), true},
		{"layers", "lab/results/layers/results.json", lab.LayersConfig(), true},
	} {
		t.Run(c.suite, func(t *testing.T) { checkCommitted(t, c.suite, c.path, c.config, c.required) })
	}
}

// expectedRuns are the run names a lab run of c makes, for every seed.
func expectedRuns(c lab.Config) []string {
	var names []string
	for _, e := range c.Encodings {
		names = append(names, string(e))
	}
	for _, v := range c.Variants {
		names = append(names, v.Name)
	}
	if slices.Contains(c.Encodings, lab.RoPE) {
		for _, m := range c.Methods {
			names = append(names, "rope+"+m)
		}
		if c.FinetuneSteps > 0 {
			names = append(names, "rope+pi-finetune", "rope-finetune")
		}
	}
	return names
}

func checkCommitted(t *testing.T, suite, path string, want lab.Config, required bool) {
	r, err := lab.ReadResults(filepath.Join(root, path))
	if errors.Is(err, fs.ErrNotExist) {
		if required && os.Getenv("CI") != "" {
			t.Fatalf("%s is missing: run make lab-results and commit it", path)
		}
		t.Skipf("%s does not exist yet (make lab-results writes it)", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Config.Revision < want.Revision {
		// The lab's design changed (lab.LabRevision) and the full re-run,
		// hours long, has not been made yet: the old results must stay
		// readable and complete for the config they record, and the test
		// says loudly what is missing.
		for _, name := range expectedRuns(r.Config) {
			if runs, err := r.Seeds(name); err != nil || len(runs) != len(r.Config.VariantSeedsOf(name)) {
				t.Errorf("%s (revision %d): run %s has %d seeds; want %d", path, max(r.Config.Revision, 1), name, len(runs), len(r.Config.VariantSeedsOf(name)))
			}
		}
		t.Skipf("%s is of revision %d of the lab (no revision recorded: 1); the code is revision %d: the committed results predate it (make lab-results renews them; README gives the time)",
			path, max(r.Config.Revision, 1), want.Revision)
	}
	if !reflect.DeepEqual(r.Config, want) {
		t.Errorf("%s: its config differs from the suite's:\n got %+v\nwant %+v\n(re-run make lab-results)", path, r.Config, want)
	}
	if cmd := "go run ./cmd/lab --suite " + suite; r.Provenance.Command != cmd {
		t.Errorf("%s was made by %q; want the suite's command, %s", path, r.Provenance.Command, cmd)
	}
	var short []string
	n := 0
	for _, name := range expectedRuns(want) {
		seeds := want.VariantSeedsOf(name)
		n += len(seeds)
		if runs, _ := r.Seeds(name); len(runs) != len(seeds) {
			short = append(short, fmt.Sprintf("%s (%d of %d)", name, len(runs), len(seeds)))
		}
	}
	if len(short) > 0 || len(r.Runs) != n {
		t.Errorf("%s has %d runs; want %d, one per seed of %v; these have another number: %s (an unfinished run?)",
			path, len(r.Runs), n, expectedRuns(want), strings.Join(short, ", "))
	}
	if b := r.Provenance.Backend; !strings.HasPrefix(b, "xla") && !strings.HasPrefix(b, "go") {
		t.Errorf("%s ran on backend %q; want one recorded, xla… or go…", path, b)
	}
	p := r.Provenance
	if p.Dirty || p.Commit == "" {
		t.Fatalf("%s was made from commit %q, with uncommitted changes: %t; commit the code, then run make lab-results", path, p.Commit, p.Dirty)
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if out, err := git("rev-parse", "--git-dir"); err != nil {
		// CI must compare: a checkout git refuses (another owner: "dubious
		// ownership") would otherwise pass this test unchecked.
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set, but git cannot read this checkout (%v: %s): the results cannot be compared with the code; "+
				"mark it safe (git config --global --add safe.directory DIR) and clone with its history", err, out)
		}
		t.Skip("not a git checkout git can read: cannot compare the code version")
	}
	if out, err := git("merge-base", "--is-ancestor", p.Commit, "HEAD"); err != nil {
		t.Fatalf("%s comes from commit %s, which is not in this checkout's history (%v %s): re-run make lab-results", path, p.Commit, err, out)
	}
	if out, err := git(append([]string{"diff", "--stat", p.Commit, "HEAD", "--"}, ResultFiles...)...); err != nil || out != "" {
		t.Errorf("code that decides the lab's numbers changed since %s was made (commit %s): %v\n%s\nre-run make lab-results", path, p.Commit, err, out)
	}
}
