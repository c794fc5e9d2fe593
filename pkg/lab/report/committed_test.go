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

// suites are the lab's committed suites: where each writes its results,
// and its config. Each must be the current revision's full run of the
// committed code.
var suites = []struct {
	name, path string
	config     lab.Config
}{
	// Lesson 8's suite, which lessons 3 and 5–8 read.
	{"lab", "lab/results/results.json", lab.DefaultConfig()},
	// Lesson 9's layer patterns, which lesson 9 part 2 reads.
	{"layers", "lab/results/layers/results.json", lab.LayersConfig()},
}

// TestCommittedResults checks that each suite's committed results are the
// full run of the committed code: its config is the suite's (and so of
// this revision of the lab, lab.LabRevision), made by the suite's
// command, every model and seed present, from a clean checkout of a
// commit in this one's history, none of ResultFiles changed since
// (SameCode).
func TestCommittedResults(t *testing.T) {
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			v, err := checkCommitted(root, s.name, filepath.Join(root, s.path), s.config)
			if errors.Is(err, fs.ErrNotExist) {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is missing: run make lab-results and commit it", s.path)
				}
				t.Skipf("%s does not exist yet (make lab-results writes it)", s.path)
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.noGit != "" {
				// CI must compare: a checkout git refuses (another owner:
				// "dubious ownership") would otherwise pass unchecked.
				if os.Getenv("CI") != "" {
					t.Fatalf("CI is set, but git cannot read this checkout (%s): the results cannot be compared with the code; "+
						"mark it safe (git config --global --add safe.directory DIR) and clone with its history", v.noGit)
				}
			}
			for _, p := range v.problems {
				t.Error(p)
			}
			if v.noGit != "" {
				t.Skip("not a git checkout git can read: cannot compare the code version")
			}
		})
	}
}

// verdict is what checkCommitted finds: every problem (none: the results
// are the committed code's full run), and why git could not compare the
// code.
type verdict struct {
	problems []string
	noGit    string
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

// missingRuns names the runs of c that r lacks seeds of (or has too
// many), and says whether r has exactly one run per expected seed.
func missingRuns(r *lab.Results, c lab.Config) (short []string, complete bool) {
	n := 0
	for _, name := range expectedRuns(c) {
		seeds := c.VariantSeedsOf(name)
		n += len(seeds)
		if runs, _ := r.Seeds(name); len(runs) != len(seeds) {
			short = append(short, fmt.Sprintf("%s (%d of %d seeds)", name, len(runs), len(seeds)))
		}
	}
	return short, len(short) == 0 && len(r.Runs) == n
}

// checkCommitted checks the results at path against the suite's config
// want, in the git repository at repo. An error is returned only when the
// file cannot be read (fs.ErrNotExist: it is missing).
func checkCommitted(repo, suite, path string, want lab.Config) (verdict, error) {
	var v verdict
	r, err := lab.ReadResults(path)
	if err != nil {
		return v, err
	}
	fail := func(format string, args ...any) { v.problems = append(v.problems, fmt.Sprintf(format, args...)) }
	if rev := max(r.Config.Revision, 1); rev < want.Revision {
		short, complete := missingRuns(r, r.Config)
		if !complete {
			fail("%s (revision %d) is incomplete for the config it records: %d runs; these have another number of seeds: %s",
				path, rev, len(r.Runs), strings.Join(short, ", "))
		}
		fail("%s is of revision %d of the lab (none recorded: 1); the code is revision %d: re-run it (SUITES=%s make lab-results; README gives the time)",
			path, rev, want.Revision, suite)
		return v, nil
	}
	if !reflect.DeepEqual(r.Config, want) {
		fail("%s: its config differs from the suite's:\n got %+v\nwant %+v\n(re-run SUITES=%s make lab-results)", path, r.Config, want, suite)
	}
	if cmd := "go run ./cmd/lab --suite " + suite; r.Provenance.Command != cmd {
		fail("%s was made by %q; want the suite's command, %s", path, r.Provenance.Command, cmd)
	}
	if short, complete := missingRuns(r, want); !complete {
		fail("%s has %d runs; want one per seed of %v; these have another number: %s (an unfinished run?)",
			path, len(r.Runs), expectedRuns(want), strings.Join(short, ", "))
	}
	if b := r.Provenance.Backend; !strings.HasPrefix(b, "xla") && !strings.HasPrefix(b, "go") {
		fail("%s ran on backend %q; want one recorded, xla… or go…", path, b)
	}
	p := r.Provenance
	if p.Dirty || p.Commit == "" {
		fail("%s was made from commit %q, with uncommitted changes: %t; commit the code, then run make lab-results", path, p.Commit, p.Dirty)
		return v, nil
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if out, err := git("rev-parse", "--git-dir"); err != nil {
		v.noGit = fmt.Sprintf("%v: %s", err, out)
		return v, nil
	}
	if out, err := git("merge-base", "--is-ancestor", p.Commit, "HEAD"); err != nil {
		fail("%s comes from commit %s, which is not in this checkout's history (%v %s): re-run SUITES=%s make lab-results", path, p.Commit, err, out, suite)
		return v, nil
	}
	if !SameCode(repo)(p.Commit) {
		out, _ := git(append([]string{"diff", "--stat", p.Commit, "HEAD", "--"}, ResultFiles...)...)
		fail("code that decides the lab's numbers changed since %s was made (commit %s):\n%s\nre-run SUITES=%s make lab-results", path, p.Commit, out, suite)
	}
	return v, nil
}

// TestCheckCommittedCanFail shows that the check of the committed results
// fails when it should: on copies, in a temporary folder, of a complete
// run of each suite's config that are truncated, of an older revision,
// made from uncommitted or changed code, or by another command; and that
// it passes the complete run of each suite.
func TestCheckCommittedCanFail(t *testing.T) {
	if out, err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").CombinedOutput(); err != nil {
		t.Skipf("not a git checkout git can read (%v: %s)", err, out)
	}
	head, _ := CurrentCode(root)
	// A commit whose ResultFiles differ from HEAD's: the parent of the last
	// commit that changed the recall task.
	last, err := exec.Command("git", "-C", root, "rev-list", "-1", "HEAD", "--", "pkg/lab/recall.go").Output()
	if err != nil || len(last) == 0 {
		t.Skipf("no history of pkg/lab/recall.go (a shallow clone?): %v", err)
	}
	stale, err := exec.Command("git", "-C", root, "rev-parse", strings.TrimSpace(string(last))+"^").Output()
	if err != nil {
		t.Skipf("no parent of the last change to pkg/lab/recall.go (a shallow clone?): %v", err)
	}
	// complete is a run of c from HEAD with one (empty) run per expected
	// name and seed: what the check looks at.
	complete := func(suite string, c lab.Config) *lab.Results {
		r := &lab.Results{Config: c, Provenance: lab.Provenance{Command: "go run ./cmd/lab --suite " + suite, Commit: head, Backend: "xla:cpu"}}
		for _, name := range expectedRuns(c) {
			for _, s := range c.VariantSeedsOf(name) {
				r.Runs = append(r.Runs, lab.Run{Name: name, Seed: s})
			}
		}
		return r
	}
	old := func(c lab.Config) lab.Config { c.Revision = 0; return c } // revision 1 recorded no revision
	dir := t.TempDir()
	for _, c := range []struct {
		name, suite string
		config      lab.Config
		edit        func(r *lab.Results)
		want        string // in a problem; "" none
	}{
		{"lab complete", "lab", lab.DefaultConfig(), func(*lab.Results) {}, ""},
		{"lab truncated", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Runs = r.Runs[:len(r.Runs)-1] }, "unfinished run"},
		{"lab without a control", "lab", lab.DefaultConfig(), func(r *lab.Results) {
			r.Runs = slices.DeleteFunc(r.Runs, func(run lab.Run) bool { return run.Name == "learned-long" })
		}, "learned-long (0 of 3 seeds)"},
		{"lab of revision 1", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Config = old(r.Config) }, "SUITES=lab make lab-results"},
		{"lab with another config", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Config.Steps = 1000 }, "config differs"},
		{"lab from uncommitted code", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Provenance.Dirty = true }, "uncommitted changes: true"},
		{"lab from changed code", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Provenance.Commit = strings.TrimSpace(string(stale)) }, "changed since"},
		{"lab from a commit not here", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Provenance.Commit = strings.Repeat("0", 40) }, "not in this checkout's history"},
		{"lab by another command", "lab", lab.DefaultConfig(), func(r *lab.Results) { r.Provenance.Command = "go run ./cmd/lab --quick" }, "suite's command"},
		{"layers complete", "layers", lab.LayersConfig(), func(*lab.Results) {}, ""},
		{"layers truncated", "layers", lab.LayersConfig(), func(r *lab.Results) { r.Runs = r.Runs[1:] }, "unfinished run"},
		{"layers of revision 1, complete", "layers", lab.LayersConfig(), func(r *lab.Results) { r.Config = old(r.Config) }, "SUITES=layers make lab-results"},
		{"layers of revision 1, truncated", "layers", lab.LayersConfig(), func(r *lab.Results) {
			r.Config = old(r.Config)
			r.Runs = r.Runs[1:]
		}, "incomplete"},
		{"layers with revision 1's recall task", "layers", lab.LayersConfig(), func(r *lab.Results) {
			r.Config.Recall = lab.Recall{Pairs: 4, Queries: 12}
		}, "config differs"},
		{"layers from changed code", "layers", lab.LayersConfig(), func(r *lab.Results) { r.Provenance.Commit = strings.TrimSpace(string(stale)) }, "changed since"},
		{"layers by the lab suite's command", "layers", lab.LayersConfig(), func(r *lab.Results) { r.Provenance.Command = "go run ./cmd/lab --suite lab" }, "suite's command"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := complete(c.suite, c.config)
			c.edit(r)
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := r.Write(path); err != nil {
				t.Fatal(err)
			}
			v, err := checkCommitted(root, c.suite, path, c.config)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.want == "" && len(v.problems) > 0:
				t.Errorf("problems in a good copy: %q", v.problems)
			case c.want != "" && !slices.ContainsFunc(v.problems, func(p string) bool { return strings.Contains(p, c.want) }):
				t.Errorf("no problem mentions %q; got %q", c.want, v.problems)
			}
		})
	}
	// Each suite's real file, truncated, fails too.
	for _, s := range suites {
		real, err := lab.ReadResults(filepath.Join(root, s.path))
		if err != nil {
			t.Skipf("no committed results of %s to truncate: %v", s.name, err)
		}
		real.Runs = real.Runs[:len(real.Runs)/2]
		path := filepath.Join(dir, s.name+"-half.json")
		if err := real.Write(path); err != nil {
			t.Fatal(err)
		}
		if v, err := checkCommitted(root, s.name, path, s.config); err != nil || len(v.problems) == 0 {
			t.Errorf("the committed results of %s cut in half pass the check (%v)", s.name, err)
		}
	}
}
