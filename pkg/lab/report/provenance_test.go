package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// root is the repository's root, relative to this package.
const root = "../../.."

// ResultFiles are the files that decide the numbers: each exists, and
// every Go file of pkg/lab is one of them but the reporting ones.
func TestResultFiles(t *testing.T) {
	for _, f := range ResultFiles {
		if glob, ok := strings.CutPrefix(f, ":(glob)"); ok {
			if m, _ := filepath.Glob(filepath.Join(root, glob)); len(m) == 0 {
				t.Errorf("ResultFiles' pathspec %s matches no file", f)
			}
			continue
		}
		if strings.HasPrefix(f, ":(") {
			continue // an exclusion
		}
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("ResultFiles lists %s: %v", f, err)
		}
	}
	reporting := []string{"doc.go", "paired.go", "results.go", "stats.go"} // what the numbers are read with, not made by
	files, _ := filepath.Glob(filepath.Join(root, "pkg/lab/*.go"))
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasSuffix(name, "_test.go") || slices.Contains(reporting, name) {
			continue
		}
		if !slices.Contains(ResultFiles, "pkg/lab/"+name) {
			t.Errorf("pkg/lab/%s is not in ResultFiles: a change to it would not make the results stale", name)
		}
	}
}

// CurrentCode reads the commit, and calls the checkout dirty when one of
// ResultFiles differs from it, and only then.
func TestCurrentCode(t *testing.T) {
	if commit, dirty := CurrentCode(t.TempDir()); commit != "" || dirty {
		t.Errorf("outside a checkout: %q, %t; want no commit, not dirty", commit, dirty)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(path, text string) {
		t.Helper()
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("pkg/lab/config.go", "package lab\n")
	write("pkg/lab/results.go", "package lab\n")
	git("add", ".")
	git("commit", "-q", "-m", "x")
	commit, dirty := CurrentCode(dir)
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(commit) || dirty {
		t.Fatalf("a clean checkout: %q, %t; want its commit, not dirty", commit, dirty)
	}
	write("pkg/lab/results.go", "package lab\n\n// reporting\n")
	write("notes.txt", "untracked\n")
	if _, dirty := CurrentCode(dir); dirty {
		t.Error("a change to reporting code and an untracked file: dirty; want clean")
	}
	write("pkg/lab/config.go", "package lab\n\n// a change\n")
	if c, dirty := CurrentCode(dir); c != commit || !dirty {
		t.Errorf("pkg/lab/config.go changed: %q, %t; want %s, dirty", c, dirty, commit)
	}
	git("checkout", "-q", "--", "pkg/lab/config.go")
	write("pkg/lab/recall.go", "package lab\n") // a new file that decides the numbers
	if _, dirty := CurrentCode(dir); !dirty {
		t.Error("pkg/lab/recall.go added, uncommitted: clean; want dirty")
	}
}

func TestNewProvenance(t *testing.T) {
	p := NewProvenance("go run ./cmd/lab --quick", t.TempDir(), "go (pure Go)")
	if p.Command != "go run ./cmd/lab --quick" || p.Backend != "go (pure Go)" || p.Commit != "" || p.Dirty ||
		p.GoVersion != runtime.Version() || p.Cores != runtime.NumCPU() {
		t.Errorf("NewProvenance = %+v", p)
	}
	Finish(&p)
	if runtime.GOOS == "linux" && !(p.PeakRSSMiB > 0) {
		t.Errorf("after Finish, peak memory %g MiB; want the process's", p.PeakRSSMiB)
	}
}

// SameCode accepts the checked-out commit and rejects one git does not
// know (a diff that fails is not the same code).
func TestSameCode(t *testing.T) {
	commit, _ := CurrentCode(root)
	if commit == "" {
		t.Skip("not a git checkout")
	}
	same := SameCode(root)
	if !same(commit) {
		t.Errorf("SameCode(HEAD = %s) = false; want true", commit)
	}
	if same("0000000000000000000000000000000000000000") {
		t.Error("SameCode of an unknown commit = true; want false")
	}
}

// The lab's results leave ExcludedPosgraphFile out of ResultFiles: that is
// sound only while no lab model calls what it defines, and while it still
// defines those names (a rename would let a call slip past this test).
func TestLabDoesNotCallExcludedCode(t *testing.T) {
	excluded, err := os.ReadFile(filepath.Join(root, ExcludedPosgraphFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range excludedCalls {
		if !regexp.MustCompile(`func (\([^)]*\) )?` + name + `\b|type ` + name + `\b`).Match(excluded) {
			t.Errorf("%s no longer defines %s: update excludedCalls", ExcludedPosgraphFile, name)
		}
	}
	files, _ := filepath.Glob(filepath.Join(root, "pkg/lab/*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range excludedCalls {
			if regexp.MustCompile(`\b` + name + `\b`).Match(b) {
				t.Errorf("%s uses %s, defined in %s, which ResultFiles leave out: the lab's results would not go stale when it changes", f, name, ExcludedPosgraphFile)
			}
		}
	}
	others, _ := filepath.Glob(filepath.Join(root, "pkg/posgraph/*.go"))
	for _, f := range others {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, filepath.Base(ExcludedPosgraphFile)) {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, name := range excludedCalls {
			if regexp.MustCompile(`\b` + name + `\b`).Match(b) {
				t.Errorf("%s uses %s from %s: the lab's models would depend on a file ResultFiles leave out", f, name, ExcludedPosgraphFile)
			}
		}
	}
}
