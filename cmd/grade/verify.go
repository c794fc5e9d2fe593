package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// feedbackTest is the test of the feedback itself (exercises/feedback_test.go):
// it is not graded, and must pass whatever the stubs hold.
const feedbackTest = "TestFeedback"

// verify runs every check of the course's exercises and returns the exit
// status: 0 when all pass, 1 otherwise.
func verify(root string, stdout, stderr io.Writer) int {
	start := time.Now()
	root, err := filepath.Abs(root)
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	before, err := treeHash(root, "exercises", "solutions")
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	v := &verifier{root: root, out: stdout, list: exercises}
	v.step("exercise list, files and exercises/README.md agree", v.checkFiles)
	v.step("untouched stubs fail with \"not implemented yet\"; feedback tests pass", v.checkStubs)
	v.step("odd-numbered solutions pass over the stubs, even stubs still fail", func() (string, error) { return v.checkHalf(1) })
	v.step("even-numbered solutions pass over the stubs, odd stubs still fail", func() (string, error) { return v.checkHalf(0) })
	v.step("a new user copying solutions/*.go over exercises/ gets full marks", v.checkNewUser)
	v.step("the working tree is unchanged", func() (string, error) {
		after, err := treeHash(root, "exercises", "solutions")
		if err != nil {
			return "", err
		}
		if after != before {
			return "", errors.New("exercises/ or solutions/ changed during the checks")
		}
		return "", nil
	})
	if v.failed > 0 {
		fmt.Fprintf(stdout, "verify: FAIL (%d of %d checks failed, %.1fs)\n", v.failed, v.steps, time.Since(start).Seconds())
		return 1
	}
	fmt.Fprintf(stdout, "verify: PASS (%d checks, %d exercises, %d points, %.1fs)\n", v.steps, len(v.list), maxPoints(v.list), time.Since(start).Seconds())
	return 0
}

type verifier struct {
	root          string
	out           io.Writer
	list          []exercise
	steps, failed int
}

// step runs one check and prints its outcome.
func (v *verifier) step(name string, check func() (detail string, err error)) {
	v.steps++
	start := time.Now()
	detail, err := check()
	took := time.Since(start).Seconds()
	if err != nil {
		v.failed++
		fmt.Fprintf(v.out, "FAIL  %s (%.1fs)\n%s\n", name, took, indent(err.Error()))
		return
	}
	if detail != "" {
		detail = ": " + detail
	}
	fmt.Fprintf(v.out, "ok    %s%s (%.1fs)\n", name, detail, took)
}

// problems collects the failures of one check.
type problems []string

func (p *problems) addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return errors.New(strings.Join(p, "\n"))
}

var numbered = regexp.MustCompile(`^(\d\d)_[a-z0-9_]+\.go$`)

// checkFiles checks the exercise list against the files and the README.
func (v *verifier) checkFiles() (string, error) {
	var p problems
	known := map[string]bool{}
	for _, e := range v.list {
		base := e.Base()
		known[base] = true
		stub := v.read(&p, "exercises", base)
		if stub != "" {
			if !strings.Contains(stub, "// TODO") {
				p.addf("exercises/%s: the stub has no // TODO", base)
			}
			if want := `panic("` + notImplemented + `: open exercises/` + base + `")`; !strings.Contains(stub, want) {
				p.addf("exercises/%s: the stub does not %s", base, want)
			}
			v.checkPackage(&p, "exercises/"+base, stub)
		}
		test := v.read(&p, "exercises", strings.TrimSuffix(base, ".go")+"_test.go")
		if test != "" && !strings.Contains(test, "func "+e.Test+"(t *testing.T)") {
			p.addf("exercises/%s_test.go: no func %s(t *testing.T)", strings.TrimSuffix(base, ".go"), e.Test)
		}
		sol := v.read(&p, "solutions", base)
		if sol != "" {
			if strings.Contains(sol, notImplemented) || strings.Contains(sol, "// TODO") {
				p.addf("solutions/%s is still a stub", base)
			}
			v.checkPackage(&p, "solutions/"+base, sol)
		}
	}
	for _, dir := range []string{"exercises", "solutions"} {
		entries, err := os.ReadDir(filepath.Join(v.root, dir))
		if err != nil {
			p.addf("%v", err)
			continue
		}
		for _, en := range entries {
			name := en.Name()
			if test, ok := strings.CutSuffix(name, "_test.go"); ok {
				name = test + ".go"
			}
			if numbered.MatchString(name) && !known[name] {
				p.addf("%s/%s is not in cmd/grade's exercise list", dir, en.Name())
			}
		}
	}
	v.checkReadme(&p)
	return fmt.Sprintf("%d exercises, %d points", len(v.list), maxPoints(v.list)), p.err()
}

// read returns a file's text, recording a problem when it cannot.
func (v *verifier) read(p *problems, dir, name string) string {
	data, err := os.ReadFile(filepath.Join(v.root, dir, name))
	if err != nil {
		p.addf("%s/%s: %v", dir, name, errors.Unwrap(err))
		return ""
	}
	return string(data)
}

// checkPackage checks that a file declares package exercises, so that it can
// stand in for the stub.
func (v *verifier) checkPackage(p *problems, name, src string) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.PackageClauseOnly)
	if err != nil {
		p.addf("%v", err)
		return
	}
	if f.Name.Name != "exercises" {
		p.addf("%s declares package %s; want exercises", name, f.Name.Name)
	}
}

// checkReadme checks exercises/README.md's table row and hints for each
// exercise: | NN | [title](NN_slug.go) | lesson … | difficulty | points | … |.
func (v *verifier) checkReadme(p *problems) {
	text := v.read(p, "exercises", "README.md")
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	for _, e := range v.list {
		prefix := fmt.Sprintf("| %02d |", e.Num)
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
		if i < 0 {
			p.addf("exercises/README.md: no table row starting %q", prefix)
			continue
		}
		cells := strings.Split(strings.Trim(lines[i], "| "), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		if len(cells) < 5 {
			p.addf("exercises/README.md: row %q has %d cells; want at least 5", lines[i], len(cells))
			continue
		}
		if !strings.Contains(cells[1], "("+e.Base()+")") {
			p.addf("exercises/README.md, exercise %02d: the title does not link to %s", e.Num, e.Base())
		}
		if !strings.HasPrefix(cells[2], strconv.Itoa(e.Lesson)) {
			p.addf("exercises/README.md, exercise %02d: lesson %q; want %d", e.Num, cells[2], e.Lesson)
		}
		if cells[3] != e.Difficulty {
			p.addf("exercises/README.md, exercise %02d: difficulty %q; want %q", e.Num, cells[3], e.Difficulty)
		}
		if cells[4] != strconv.Itoa(e.Points) {
			p.addf("exercises/README.md, exercise %02d: points %q; want %d", e.Num, cells[4], e.Points)
		}
		// The exercise's section: from its heading to the next one.
		heading := fmt.Sprintf("### %02d ", e.Num)
		h := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, heading) })
		if h < 0 {
			p.addf("exercises/README.md: no section %q", heading)
			continue
		}
		hints := 0
		for _, l := range lines[h+1:] {
			if strings.HasPrefix(l, "### ") || strings.HasPrefix(l, "## ") {
				break
			}
			if strings.HasPrefix(strings.TrimSpace(l), "- Hint") {
				hints++
			}
		}
		if hints == 0 {
			p.addf("exercises/README.md, section %q: no \"- Hint\" line", heading)
		}
	}
	if want := fmt.Sprintf("%d points", maxPoints(v.list)); !strings.Contains(text, want) {
		p.addf("exercises/README.md does not state the total, %q", want)
	}
}

// runOverlay grades root with the solutions of the exercises keep says,
// standing in for their stubs.
func (v *verifier) runOverlay(keep func(exercise) bool) (*Report, *testRun, error) {
	overlay := ""
	replace := map[string]string{}
	for _, e := range v.list {
		if keep(e) {
			replace[filepath.Join(v.root, "exercises", e.Base())] = filepath.Join(v.root, "solutions", e.Base())
		}
	}
	if len(replace) > 0 {
		dir, err := os.MkdirTemp("", "grade-overlay-")
		if err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(dir)
		data, err := json.Marshal(map[string]any{"Replace": replace})
		if err != nil {
			return nil, nil, err
		}
		overlay = filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(overlay, data, 0o644); err != nil {
			return nil, nil, err
		}
	}
	run, err := goTest(v.root, overlay)
	if err != nil {
		return nil, nil, err
	}
	return grade(run, v.list), run, nil
}

// checkRun checks a run where the exercises solved says carry their
// solution and the others their stub.
func (v *verifier) checkRun(rep *Report, run *testRun, solved func(exercise) bool) error {
	var p problems
	if rep.BuildOutput != "" {
		p.addf("the exercises do not compile:\n%s", rep.BuildOutput)
		return p.err()
	}
	for i, e := range v.list {
		r := rep.Exercises[i]
		switch {
		case solved(e) && !r.Passed:
			p.addf("%s fails on its solution (%s): %s", e.Name(), r.Status, r.Hint)
		case solved(e) && r.Checks == 0:
			p.addf("%s passes with no named checks (subtests)", e.Name())
		case !solved(e) && r.Status != statusTodo:
			p.addf("%s on its untouched stub: status %q; want %q", e.Name(), r.Status, statusTodo)
		case !solved(e) && !strings.Contains(r.Hint, notImplemented+": open exercises/"+e.Base()):
			p.addf("%s on its untouched stub says %q; want it to contain %q", e.Name(), r.Hint, notImplemented+": open exercises/"+e.Base())
		}
	}
	known := map[string]bool{feedbackTest: true}
	for _, e := range v.list {
		known[e.Test] = true
	}
	for name := range run.Tests {
		if !known[name] {
			p.addf("test %s is neither an exercise in cmd/grade's list nor %s", name, feedbackTest)
		}
	}
	if fb := run.Tests[feedbackTest]; fb == nil || fb.Action != "pass" {
		msg := "did not run"
		if fb != nil {
			msg = strings.Join(fb.Messages, "\n")
		}
		p.addf("%s fails (a misconception no longer gets its hint, or a correct answer is rejected):\n%s", feedbackTest, indent(msg))
	}
	return p.err()
}

func (v *verifier) checkStubs() (string, error) {
	none := func(exercise) bool { return false }
	rep, run, err := v.runOverlay(none)
	if err != nil {
		return "", err
	}
	if err := v.checkRun(rep, run, none); err != nil {
		return "", err
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		return "", err
	}
	if want := fmt.Sprintf("Total: 0/%d points, 0 of %d exercises pass.", rep.MaxPoints, rep.Total); !strings.Contains(table.String(), want) {
		return "", fmt.Errorf("the grader's table on the stubs lacks %q:\n%s", want, table.String())
	}
	return fmt.Sprintf("%d/%d not implemented, 0/%d points", len(v.list), len(v.list), rep.MaxPoints), nil
}

func (v *verifier) checkHalf(parity int) (string, error) {
	solved := func(e exercise) bool { return e.Num%2 == parity }
	rep, run, err := v.runOverlay(solved)
	if err != nil {
		return "", err
	}
	if err := v.checkRun(rep, run, solved); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d pass, %d/%d points", rep.Passed, rep.Points, rep.MaxPoints), nil
}

// checkNewUser copies the module into a temporary directory, copies
// solutions/*.go over exercises/ as a learner would, and grades it.
func (v *verifier) checkNewUser() (string, error) {
	tmp, err := os.MkdirTemp("", "grade-newuser-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	for _, name := range []string{"go.mod", "go.sum", "pkg", "exercises", "solutions"} {
		if err := copyTree(filepath.Join(v.root, name), filepath.Join(tmp, name)); err != nil {
			return "", err
		}
	}
	sols, err := filepath.Glob(filepath.Join(tmp, "solutions", "*.go"))
	if err != nil {
		return "", err
	}
	for _, s := range sols {
		if err := copyFile(s, filepath.Join(tmp, "exercises", filepath.Base(s))); err != nil {
			return "", err
		}
	}
	rep, err := gradeDir(tmp, "")
	if err != nil {
		return "", err
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		return "", err
	}
	want := fmt.Sprintf("Total: %d/%d points, %d of %d exercises pass.", rep.MaxPoints, rep.MaxPoints, rep.Total, rep.Total)
	if !rep.AllPassed() || !strings.Contains(table.String(), want) {
		return "", fmt.Errorf("want %q; the grader printed:\n%s", want, table.String())
	}
	return fmt.Sprintf("%d/%d points", rep.Points, rep.MaxPoints), nil
}

// copyTree copies a file or a directory of regular files.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil // links and other special files are not part of the course
	})
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// treeHash returns a digest of the names and contents of every file under
// the given directories of root.
func treeHash(root string, dirs ...string) (string, error) {
	h := sha256.New()
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%d\x00", path, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}
