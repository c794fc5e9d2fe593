package lab

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// committedResults is the full run's results file, relative to this
// package.
const committedResults = "../../lab/results/results.json"

// TestCommittedResults checks that lab/results/results.json is the full
// default run of the committed code: its config is DefaultConfig, it was
// made from a clean checkout of a commit that is in this one's history,
// and none of ResultFiles changed since.
func TestCommittedResults(t *testing.T) {
	r, err := ReadResults(committedResults)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s is missing: run make lab-results and commit it", committedResults)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Config, DefaultConfig()) {
		t.Errorf("the committed results' config differs from DefaultConfig():\n got %+v\nwant %+v\n(re-run make lab-results)", r.Config, DefaultConfig())
	}
	if r.Command != "go run ./cmd/lab" {
		t.Errorf("the committed results were made by %q; want the default command, go run ./cmd/lab", r.Command)
	}
	if r.Code.Dirty || r.Code.Commit == "" {
		t.Fatalf("the committed results were made from commit %q with uncommitted changes %v: commit the code, then run make lab-results", r.Code.Commit, r.Code.Dirty)
	}
	if !strings.HasPrefix(r.Environment.Backend, "go") {
		t.Errorf("the committed results ran on %q; want the pure-Go backend", r.Environment.Backend)
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = "../.."
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
		t.Skip("not a git checkout: cannot compare the code version")
	}
	if out, err := git("merge-base", "--is-ancestor", r.Code.Commit, "HEAD"); err != nil {
		t.Fatalf("the committed results come from commit %s, which is not in this checkout's history (%v %s): re-run make lab-results",
			r.Code.Commit, err, out)
	}
	if out, err := git(append([]string{"diff", "--stat", r.Code.Commit, "HEAD", "--"}, ResultFiles...)...); err != nil || out != "" {
		t.Errorf("code that decides the lab's numbers changed since the committed run (commit %s): %v\n%s\nre-run make lab-results",
			r.Code.Commit, err, out)
	}
}

// TestLessonShowsTheModel checks that lesson 8 shows Model.Logits as it is.
func TestLessonShowsTheModel(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "model.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("model.go")
	if err != nil {
		t.Fatal(err)
	}
	var fn string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Logits" {
			fn = string(src[fset.Position(fd.Doc.Pos()).Offset:fset.Position(fd.End()).Offset])
		}
	}
	lessons, _ := filepath.Glob("../../lessons/08-*.md")
	if len(lessons) != 1 {
		t.Fatalf("want one lessons/08-*.md, got %v", lessons)
	}
	lesson, err := os.ReadFile(lessons[0])
	if err != nil {
		t.Fatal(err)
	}
	if fn == "" || !strings.Contains(string(lesson), "```golang\n"+fn+"\n```") {
		t.Errorf("%s does not show Model.Logits as pkg/lab/model.go has it; copy it in a ```golang block:\n%s", lessons[0], fn)
	}
}
