package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
	"github.com/posenc/course/internal/cli"
)

// verify runs every check of the course's exercises and returns the exit
// status: 0 when all pass, 1 otherwise.
func verify(root string, stdout, stderr io.Writer) int {
	start := time.Now()
	root, err := filepath.Abs(root)
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	before, err := treeHash(root, catalog.Dir, "solutions")
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	v := &verifier{root: root, out: stdout}
	v.step("catalog, stubs and solutions agree", v.checkFiles)
	v.step("the feedback's own tests pass (go test ./internal/check ./exercises/internal/...)", v.checkFeedback)
	v.step("untouched stubs are graded \"not implemented\"", v.checkStubs)
	v.step("odd-numbered solutions pass over the stubs, even stubs still fail", func() (string, error) { return v.checkHalf(1) })
	v.step("even-numbered solutions pass over the stubs, odd stubs still fail", func() (string, error) { return v.checkHalf(0) })
	v.step("a broken file, os.Exit, a panic in a goroutine and endless recursion each cost only their exercise", v.checkIsolation)
	v.step("go test -run 'Test/row' calls the learner's code on that row alone", v.checkRunFilter)
	v.step("an exercise that calls a crashing one names it and waits for it, in go test and in the grader", v.checkDependentCrash)
	v.step("a new user copying solutions/*.go over exercises/ gets full marks", v.checkNewUser)
	v.step("the working tree is unchanged", func() (string, error) {
		after, err := treeHash(root, catalog.Dir, "solutions")
		if err != nil {
			return "", err
		}
		if after != before {
			return "", errors.New("exercises/ or solutions/ changed during the checks")
		}
		return "", nil
	})
	list := check.Exercises()
	if v.failed > 0 {
		fmt.Fprintf(stdout, "verify: FAIL (%d of %d checks failed, %.1fs)\n", v.failed, v.steps, time.Since(start).Seconds())
		return 1
	}
	fmt.Fprintf(stdout, "verify: PASS (%d checks, %d exercises, %d points, %.1fs)\n", v.steps, len(list), catalog.MaxPoints(list), time.Since(start).Seconds())
	return 0
}

type verifier struct {
	root          string
	out           io.Writer
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
		fmt.Fprintf(v.out, "FAIL  %s (%.1fs)\n%s\n", name, took, cli.Indent(err.Error()))
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

// checkFiles checks the catalog against the files: every stub panics with
// its message, every solution is complete and yields a stand-in, and
// exercises/ holds nothing else than stubs, tests, README.md, doc.go and
// internal/.
func (v *verifier) checkFiles() (string, error) {
	var p problems
	known := map[string]bool{"README.md": true, "doc.go": true, "internal": true}
	for _, e := range check.Exercises() {
		known[e.File()], known[e.TestFile()] = true, true
		stub := v.read(&p, catalog.Dir, e.File())
		if stub != "" {
			if !strings.Contains(stub, "// TODO") {
				p.addf("%s: the stub has no // TODO", e.Path())
			}
			if want := fmt.Sprintf("panic(%q)", catalog.StubPanic(e)); strings.Count(stub, want) != len(e.Funcs) {
				p.addf("%s: want %d bodies that %s", e.Path(), len(e.Funcs), want)
			}
			v.checkPackage(&p, e.Path(), stub)
		}
		if test := v.read(&p, catalog.Dir, e.TestFile()); test != "" && !strings.Contains(test, "func "+e.Test+"(t *testing.T)") {
			p.addf("%s/%s: no func %s(t *testing.T)", catalog.Dir, e.TestFile(), e.Test)
		}
		if sol := v.read(&p, "solutions", e.File()); sol != "" {
			if strings.Contains(sol, catalog.NotImplemented) || strings.Contains(sol, "// TODO") {
				p.addf("solutions/%s is still a stub", e.File())
			}
			v.checkPackage(&p, "solutions/"+e.File(), sol)
			if _, err := standIn(v.root, e); err != nil {
				p.addf("%v", err)
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(v.root, catalog.Dir))
	if err != nil {
		return "", err
	}
	for _, en := range entries {
		if !known[en.Name()] {
			p.addf("%s/%s is neither an exercise in the catalog nor README.md, doc.go or internal/", catalog.Dir, en.Name())
		}
	}
	if sols, err := os.ReadDir(filepath.Join(v.root, "solutions")); err == nil {
		for _, en := range sols {
			if numbered.MatchString(en.Name()) && !known[en.Name()] {
				p.addf("solutions/%s is not in the catalog", en.Name())
			}
		}
	}
	return fmt.Sprintf("%d exercises, %d points", len(check.Exercises()), catalog.MaxPoints(check.Exercises())), p.err()
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

// checkFeedback runs the tests of internal/check and exercises/internal/...:
// the feedback's own tests, the harness's, and the freshness of the
// generated files.
func (v *verifier) checkFeedback() (string, error) {
	cmd := exec.Command(goCommand(), "test", "-count=1", "./internal/check", "./"+catalog.Dir+"/internal/...")
	cmd.Dir = v.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go test ./internal/check ./exercises/internal/... failed:\n%s", strings.TrimSpace(string(out)))
	}
	return "", nil
}

// overlayFor returns an overlay putting each solution that solved says in
// place of its stub.
func (v *verifier) overlayFor(solved func(catalog.Exercise) bool) map[string]string {
	replace := map[string]string{}
	for _, e := range check.Exercises() {
		if solved(e) {
			replace[filepath.Join(v.root, catalog.Dir, e.File())] = filepath.Join(v.root, "solutions", e.File())
		}
	}
	return replace
}

// grade grades the working tree with replace as overlay.
func (v *verifier) grade(replace map[string]string) (*Report, error) {
	return gradeDir(v.root, replace, check.Exercises())
}

// checkRun checks a report where the exercises solved says carry their
// solution and the others their stub: a solution passes, or waits for an
// unsolved exercise it uses; a stub is not implemented.
func checkRun(rep *Report, solved func(catalog.Exercise) bool) error {
	var p problems
	if rep.BuildOutput != "" || rep.CompileErrors != "" {
		p.addf("the exercises do not compile:\n%s%s", rep.BuildOutput, rep.CompileErrors)
		return p.err()
	}
	for i, e := range check.Exercises() {
		r := rep.Exercises[i]
		var waitsFor []int
		for _, u := range e.Uses {
			if ue, _ := check.ByNum(u); !solved(ue) {
				waitsFor = append(waitsFor, u)
			}
		}
		switch {
		case solved(e) && len(waitsFor) == 0 && !r.Passed:
			p.addf("%s fails on its solution (%s): %s", e.Name(), r.Status, r.Summary)
		case solved(e) && r.Passed && r.Checks == 0:
			p.addf("%s passes with no named checks", e.Name())
		case solved(e) && len(waitsFor) > 0:
			if r.Status != catalog.StatusWaits || !slices.ContainsFunc(waitsFor, func(u int) bool {
				return strings.Contains(r.Summary, fmt.Sprintf("(exercise %d), which is not written yet", u))
			}) {
				p.addf("%s, whose solution calls exercise %v still a stub: status %q, %q; want %q naming it", e.Name(), waitsFor, r.Status, r.Summary, catalog.StatusWaits)
			}
		case !solved(e) && r.Status != catalog.StatusTodo:
			p.addf("%s on its untouched stub: status %q; want %q", e.Name(), r.Status, catalog.StatusTodo)
		}
	}
	return p.err()
}

func (v *verifier) checkStubs() (string, error) {
	none := func(catalog.Exercise) bool { return false }
	rep, err := v.grade(nil)
	if err != nil {
		return "", err
	}
	if err := checkRun(rep, none); err != nil {
		return "", err
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		return "", err
	}
	if want := fmt.Sprintf("Total: 0/%d points, 0 of %d exercises pass.", rep.MaxPoints, rep.Total); !strings.Contains(table.String(), want) {
		return "", fmt.Errorf("the grader's table on the stubs lacks %q:\n%s", want, table.String())
	}
	return fmt.Sprintf("%d/%d not implemented, 0/%d points", len(check.Exercises()), len(check.Exercises()), rep.MaxPoints), nil
}

func (v *verifier) checkHalf(parity int) (string, error) {
	solved := func(e catalog.Exercise) bool { return e.Num%2 == parity }
	rep, err := v.grade(v.overlayFor(solved))
	if err != nil {
		return "", err
	}
	if err := checkRun(rep, solved); err != nil {
		return "", err
	}
	waits := 0
	for _, r := range rep.Exercises {
		if r.Status == catalog.StatusWaits {
			waits++
		}
	}
	return fmt.Sprintf("%d pass, %d wait for an unsolved exercise, %d/%d points", rep.Passed, waits, rep.Points, rep.MaxPoints), nil
}

// Broken learner files for checkIsolation, by exercise: each replaces the
// stub, with every other exercise solved.
var brokenFiles = map[int]struct{ src, status, want string }{
	7: {"package exercises\n\nfunc RotateInterleaved(x []float64, pos int, base float64) []float64 {\n\treturn undefinedHelper(x)\n}\n",
		catalog.StatusNoCompile, "exercises/07_rope.go:4:9: undefined: undefinedHelper"},
	6: {"package exercises\n\nimport \"os\"\n\nfunc LearnedLookup(table [][]float64, positions []int) ([][]float64, error) {\n\tos.Exit(3)\n\treturn nil, nil\n}\n",
		catalog.StatusCrash, "your code called os.Exit(3)"},
	11: {"package exercises\n\nfunc Llama3InvFreq(d int, base, factor float64, originalLen int) []float64 {\n\tdone := make(chan []float64)\n\tgo func() { var s []float64; done <- s[:d] }()\n\treturn <-done\n}\n",
		catalog.StatusCrash, "panicked in a goroutine of its own"},
	13: {"package exercises\n\nfunc T5Bucket(rel int, bidirectional bool, numBuckets, maxDistance int) int {\n\treturn 1 + T5Bucket(rel, bidirectional, numBuckets, maxDistance)\n}\n\nfunc T5BucketMatrix(qLen, kLen int, bidirectional bool, numBuckets, maxDistance int) [][]int { return nil }\n",
		catalog.StatusCrash, "ran out of stack"},
}

// checkIsolation grades all solutions but four broken files, and checks
// that each costs only its own exercise (and the exercises that call it say
// so), that the compiler error is shown once, and that the JSON report
// agrees.
func (v *verifier) checkIsolation() (string, error) {
	tmp, err := os.MkdirTemp("", "grade-broken-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	replace := v.overlayFor(func(catalog.Exercise) bool { return true })
	for num, b := range brokenFiles {
		e, _ := check.ByNum(num)
		path := filepath.Join(tmp, e.File())
		if err := os.WriteFile(path, []byte(b.src), 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(v.root, catalog.Dir, e.File())] = path
	}
	rep, err := v.grade(replace)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	if err := rep.WriteTable(&out); err != nil {
		return "", err
	}
	table := out.String()
	var p problems
	for i, e := range check.Exercises() {
		r := rep.Exercises[i]
		b, broken := brokenFiles[e.Num]
		calls := slices.IndexFunc(e.Uses, func(u int) bool { return brokenFiles[u].status == catalog.StatusNoCompile })
		usesBroken := calls >= 0
		switch {
		case broken && (r.Status != b.status || !strings.Contains(r.Summary, b.want)):
			p.addf("%s: status %q, %q; want %q containing %q", e.Name(), r.Status, r.Summary, b.status, b.want)
		case !broken && usesBroken && (r.Status != catalog.StatusWaits || !strings.Contains(r.Summary, "which does not compile")):
			p.addf("%s, which calls exercise %d: status %q, %q; want %q saying which does not compile", e.Name(), e.Uses[calls], r.Status, r.Summary, catalog.StatusWaits)
		case !broken && !usesBroken && !r.Passed:
			p.addf("%s lost its points to another exercise's broken file: %s, %s", e.Name(), r.Status, r.Summary)
		}
	}
	if n := strings.Count(table, brokenFiles[7].want); n != 2 { // its row, and the compiler's errors once
		p.addf("the compiler error appears %d times in the table; want it under its row and once in the list of errors:\n%s", n, table)
	}
	return fmt.Sprintf("%d of %d exercises still pass, %d/%d points", rep.Passed, rep.Total, rep.Points, rep.MaxPoints), p.err()
}

// onlyFirstRow is a RotateInterleaved that is right on exercise 7's first
// row, RotateInterleaved([1 0 0.5 −2], 1, 10000), and ends the test
// binary when called on anything else.
const onlyFirstRow = `package exercises

import (
	"math"
	"os"
)

func RotateInterleaved(x []float64, pos int, base float64) []float64 {
	if len(x) != 4 || pos != 1 || x[0] != 1 || x[3] != -2 {
		os.Exit(7) // called on another row
	}
	out := make([]float64, 4)
	for i := 0; i < 2; i++ {
		s, c := math.Sincos(math.Pow(base, -float64(2*i)/4))
		out[2*i], out[2*i+1] = x[2*i]*c-x[2*i+1]*s, x[2*i]*s+x[2*i+1]*c
	}
	return out
}
`

// testBinary builds the exercise tests with replace as overlay (the file
// of exercise num replaced by src) into dir, and returns a function that
// runs the binary with args and returns its exit status and output.
func (v *verifier) testBinary(dir string, num int, src string) (func(args ...string) (int, string), error) {
	e, _ := check.ByNum(num)
	path := filepath.Join(dir, e.File())
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		return nil, err
	}
	replace := v.overlayFor(func(catalog.Exercise) bool { return true })
	replace[filepath.Join(v.root, catalog.Dir, e.File())] = path
	binary := filepath.Join(dir, "exercises.test")
	if out, err := goBuild(v.root, dir, binary, replace); err != nil {
		return nil, fmt.Errorf("go test -c: %v\n%s", err, out)
	}
	return func(args ...string) (int, string) {
		cmd := exec.Command(binary, args...)
		cmd.Dir = filepath.Join(v.root, catalog.Dir)
		out, err := cmd.CombinedOutput()
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return exitErr.ExitCode(), string(out)
		}
		if err != nil {
			return -1, err.Error()
		}
		return 0, string(out)
	}, nil
}

// checkRunFilter checks that a check runs inside its own subtest: with
// -run naming one row, the learner's code is called on that row and no
// other. The RotateInterleaved under test ends the process on any other row.
func (v *verifier) checkRunFilter() (string, error) {
	tmp, err := os.MkdirTemp("", "grade-run-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	run, err := v.testBinary(tmp, 7, onlyFirstRow)
	if err != nil {
		return "", err
	}
	if code, out := run("-test.run=^TestRoPEInterleaved$/^d=4_position_1$", "-test.v"); code != 0 || !strings.Contains(out, "--- PASS: TestRoPEInterleaved/d=4_position_1") {
		return "", fmt.Errorf("-run 'RoPEInterleaved/d=4_position_1' called RotateInterleaved on another row too (exit status %d):\n%s", code, out)
	}
	if code, out := run("-test.run=^TestRoPEInterleaved$"); code != 7 {
		return "", fmt.Errorf("-run RoPEInterleaved never called RotateInterleaved on another row (exit status %d; want 7):\n%s", code, out)
	}
	return "", nil
}

// exitingAttention is an exercise 1 that ends the process, as a learner's
// log.Fatal would.
const exitingAttention = `package exercises

import "os"

func Attention(q, k, v [][]float64) [][]float64 {
	os.Exit(3)
	return nil
}
`

// checkDependentCrash grades the solutions with an exercise 1 that calls
// os.Exit: exercise 1 crashes, and exercise 21, which calls it, waits for
// it, saying why, instead of crashing in its turn; go test of exercise 21
// alone says the same and survives.
func (v *verifier) checkDependentCrash() (string, error) {
	tmp, err := os.MkdirTemp("", "grade-crash-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	run, err := v.testBinary(tmp, 1, exitingAttention)
	if err != nil {
		return "", err
	}
	const want = "(exercise 1), which ends the test process on exercise 1's own checks: your code called os.Exit(3)"
	if code, out := run("-test.run=^TestSentenceAttention$"); code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "fix exercise 1 first") {
		return "", fmt.Errorf("go test -run SentenceAttention with an exercise 1 that calls os.Exit(3): exit status %d (want 1), "+
			"and the output does not say %q:\n%s", code, want, out)
	}
	e1, _ := check.ByNum(1)
	replace := v.overlayFor(func(catalog.Exercise) bool { return true })
	replace[filepath.Join(v.root, catalog.Dir, e1.File())] = filepath.Join(tmp, e1.File())
	rep, err := v.grade(replace)
	if err != nil {
		return "", err
	}
	var p problems
	for i, e := range check.Exercises() {
		r := rep.Exercises[i]
		switch {
		case e.Num == 1 && r.Status != catalog.StatusCrash:
			p.addf("%s: status %q; want %q", e.Name(), r.Status, catalog.StatusCrash)
		case slices.Contains(e.Uses, 1) && (r.Status != catalog.StatusWaits || !strings.Contains(r.Summary, want)):
			p.addf("%s: status %q, %q; want %q containing %q", e.Name(), r.Status, r.Summary, catalog.StatusWaits, want)
		case e.Num != 1 && !slices.Contains(e.Uses, 1) && !r.Passed:
			p.addf("%s lost its points to exercise 1's crash: %s, %s", e.Name(), r.Status, r.Summary)
		}
	}
	return fmt.Sprintf("%d of %d exercises pass", rep.Passed, rep.Total), p.err()
}

// checkNewUser copies the module into a temporary directory, copies
// solutions/*.go over exercises/ as a learner would, and grades it.
func (v *verifier) checkNewUser() (string, error) {
	tmp, err := os.MkdirTemp("", "grade-newuser-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	for _, name := range []string{"go.mod", "go.sum", "internal", "pkg", catalog.Dir, "solutions"} {
		if err := cli.CopyTree(filepath.Join(tmp, name), filepath.Join(v.root, name), nil); err != nil {
			return "", err
		}
	}
	for _, e := range check.Exercises() {
		if err := cli.CopyFile(filepath.Join(tmp, catalog.Dir, e.File()), filepath.Join(tmp, "solutions", e.File())); err != nil {
			return "", err
		}
	}
	rep, err := gradeDir(tmp, nil, check.Exercises())
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

// hashTree hashes the names and contents of the files under path, each
// replaced by its overlay in replace when it has one. A link is hashed by
// what it points to, as go build reads it; one that points nowhere (or to a
// folder) is an error.
func hashTree(h io.Writer, path string, replace map[string]string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		fmt.Fprintf(h, "file\x00%s\x00", p)
		if r, ok := replace[p]; ok {
			p = r
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
}

// treeHash returns a digest of the names and contents of every file under
// the given directories of root.
func treeHash(root string, dirs ...string) (string, error) {
	h := sha256.New()
	for _, dir := range dirs {
		if err := hashTree(h, filepath.Join(root, dir), nil); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}
