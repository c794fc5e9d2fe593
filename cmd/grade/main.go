// Command grade runs the course's exercise tests and prints a score per
// exercise, in the spirit of nbgrader and otter-grader.
//
// Usage:
//
//	go run ./cmd/grade            # a table: exercise, result, points, first hint; then the total
//	go run ./cmd/grade --json     # the same, as JSON
//	go run ./cmd/grade -verify    # the course's own check (make test), see below
//
// It runs `go test -json ./exercises` from the module root and never writes
// to the learner's files. Its exit status is 0 when every exercise passes,
// 1 when some do not, and 2 when it could not grade (a bad flag, no go
// command, no exercises directory).
//
// With -verify it checks the exercises themselves, without touching the
// working tree: the exercise list, files and exercises/README.md agree;
// every untouched stub fails with "not implemented yet"; every solution in
// solutions/ passes when it stands in for its stub (go test -overlay, odd and
// even exercises in two runs, so each also passes with the others left as
// stubs); the feedback tests (each known misconception gets its hint) pass;
// and a new user who copies solutions/*.go over exercises/ in a fresh copy
// of the repository gets full marks.
//
// solutions/ is an ordinary package directory whose files declare package
// exercises: it builds with go build ./... and go vet ./..., has no tests,
// and each of its files can replace the stub of the same name through
// go test -overlay.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	json    bool
	verify  bool
	overlay string
	dir     string
}

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.BoolVar(&o.verify, "verify", false, "check stubs, solutions, feedback tests and README (make test)")
	fs.StringVar(&o.overlay, "overlay", "", "a go build -overlay file to grade with (for course maintainers)")
	fs.StringVar(&o.dir, "dir", "", "the course's module root (default: found from the current directory)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "usage: go run ./cmd/grade [--json] [-verify] [-overlay file] [-dir root]")
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "grade: %v (usage: go run ./cmd/grade [--json] [-verify])\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "grade: unexpected argument %q (usage: go run ./cmd/grade [--json] [-verify])\n", fs.Arg(0))
		return 2
	}
	if o.verify && (o.json || o.overlay != "") {
		fmt.Fprintln(stderr, "grade: -verify takes no other flag but -dir")
		return 2
	}
	root := o.dir
	if root == "" {
		var err error
		if root, err = findRoot(); err != nil {
			fmt.Fprintf(stderr, "grade: %v\n", err)
			return 2
		}
	} else if _, err := os.Stat(filepath.Join(root, "exercises")); err != nil {
		fmt.Fprintf(stderr, "grade: -dir %s has no exercises directory\n", root)
		return 2
	}
	if o.verify {
		return verify(root, stdout, stderr)
	}
	rep, err := gradeDir(root, o.overlay)
	if err != nil {
		fmt.Fprintf(stderr, "grade: %v\n", err)
		return 2
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
	if !rep.AllPassed() {
		return 1
	}
	return 0
}

// gradeDir runs the exercise tests of the module at root and grades them.
func gradeDir(root, overlay string) (*Report, error) {
	res, err := goTest(root, overlay)
	if err != nil {
		return nil, err
	}
	return grade(res, exercises), nil
}

// findRoot returns the closest directory, from the current one up, that
// holds both go.mod and exercises/.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "go.mod")) && isDir(filepath.Join(dir, "exercises")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no course here: run it from the repository (a directory with go.mod and exercises/), or pass -dir")
		}
		dir = parent
	}
}

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }
