// Command grade grades the course's exercises and prints a score per
// exercise, in the spirit of nbgrader and otter-grader.
//
// Usage:
//
//	go run ./cmd/grade              # a table: exercise, result (✓ on a pass), checks, points, the first hint in full; then the total
//	go run ./cmd/grade -lesson 2    # only lesson 2's exercises (from a notebook: !go run ../cmd/grade -lesson 2)
//	go run ./cmd/grade --json       # the same, as JSON
//	go run ./cmd/grade -verify      # the course's own check of its exercises (make test), see below
//
// It compiles the exercise tests once and runs each exercise in a process of
// its own, so that one broken exercise costs only itself: a file that does
// not compile is graded "does not compile" (its compiler error is shown
// once) and the other exercises are graded with a stand-in for it, built
// from the stub's signatures; an exercise that calls os.Exit or log.Fatal,
// panics in a goroutine of its own, runs out of stack or never returns
// fails alone, with a message saying what happened. It never writes to the
// learner's files. It works from any directory inside the course (the
// notebooks' folder included). Its exit status is 0 when every graded
// exercise passes, 1 when some do not, and 2 when it could not grade (a bad
// flag, no go command, no exercises directory). Run from a notebook cell
// (GoNB's ! shell escape, which sets GONB_DIR), it exits 0 once it has
// graded: there the table is the answer, and a failing status would only add
// a red "exit status 1" under it.
//
// The exercises whose result changed since the learner's previous run
// (kept in the checkout's git-ignored build/grade-last.json; a run of one
// lesson updates only its exercises there) are listed first, each with what
// it was. COURSE_GRADE_STATE=off neither reads nor writes that file.
//
// With -verify it checks the exercises themselves, without touching the
// working tree: the registry, stubs, solutions and generated files agree;
// the feedback's own tests pass (go test ./internal/check
// ./exercises/internal/...); every untouched stub is graded "not
// implemented"; every solution passes when it stands in for its stub, with
// half of the others left as stubs (so that it passes alone, or says which
// exercise it waits for); a file that does not compile, one that calls
// os.Exit, one that panics in a goroutine and one that recurses without end
// each cost only their own exercise; go test -run naming one row calls the
// learner's code on that row alone; an exercise that calls one that calls
// os.Exit names it and waits for it; and a new user who copies
// solutions/*.go over exercises/ in a fresh copy of the repository gets
// full marks.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
	"github.com/posenc/course/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	json    bool
	verify  bool
	lesson  int
	overlay string
	dir     string
}

const usage = "usage: go run ./cmd/grade [-lesson N] [--json] [-verify] [-overlay file] [-dir root]"

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.IntVar(&o.lesson, "lesson", 0, fmt.Sprintf("grade only the exercises of lesson `N` (1 to %d)", len(catalog.Lessons)))
	fs.BoolVar(&o.verify, "verify", false, "check stubs, solutions, feedback tests and generated files (make test)")
	fs.StringVar(&o.overlay, "overlay", "", "a go build -overlay `file` to grade with (for course maintainers)")
	fs.StringVar(&o.dir, "dir", "", "the course's module `root` (default: found from the current directory)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, usage)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "grade: %v (%s)\n", err, usage)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "grade: unexpected argument %q (%s)\n", fs.Arg(0), usage)
		return 2
	}
	if o.verify && (o.json || o.overlay != "" || o.lesson != 0) {
		fmt.Fprintln(stderr, "grade: -verify takes no other flag but -dir")
		return 2
	}
	if o.lesson != 0 && catalog.LessonTitle(o.lesson) == "" {
		fmt.Fprintf(stderr, "grade: -lesson %d: there is no such lesson; the lessons are 1 to %d\n", o.lesson, len(catalog.Lessons))
		return 2
	}
	root := o.dir
	if root == "" {
		var err error
		if root, err = cli.FindRoot("-dir"); err != nil {
			fmt.Fprintf(stderr, "grade: %v\n", err)
			return 2
		}
	} else if !isDir(filepath.Join(root, catalog.Dir)) {
		fmt.Fprintf(stderr, "grade: -dir %s has no %s directory\n", root, catalog.Dir)
		return 2
	}
	if o.verify {
		return verify(root, stdout, stderr)
	}
	list := check.Exercises()
	if o.lesson != 0 {
		list = lessonExercises(o.lesson)
	}
	var replace map[string]string
	if o.overlay != "" {
		var err error
		if replace, err = readOverlay(o.overlay); err != nil {
			fmt.Fprintf(stderr, "grade: %v\n", err)
			return 2
		}
	}
	rep, err := gradeDir(root, replace, list)
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	rep.Lesson = o.lesson
	// The previous run's outcomes: what changed since is listed first.
	keep := o.overlay == "" && os.Getenv(stateEnv) != "off"
	if keep {
		rep.Since(loadState(root))
	}
	if o.json {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteTable(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
	}
	if keep {
		if err := saveState(root, rep.Outcomes()); err != nil {
			fmt.Fprintf(stderr, "grade: remembering this run for the next: %v\n", err)
		}
	}
	if !rep.AllPassed() && os.Getenv(notebookEnv) == "" {
		return 1
	}
	return 0
}

// stateFile is where a run leaves its outcomes for the next one, under the
// course's git-ignored build folder: per checkout, never committed.
const stateFile = "build/grade-last.json"

// stateEnv=off makes the grader neither read nor write stateFile (the
// course tool's headless runs: a notebook's committed output must not
// depend on what was graded before).
const stateEnv = "COURSE_GRADE_STATE"

// gradeState is stateFile's content: the outcome of each exercise graded
// so far, by number, as its last run left it.
type gradeState struct {
	Outcomes map[int]string `json:"outcomes"`
}

// loadState returns the outcomes stateFile holds, or nil.
func loadState(root string) map[int]string {
	data, err := os.ReadFile(filepath.Join(root, stateFile))
	if err != nil {
		return nil
	}
	var st gradeState
	if json.Unmarshal(data, &st) != nil {
		return nil // an unreadable file is rewritten by this run
	}
	return st.Outcomes
}

// saveState merges outcomes into stateFile (a run of one lesson keeps the
// others' outcomes).
func saveState(root string, outcomes map[int]string) error {
	all := loadState(root)
	if all == nil {
		all = map[int]string{}
	}
	maps.Copy(all, outcomes)
	data, err := json.MarshalIndent(gradeState{Outcomes: all}, "", " ")
	if err != nil {
		return err
	}
	path := filepath.Join(root, stateFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// notebookEnv is set by GoNB for the shell commands of a notebook's cells.
const notebookEnv = "GONB_DIR"

// lessonExercises returns lesson n's exercises.
func lessonExercises(n int) []catalog.Exercise {
	var out []catalog.Exercise
	for _, e := range check.Exercises() {
		if e.Lesson == n {
			out = append(out, e)
		}
	}
	return out
}

// gradeDir builds the exercise tests of the module at root, with replace
// (absolute paths, as in a go build -overlay file; nil for none) as the
// overlay, and grades the exercises of list.
func gradeDir(root string, replace map[string]string, list []catalog.Exercise) (*Report, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "grade-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b, err := build(root, tmp, replace)
	if err != nil {
		return nil, err
	}
	rep := &Report{MaxPoints: catalog.MaxPoints(list), Total: len(list), BuildOutput: b.fatal, CompileErrors: b.errorText()}
	if b.fatal != "" {
		for _, e := range list {
			rep.add(Result{Status: catalog.StatusNotGraded, Summary: "nothing could be graded: see the build output below"}, e)
		}
		return rep, nil
	}
	results := runAll(b.binary, filepath.Join(root, catalog.Dir), tmp, list, b.broken)
	for i, e := range list {
		rep.add(results[i], e)
	}
	return rep, nil
}

func isDir(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }
