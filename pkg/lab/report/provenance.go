package report

import (
	"os/exec"
	"runtime"
	"strings"

	"github.com/posenc/course/internal/machine"
	"github.com/posenc/course/pkg/lab"
)

// ResultFiles are the files, relative to the repository root, whose code
// decides the lab's numbers: a change to any of them after a run makes its
// results stale. Reporting (this package, figures, tables, the progress
// bar) does not count.
var ResultFiles = []string{
	"pkg/lab/baseline.go", "pkg/lab/cells.go", "pkg/lab/checkpoint.go", "pkg/lab/config.go", "pkg/lab/corpus.go",
	"pkg/lab/corpus/go-docs.txt", "pkg/lab/data.go", "pkg/lab/eval.go", "pkg/lab/model.go",
	"pkg/lab/optimizer.go", "pkg/lab/recall.go", "pkg/lab/run.go", "pkg/lab/scaling.go",
	"pkg/lab/train.go", "pkg/lab/vocab.go",
	// Every frequency, slope, bucket and scaling the models use: the Go
	// files of pkg/posenc and pkg/posgraph, tests aside (git pathspecs).
	":(glob)pkg/posenc/*.go", ":(glob,exclude)pkg/posenc/*_test.go",
	":(glob)pkg/posgraph/*.go", ":(glob,exclude)pkg/posgraph/*_test.go",
	// RoPE's vectors as graph inputs, for SmolLM2's long run: no lab model
	// calls them (TestLabDoesNotCallExcludedCode).
	":(exclude)" + ExcludedPosgraphFile,
}

// ExcludedPosgraphFile is the one Go file of pkg/posgraph that the lab's
// numbers do not depend on, and excludedCalls are the names it defines,
// which no lab file may use.
const ExcludedPosgraphFile = "pkg/posgraph/rope_vectors.go"

var excludedCalls = []string{"EncodeWith", "RoPEVectors", "ropeTablesFrom", "RoPERotation", "Rotation", "RotationWith", "newRoPERotation", "checkVectors"}

// CurrentCode returns the commit checked out in the git repository at dir,
// and whether any of ResultFiles has uncommitted changes. Outside a git
// checkout it returns an empty commit.
func CurrentCode(dir string) (commit string, dirty bool) {
	return CodeState(dir, ResultFiles)
}

// CodeState returns the commit checked out in the git repository at dir,
// and whether any file of paths (git pathspecs) has uncommitted changes.
// Outside a git checkout it returns an empty commit.
func CodeState(dir string, paths []string) (commit string, dirty bool) {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return "", false
	}
	status, err := git(append([]string{"status", "--porcelain", "--"}, paths...)...)
	return commit, err != nil || status != ""
}

// SameCode returns a lab.Options.SameCode for the git repository at dir:
// true when none of ResultFiles differs between commit and the commit
// checked out (the staleness check's criterion), so that a run resumed
// after commits that change only lessons or reporting keeps its cells.
func SameCode(dir string) func(commit string) bool {
	return func(commit string) bool {
		cmd := exec.Command("git", append([]string{"diff", "--quiet", commit, "HEAD", "--"}, ResultFiles...)...)
		cmd.Dir = dir
		return cmd.Run() == nil
	}
}

// NewProvenance returns the provenance of a run started now by command, in
// the repository at dir, on backend.
func NewProvenance(command, dir, backend string) lab.Provenance {
	commit, dirty := CurrentCode(dir)
	return lab.Provenance{Command: command, Commit: commit, Dirty: dirty, Backend: backend,
		GoVersion: runtime.Version(), CPU: machine.CPUModel(), Cores: runtime.NumCPU(),
		LoadBefore: machine.LoadAverage()}
}

// Finish completes p with what is known only at the end: the load and the
// peak memory.
func Finish(p *lab.Provenance) {
	p.LoadAfter, p.PeakRSSMiB = machine.LoadAverage(), machine.PeakRSSMiB()
}
