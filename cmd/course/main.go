// Command course builds and checks the course's notebooks.
//
// Each lesson, lessons/NN-slug.md, is the single source of a GoNB notebook,
// notebooks/NN-slug.ipynb, committed with its executed outputs. See
// lessons/README.md for the lesson format.
//
// Usage:
//
//	go run ./cmd/course [flags] notebooks [NN ...]  regenerate and execute notebooks, write them to notebooks/
//	go run ./cmd/course [flags] check               fail when a notebook no longer matches its lesson
//	go run ./cmd/course [flags] run [NN ...]        execute notebooks headless in a temporary folder
//	go run ./cmd/course metadata [NN ...]          rewrite the notebooks' cell ids and metadata from their lessons
//	go run ./cmd/course stats [-rev REV] [-json]    per lesson: words of prose, decimals per 100 words, ✓ lines, stated time
//	go run ./cmd/course list                        list lessons and their notebooks
//
// Lessons are named by number ("1", "01"), slug, or path. Execution goes
// through Jupyter (nbclient, run by a Python that has it: $COURSE_PYTHON,
// else /usr/bin/python3, else python3) with the gonb kernel that
// scripts/install.sh registers. A cell fails when it does not compile, panics,
// exits with a non-zero status, or runs longer than -timeout; the message
// names the notebook, the cell and the lesson line its code starts on.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/posenc/course/internal/cli"
)

const usage = `usage: course [flags] <command> [lesson ...]

commands:
  notebooks [NN ...]  generate each lesson's notebook, execute it headless, and
                      write it with its outputs to notebooks/NN-slug.ipynb
  check               fail when a notebook's cells no longer match its lesson,
                      or it was committed unexecuted or with a failing cell
  run [NN ...]        execute the lessons' notebooks headless in a temporary
                      folder (notebooks/ is left alone) and time each one
                      (notebooks and run record the times in
                      build/course-run.json, for the browser check)
  metadata [NN ...]   rewrite each committed notebook's cell ids and metadata
                      (check cells collapsed) from its lesson, outputs kept,
                      nothing executed; its cells must match the lesson
  stats [NN ...]      per lesson: words of prose, decimal numbers per 100 words
                      of it, ✓ lines in the notebook's outputs, code and check
                      cells, the stated time (-rev REV: as committed there;
                      -json)
  list                list the lessons and their notebooks

flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command-line flags.
type options struct {
	root      string
	timeout   time.Duration
	backend   string
	python    string
	keep      bool
	keepGoing bool
	rev       string
	json      bool
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("course", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.root, "root", "", "repository root (default: found from the current folder)")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "limit for one cell's execution, build included")
	fs.StringVar(&o.backend, "backend", "", `GOMLX_BACKEND for the notebooks' kernel (default: the environment's, as a learner's kernel gets it)`)
	fs.StringVar(&o.python, "python", "", "Python with nbclient (default: $COURSE_PYTHON, /usr/bin/python3, python3)")
	fs.BoolVar(&o.keep, "keep", false, "run: keep the temporary folder with the executed notebooks and kernel logs")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "execute the cells after a failing one too")
	fs.StringVar(&o.rev, "rev", "", "stats: measure the lessons and notebooks committed at `REV` (default: the working tree)")
	fs.BoolVar(&o.json, "json", false, "stats: print JSON")
	printUsage := func() {
		fmt.Fprint(stderr, usage)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "course: "+format+" (course -h for help)\n", a...)
		return 2
	}
	parse := func(a []string) error {
		if err := fs.Parse(a); err != nil {
			return err
		}
		if o.timeout <= 0 {
			return fmt.Errorf("-timeout must be positive, got %v", o.timeout)
		}
		return nil
	}
	if err := parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage()
			return 0
		}
		return bad("%v", err)
	}
	if fs.NArg() == 0 {
		return bad("no command")
	}
	command := fs.Arg(0)
	if err := parse(fs.Args()[1:]); err != nil { // flags may follow the command
		if errors.Is(err, flag.ErrHelp) {
			printUsage()
			return 0
		}
		return bad("%v", err)
	}
	names := fs.Args()

	root := o.root
	if root == "" {
		var err error
		if root, err = cli.FindRoot("-root"); err != nil {
			fmt.Fprintf(stderr, "course: %v\n", err)
			return 1
		}
	}
	c := &course{root: root, opts: o, stdout: stdout, stderr: stderr}
	if command == "stats" {
		return c.stats(names) // from git at -rev: the working tree's lessons may not parse
	}
	all, err := FindLessons(filepath.Join(root, "lessons"))
	if err != nil {
		fmt.Fprintf(stderr, "course: %v\n", err)
		return 1
	}
	switch command {
	case "list":
		if len(names) > 0 {
			return bad("list takes no lessons")
		}
		for _, l := range all {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", l.Num, c.rel(l.Path), c.rel(c.notebookPath(l)))
		}
		return 0
	case "check":
		if len(names) > 0 {
			return bad("check takes no lessons: it checks them all")
		}
		return c.check(all)
	case "metadata":
		lessons, err := SelectLessons(all, names)
		if err != nil {
			return bad("%v", err)
		}
		return c.restamp(lessons)
	case "notebooks", "run":
		lessons, err := SelectLessons(all, names)
		if err != nil {
			return bad("%v", err)
		}
		if len(lessons) == 0 {
			fmt.Fprintf(stderr, "course: no lessons in %s\n", c.rel(filepath.Join(root, "lessons")))
			return 1
		}
		return c.execute(lessons, command == "notebooks")
	default:
		return bad("unknown command %q", command)
	}
}

type course struct {
	root           string
	opts           options
	stdout, stderr io.Writer
}

func (c *course) notebookPath(l *Lesson) string {
	return filepath.Join(c.root, "notebooks", l.NotebookName())
}

// rel returns path relative to the repository root, for messages.
func (c *course) rel(path string) string {
	if r, err := filepath.Rel(c.root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// check compares every notebook with its lesson.
func (c *course) check(all []*Lesson) int {
	failed := 0
	want := map[string]bool{}
	for _, l := range all {
		want[l.NotebookName()] = true
		nbPath := c.notebookPath(l)
		regen := fmt.Sprintf("regenerate it: go run ./cmd/course notebooks %s (or make notebooks N=%s)", l.Num, l.Num)
		nb, err := ReadNotebook(nbPath)
		if err != nil {
			failed++
			if os.IsNotExist(err) {
				fmt.Fprintf(c.stderr, "FAIL %s is missing for %s; %s\n", c.rel(nbPath), c.rel(l.Path), regen)
			} else {
				fmt.Fprintf(c.stderr, "FAIL %s: %v; %s\n", c.rel(nbPath), err, regen)
			}
			continue
		}
		rl := *l
		rl.Path = c.rel(l.Path)
		if err := CheckBackendLine(&rl); err != nil {
			failed++
			fmt.Fprintf(c.stderr, "FAIL %v\n", err)
			continue
		}
		if err := CheckSync(&rl, c.rel(nbPath), nb); err != nil {
			failed++
			if _, ok := err.(*MetadataError); ok {
				regen = "mend it (nothing runs): go run ./cmd/course metadata " + l.Num
			}
			fmt.Fprintf(c.stderr, "FAIL %v\n%s\n", err, regen)
			continue
		}
		if fs := Failures(&rl, nb); len(fs) > 0 {
			failed++
			f := fs[0]
			fmt.Fprintf(c.stderr, "FAIL %s: committed with a failing cell (%s):\n%s\n%s\n", c.rel(nbPath), f.Kind, cli.Indent(f.Message), regen)
			continue
		}
		fmt.Fprintf(c.stdout, "ok   %s matches %s\n", c.rel(nbPath), c.rel(l.Path))
	}
	entries, _ := os.ReadDir(filepath.Join(c.root, "notebooks"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".ipynb") && !want[e.Name()] {
			failed++
			fmt.Fprintf(c.stderr, "FAIL notebooks/%s has no lesson lessons/%s.md: notebooks are generated from lessons only\n",
				e.Name(), strings.TrimSuffix(e.Name(), ".ipynb"))
		}
	}
	if failed > 0 {
		fmt.Fprintf(c.stderr, "check: %d notebook(s) out of date with their lessons\n", failed)
		return 1
	}
	fmt.Fprintf(c.stdout, "check: %d notebook(s) match their lessons\n", len(all))
	return 0
}

// restamp rewrites the cell ids and metadata of the lessons' committed
// notebooks from their lessons, keeping their outputs.
func (c *course) restamp(lessons []*Lesson) int {
	failed := 0
	for _, l := range lessons {
		nbPath := c.notebookPath(l)
		err := func() error {
			nb, err := ReadNotebook(nbPath)
			if err != nil {
				return err
			}
			rl := *l
			rl.Path = c.rel(l.Path)
			out, err := Restamp(&rl, c.rel(nbPath), nb)
			if err != nil {
				return fmt.Errorf("%w\nregenerate it: go run ./cmd/course notebooks %s", err, l.Num)
			}
			old, err := nb.Encode()
			if err != nil {
				return err
			}
			data, err := out.Encode()
			if err != nil {
				return err
			}
			if bytes.Equal(old, data) {
				fmt.Fprintf(c.stdout, "ok   %s (unchanged)\n", c.rel(nbPath))
				return nil
			}
			fmt.Fprintf(c.stdout, "ok   %s (cell metadata rewritten)\n", c.rel(nbPath))
			return os.WriteFile(nbPath, data, 0o644)
		}()
		if err != nil {
			failed++
			fmt.Fprintf(c.stderr, "FAIL %s: %v\n", c.rel(nbPath), err)
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// execute runs the lessons' notebooks; with write, each notebook that runs
// without failure is written to notebooks/.
func (c *course) execute(lessons []*Lesson, write bool) int {
	py := c.opts.python
	if py == "" {
		var err error
		if py, err = FindPython(); err != nil {
			fmt.Fprintf(c.stderr, "course: %v\n", err)
			return 1
		}
	}
	work, err := os.MkdirTemp("", "course-run-")
	if err != nil {
		fmt.Fprintf(c.stderr, "course: %v\n", err)
		return 1
	}
	if c.opts.keep {
		fmt.Fprintf(c.stdout, "executed notebooks and kernel logs are kept in %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	ex := &Executor{Root: c.root, Python: py, CellTimeout: c.opts.timeout, Backend: c.opts.backend, KeepGoing: c.opts.keepGoing}
	passed, failed := 0, 0
	start := time.Now()
	for _, l := range lessons {
		nbPath := c.rel(c.notebookPath(l))
		lessonPath := c.rel(l.Path)
		gen := NewNotebook(l)
		t0 := time.Now()
		executed, report, err := ex.Execute(l, gen, work)
		wall := time.Since(t0)
		if err != nil {
			fmt.Fprintf(c.stderr, "FAIL %s: %v\n", nbPath, err)
			failed++
			if errors.Is(err, errSetup) {
				break // every other notebook would fail the same way
			}
			continue
		}
		problems, showLog := c.problems(l, executed, report, nbPath, lessonPath)
		if len(problems) > 0 {
			failed++
			fmt.Fprintf(c.stderr, "FAIL %s  %.1fs\n", nbPath, wall.Seconds())
			for _, p := range problems {
				fmt.Fprintf(c.stderr, "%s\n", p)
			}
			if klog := tail(report.KernelLog, 15); klog != "" && showLog {
				fmt.Fprintf(c.stderr, "  kernel log (last lines):\n%s\n", cli.Indent(klog))
			}
			continue
		}
		passed++
		fmt.Fprintf(c.stdout, "ok   %s  %.1fs  (%s)\n", nbPath, wall.Seconds(), timing(l, report))
		if err := c.recordRun(l, wall, len(report.Cells)); err != nil {
			fmt.Fprintf(c.stderr, "course: recording the run's time: %v\n", err)
		}
		if write {
			out, err := WithOutputs(gen, executed)
			if err == nil {
				var data []byte
				if data, err = out.Encode(); err == nil {
					err = os.WriteFile(c.notebookPath(l), data, 0o644)
				}
			}
			if err != nil {
				fmt.Fprintf(c.stderr, "FAIL %s: writing: %v\n", nbPath, err)
				passed--
				failed++
			}
		}
	}
	fmt.Fprintf(c.stdout, "notebooks: %d passed, %d failed (%.1fs)\n", passed, failed, time.Since(start).Seconds())
	if failed > 0 {
		return 1
	}
	return 0
}

// runRecord is a notebook's last headless run, in build/course-run.json: the
// browser check gives Run All in JupyterLab that time plus a margin.
type runRecord struct {
	Seconds float64 `json:"seconds"`
	Cells   int     `json:"code_cells"`
	When    string  `json:"when"`
	Backend string  `json:"backend"`
}

// recordRun writes the notebook's wall time into build/course-run.json,
// keeping the other notebooks' entries. Only runs on the pure-Go backend are
// recorded: that is the backend of the browser check's kernel, and a faster
// XLA run must not shrink its budget.
func (c *course) recordRun(l *Lesson, wall time.Duration, cells int) error {
	path := filepath.Join(c.root, "build", "course-run.json")
	var runs struct {
		Notebooks map[string]runRecord `json:"notebooks"`
	}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &runs) // a broken file is rewritten
	}
	if runs.Notebooks == nil {
		runs.Notebooks = map[string]runRecord{}
	}
	backend := c.opts.backend
	if backend == "" {
		backend = os.Getenv("GOMLX_BACKEND")
	}
	if backend != "" && backend != "go" {
		return nil
	}
	runs.Notebooks[l.NotebookName()] = runRecord{
		Seconds: math.Round(wall.Seconds()*10) / 10,
		Cells:   cells,
		When:    time.Now().UTC().Format(time.RFC3339),
		Backend: backend,
	}
	data, err := json.MarshalIndent(runs, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// problems lists what went wrong in an executed notebook, one message per
// failing cell, each naming the notebook, the cell and the lesson line, and
// whether the kernel's log would help (timeouts, a dead kernel).
func (c *course) problems(l *Lesson, executed Notebook, r *Report, nbPath, lessonPath string) (out []string, showLog bool) {
	stopped := map[int]bool{} // cells the executor stopped (timeout, dead kernel)
	for _, cr := range r.Cells {
		if cr.Status != "ok" {
			stopped[cr.Index+1] = true
		}
	}
	for _, f := range Failures(l, executed) {
		if stopped[f.Cell] {
			continue // its "signal: killed" is the timeout's doing, reported below
		}
		out = append(out, fmt.Sprintf("%s: %s\n%s", f.Where(nbPath, lessonPath), f.Kind, cli.Indent(f.Message)))
	}
	if r.Error != "" {
		out = append(out, fmt.Sprintf("%s: kernel: %s", nbPath, r.Error))
		showLog = true
	}
	ran := 0
	for _, cr := range r.Cells {
		ran++
		if cr.Status == "ok" {
			continue
		}
		f := Failure{Cell: cr.Index + 1, Kind: "kernel", Message: "the kernel died"}
		if cr.Index < len(l.Cells) {
			f.Line = l.Cells[cr.Index].Line
		}
		showLog = true
		if cr.Status == "timeout" {
			f.Kind, f.Message = "timeout", fmt.Sprintf("still running after %v (-timeout)", c.opts.timeout)
		}
		out = append(out, fmt.Sprintf("%s: %s\n%s", f.Where(nbPath, lessonPath), f.Kind, cli.Indent(f.Message)))
	}
	code := 0
	for _, cell := range l.Cells {
		if cell.Type == "code" {
			code++
		}
	}
	if len(out) == 0 && ran < code {
		out = append(out, fmt.Sprintf("%s: only %d of %d code cells ran", nbPath, ran, code))
		showLog = true
	}
	return out, showLog
}

// timing summarises a report: kernel start and the slowest cell.
func timing(l *Lesson, r *Report) string {
	slow := CellReport{Index: -1}
	for _, c := range r.Cells {
		if c.Seconds > slow.Seconds {
			slow = c
		}
	}
	s := fmt.Sprintf("%d code cells, kernel start %.1fs", len(r.Cells), r.StartupSeconds)
	if slow.Index >= 0 {
		s += fmt.Sprintf(", slowest cell %d %.1fs", slow.Index+1, slow.Seconds)
		if slow.Index < len(l.Cells) && l.Cells[slow.Index].Line > 0 {
			s += fmt.Sprintf(" (line %d)", l.Cells[slow.Index].Line)
		}
	}
	return s
}
