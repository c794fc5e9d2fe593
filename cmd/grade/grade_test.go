package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
)

var root = filepath.Join("..", "..")

func TestWriteTable(t *testing.T) {
	one, _ := check.ByNum(1)
	three, _ := check.ByNum(3)
	four, _ := check.ByNum(4)
	long := "sin and cos are swapped: " + strings.Repeat("long ", 40) + "(lesson 2, “Deriving the formula”)."
	rep := &Report{MaxPoints: 20, Total: 3}
	rep.add(Result{Status: catalog.StatusPass, Checks: 6, ChecksPassed: 6}, one)
	rep.add(Result{Status: catalog.StatusFail, Checks: 5, ChecksPassed: 2, Summary: long}, three)
	rep.add(Result{Status: catalog.StatusTodo}, four)
	var b bytes.Buffer
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, want := range []string{
		"exercise", "points",
		"01 attention", "pass", "6/6", "5/5",
		"03 sinusoidal", "fail", "2/5", "0/10", "Hint: sin and cos are swapped", "(lesson 2, “Deriving the formula”).",
		"04 add_positions", "not implemented", "write AddPositions in exercises/04_add_positions.go (lesson 2, “Scaling embeddings by √d_model”)",
		"Total: 5/20 points, 1 of 3 exercises pass.",
		"-run Sinusoidal",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	for _, l := range strings.Split(table, "\n") {
		if n := len([]rune(l)); n > width {
			t.Errorf("line of %d characters; want at most %d: %q", n, width, l)
		}
	}
	// The columns line up although hint lines come between the rows.
	col := -1
	for _, l := range strings.Split(table, "\n") {
		if i := strings.Index(l, "/5 "); i >= 0 && !strings.HasPrefix(l, " ") {
			if j := strings.Index(l, "  2  "); j >= 0 && col >= 0 && j != col {
				t.Errorf("columns do not line up:\n%s", table)
			}
		}
		if i := strings.Index(l, "  2  "); i >= 0 && !strings.HasPrefix(l, " ") && col < 0 {
			col = i
		}
	}
	b.Reset()
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, b.String())
	}
	if back.Points != 5 || back.MaxPoints != 20 || len(back.Exercises) != 3 || back.Exercises[1].Summary != long {
		t.Errorf("--json round trip: %+v", back)
	}
	rep.Lesson = 2
	b.Reset()
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if want := "Lesson 2 (Sinusoidal encodings): 5/20 points"; !strings.Contains(b.String(), want) {
		t.Errorf("the table of -lesson 2 lacks %q:\n%s", want, b.String())
	}
}

// TestChangedFirst checks that a run lists first the exercises whose
// result changed since the previous run, saying what each was, marks
// passes, and keeps the previous outcomes across runs of single lessons.
func TestChangedFirst(t *testing.T) {
	one, _ := check.ByNum(1)
	three, _ := check.ByNum(3)
	four, _ := check.ByNum(4)
	grade := func(threeChecks int) *Report {
		rep := &Report{MaxPoints: 20, Total: 3}
		rep.add(Result{Status: catalog.StatusPass, Checks: 6, ChecksPassed: 6}, one)
		status := catalog.StatusFail
		if threeChecks == 5 {
			status = catalog.StatusPass
		}
		rep.add(Result{Status: status, Checks: 5, ChecksPassed: threeChecks}, three)
		rep.add(Result{Status: catalog.StatusTodo}, four)
		return rep
	}
	dir := t.TempDir()
	if prev := loadState(dir); prev != nil {
		t.Fatalf("a fresh checkout has outcomes %v", prev)
	}
	first := grade(2)
	first.Since(loadState(dir))
	if first.Changed() != 0 || first.Exercises[0].Number != 1 {
		t.Errorf("first run: %d changed, first row %d; want none changed, in order", first.Changed(), first.Exercises[0].Number)
	}
	if err := saveState(dir, first.Outcomes()); err != nil {
		t.Fatal(err)
	}
	second := grade(5)
	second.Since(loadState(dir))
	var b bytes.Buffer
	if err := second.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	lines := strings.Split(table, "\n")
	if second.Changed() != 1 || second.Exercises[0].Number != 3 || second.Exercises[0].Was != "fail 2/5" {
		t.Fatalf("second run: %d changed, first %+v; want exercise 3 first, was fail 2/5", second.Changed(), second.Exercises[0])
	}
	for _, want := range []string{"1 changed since your last run, listed first.", "since your last run", "✓ pass", "was fail 2/5"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if !strings.HasPrefix(lines[3], "03 sinusoidal") || !strings.HasPrefix(lines[4], "01 attention") {
		t.Errorf("rows not in the order changed, then the rest:\n%s", table)
	}
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing spaces: %q", l)
		}
	}
	// A run of one lesson keeps the others' outcomes.
	if err := saveState(dir, map[int]string{4: "fail 1/3"}); err != nil {
		t.Fatal(err)
	}
	if got := loadState(dir); got[3] != "fail 2/5" || got[4] != "fail 1/3" || got[1] != "pass 6/6" {
		t.Errorf("merged outcomes %v", got)
	}
}

func TestWrap(t *testing.T) {
	got := wrap("a bb ccc dddd eeeee", 8)
	want := []string{"a bb ccc", "dddd", "eeeee"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("wrap = %q; want %q", got, want)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-nope"},
		{"extra"},
		{"-verify", "--json"},
		{"-lesson", "99"},
		{"-lesson", "two"},
		{"-dir", t.TempDir()},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d; want 2", args, code)
		}
		if msg := stderr.String(); !strings.HasPrefix(msg, "grade: ") || strings.Count(msg, "\n") != 1 {
			t.Errorf("run(%q) printed %q; want one line starting with \"grade: \"", args, msg)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "-lesson N") {
		t.Errorf("run(-h) = %d, %q; want 0 and the usage with -lesson N", code, stdout.String())
	}
}

// TestStandIns checks the stand-in of every exercise: the solution's
// signatures, bodies that panic with the stub's message.
func TestStandIns(t *testing.T) {
	for _, e := range check.Exercises() {
		src, err := standIn(root, e)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), e.File(), src, 0); err != nil {
			t.Errorf("%s: the stand-in does not parse: %v\n%s", e.Name(), err, src)
		}
		for _, fn := range e.Funcs {
			if !strings.Contains(string(src), "func "+fn+"(") {
				t.Errorf("%s: the stand-in lacks func %s:\n%s", e.Name(), fn, src)
			}
		}
		if want := fmt.Sprintf("%q", catalog.StubPanic(e)+catalog.NotCompiling); strings.Count(string(src), want) != len(e.Funcs) {
			t.Errorf("%s: the stand-in does not panic with %s in each function:\n%s", e.Name(), want, src)
		}
	}
}

// TestCheckRunCatches feeds checkRun broken reports: each must be reported.
func TestCheckRunCatches(t *testing.T) {
	solvedOdd := func(e catalog.Exercise) bool { return e.Num%2 == 1 }
	good := func() *Report {
		rep := &Report{}
		for _, e := range check.Exercises() {
			r := Result{Status: catalog.StatusTodo}
			if solvedOdd(e) {
				r = Result{Status: catalog.StatusPass, Checks: 3, ChecksPassed: 3}
				for _, u := range e.Uses {
					if u%2 == 0 {
						r = Result{Status: catalog.StatusWaits, Summary: fmt.Sprintf("F calls your G (exercise %d), which is not written yet", u)}
					}
				}
			}
			rep.add(r, e)
		}
		return rep
	}
	if err := checkRun(good(), solvedOdd); err != nil {
		t.Fatalf("checkRun on a good report: %v", err)
	}
	tests := []struct {
		name    string
		breakIt func(*Report)
		want    string
	}{
		{"solution_fails", func(r *Report) { r.Exercises[0] = Result{Number: 1, Slug: "attention", Status: catalog.StatusFail} }, "fails on its solution"},
		{"stub_passes", func(r *Report) { r.Exercises[1].Status = catalog.StatusPass }, "on its untouched stub"},
		{"waits_for_nothing", func(r *Report) { r.Exercises[20].Summary = "something else" }, "want \"waits\" naming it"},
		{"does_not_compile", func(r *Report) { r.CompileErrors = "exercises/03_sinusoidal.go:1:1: oops" }, "do not compile"},
	}
	for _, tc := range tests {
		rep := good()
		tc.breakIt(rep)
		if err := checkRun(rep, solvedOdd); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: checkRun = %v; want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestGradeRealExercises runs the grader on the real exercises: on the
// stubs as they are, for one lesson, and with every solution standing in
// for its stub.
func TestGradeRealExercises(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and runs the exercise tests three times")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(stateEnv, "off") // the checkout's own last run stays as it is
	t.Run("stubs", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", abs}, &stdout, &stderr); code != 1 {
			t.Fatalf("exit status %d; want 1 (stderr: %s)", code, stderr.String())
		}
		table := stdout.String()
		for _, e := range check.Exercises() {
			if !strings.Contains(table, e.Name()+" ") || !strings.Contains(table, "write "+e.FuncList()+" in "+e.Path()) {
				t.Errorf("the table lacks the row of %s and its stub's message:\n%s", e.Name(), table)
			}
		}
		if want := fmt.Sprintf("Total: 0/%d points, 0 of %d exercises pass.", catalog.MaxPoints(check.Exercises()), len(check.Exercises())); !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	})
	t.Run("lesson_2", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", abs, "-lesson", "2"}, &stdout, &stderr); code != 1 {
			t.Fatalf("exit status %d; want 1 (stderr: %s)", code, stderr.String())
		}
		table := stdout.String()
		for _, e := range check.Exercises() {
			if got := strings.Contains(table, e.Name()+" "); got != (e.Lesson == 2) {
				t.Errorf("row of %s shown: %v; want %v:\n%s", e.Name(), got, e.Lesson == 2, table)
			}
		}
		if want := "Lesson 2 (Sinusoidal encodings): 0/25 points, 0 of 3 exercises pass."; !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	})
	t.Run("lesson_2_from_a_notebook", func(t *testing.T) {
		// In a notebook cell the table is the result: the status stays 0.
		t.Setenv(notebookEnv, abs)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", abs, "-lesson", "2"}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit status %d from a notebook; want 0 (stderr: %s)", code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "0 of 3 exercises pass") {
			t.Errorf("no table from a notebook:\n%s", stdout.String())
		}
	})
	t.Run("solutions", func(t *testing.T) {
		v := &verifier{root: abs}
		data, err := json.Marshal(map[string]any{"Replace": v.overlayFor(func(catalog.Exercise) bool { return true })})
		if err != nil {
			t.Fatal(err)
		}
		overlay := filepath.Join(t.TempDir(), "overlay.json")
		if err := os.WriteFile(overlay, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-dir", abs, "-overlay", overlay, "--json"}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit status %d; want 0\n%s%s", code, stdout.String(), stderr.String())
		}
		var rep Report
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("--json: %v\n%s", err, stdout.String())
		}
		if rep.Points != catalog.MaxPoints(check.Exercises()) || rep.Passed != len(check.Exercises()) {
			t.Errorf("%d/%d points, %d/%d pass; want full marks", rep.Points, rep.MaxPoints, rep.Passed, rep.Total)
		}
		for _, r := range rep.Exercises {
			if r.Checks == 0 || r.ChecksPassed != r.Checks {
				t.Errorf("%02d %s: %d/%d checks", r.Number, r.Slug, r.ChecksPassed, r.Checks)
			}
		}
	})
}

// TestCompilerPath checks that paths in compiler messages, which the go
// command shortens relative to the directory it ran in, are found again.
func TestCompilerPath(t *testing.T) {
	for _, tc := range []struct{ root, path, want string }{
		{"/tmp/x/c", "../../grade-1/07_rope.go", "/tmp/grade-1/07_rope.go"},
		{"/tmp/x/c", "exercises/07_rope.go", "/tmp/x/c/exercises/07_rope.go"},
		{"/tmp/x/c", "/tmp/grade-1/../grade-1/07_rope.go", "/tmp/grade-1/07_rope.go"},
	} {
		if got := compilerPath(tc.root, tc.path); got != tc.want {
			t.Errorf("compilerPath(%q, %q) = %q; want %q", tc.root, tc.path, got, tc.want)
		}
	}
}

// TestHashTreeFollowsLinks checks that the digest of the working tree (the
// last step of -verify) sees through a linked file, as go build does:
// changing what it points to changes the digest, and a link that points
// nowhere is an error rather than nothing.
func TestHashTreeFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "helpers.go")
	if err := os.WriteFile(target, []byte("package exercises\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "exercises")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(tree, "helpers.go")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	hash := func() string {
		t.Helper()
		h := sha256.New()
		if err := hashTree(h, tree, nil); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	before := hash()
	if err := os.WriteFile(target, []byte("package exercises\n\nfunc helper() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := hash(); after == before {
		t.Error("changing a linked file's target leaves the hash unchanged")
	}
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	if err := hashTree(sha256.New(), tree, nil); err == nil {
		t.Error("hashTree with a dangling link = nil; want an error")
	}
}
