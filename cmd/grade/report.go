package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Status values of an exercise.
const (
	statusPass     = "pass"
	statusFail     = "fail"
	statusTodo     = "not implemented"
	statusBuild    = "build failed"
	statusCrashed  = "crashed"
	statusNotRun   = "not run"
	notImplemented = "not implemented yet"
)

// Result is the grade of one exercise.
type Result struct {
	Number       int    `json:"number"`
	Slug         string `json:"slug"`
	File         string `json:"file"`
	Test         string `json:"test"`
	Lesson       int    `json:"lesson"`
	Difficulty   string `json:"difficulty"`
	Status       string `json:"status"`
	Passed       bool   `json:"passed"`
	Points       int    `json:"points"`
	MaxPoints    int    `json:"max_points"`
	ChecksPassed int    `json:"checks_passed"`
	Checks       int    `json:"checks"`
	Hint         string `json:"hint,omitempty"`
}

// Report is the grade of every exercise: what the table and --json print.
type Report struct {
	Exercises   []Result `json:"exercises"`
	Points      int      `json:"points"`
	MaxPoints   int      `json:"max_points"`
	Passed      int      `json:"passed"`
	Total       int      `json:"total"`
	BuildOutput string   `json:"build_output,omitempty"`
}

// AllPassed reports whether every exercise passed.
func (r *Report) AllPassed() bool { return r.Passed == r.Total }

// grade turns a run into a report for list.
func grade(run *testRun, list []exercise) *Report {
	rep := &Report{MaxPoints: maxPoints(list), Total: len(list)}
	if run.BuildFailed {
		rep.BuildOutput = run.BuildOutput
	}
	for _, e := range list {
		res := Result{Number: e.Num, Slug: e.Slug, File: "exercises/" + e.Base(), Test: e.Test,
			Lesson: e.Lesson, Difficulty: e.Difficulty, MaxPoints: e.Points}
		t := run.Tests[e.Test]
		switch {
		case run.BuildFailed:
			res.Status, res.Hint = statusBuild, firstLine(run.BuildOutput)
		case t == nil || !t.Ran:
			res.Status, res.Hint = statusNotRun, "the test "+e.Test+" did not run"
			if run.Stray != "" {
				res.Hint += ": " + firstLine(run.Stray)
			}
		case t.Action == "pass":
			res.Status, res.Passed, res.Points = statusPass, true, e.Points
		case t.Action == "":
			res.Status, res.Hint = statusCrashed, firstHint(t.Messages)
			if res.Hint == "" {
				res.Hint = "the test binary stopped during " + e.Test
			}
		default:
			res.Status, res.Hint = statusFail, firstHint(t.Messages)
			if t.SubTotal == 0 && strings.Contains(res.Hint, notImplemented) {
				// The footer already points to the README.
				res.Status, res.Hint = statusTodo, strings.TrimSuffix(res.Hint, " Hints: exercises/README.md")
			}
		}
		if t != nil {
			res.ChecksPassed, res.Checks = t.SubPassed, t.SubTotal
		}
		if res.Passed {
			rep.Passed++
			rep.Points += res.Points
		}
		rep.Exercises = append(rep.Exercises, res)
	}
	return rep
}

// firstHint returns the first "Hint: " line, or else the first message.
func firstHint(msgs []string) string {
	for _, m := range msgs {
		if h, ok := strings.CutPrefix(m, "Hint: "); ok {
			return h
		}
	}
	for _, m := range msgs {
		if m != "" {
			return m
		}
	}
	return ""
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// hintWidth is how much of a hint the table shows; --json has all of it.
const hintWidth = 100

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// WriteTable prints the report as a table and a total.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "exercise\tlesson\tresult\tchecks\tpoints\tfirst hint")
	for _, e := range r.Exercises {
		checks := "-"
		if e.Checks > 0 {
			checks = fmt.Sprintf("%d/%d", e.ChecksPassed, e.Checks)
		}
		fmt.Fprintf(tw, "%02d %s\t%d\t%s\t%s\t%d/%d\t%s\n", e.Number, e.Slug, e.Lesson, e.Status, checks,
			e.Points, e.MaxPoints, truncate(e.Hint, hintWidth))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.BuildOutput != "" {
		fmt.Fprintf(w, "\nThe exercises do not compile, so no test could run. Fix this first:\n%s\n", indent(r.BuildOutput))
	}
	fmt.Fprintf(w, "\nTotal: %d/%d points, %d of %d exercises pass.\n", r.Points, r.MaxPoints, r.Passed, r.Total)
	if !r.AllPassed() && r.BuildOutput == "" {
		fmt.Fprintln(w, "Details: go test ./exercises -run <Test> (for example -run "+firstFailing(r)+"); hints: exercises/README.md")
	}
	return nil
}

// firstFailing returns the test name, without "Test", of the first exercise
// that does not pass.
func firstFailing(r *Report) string {
	for _, e := range r.Exercises {
		if !e.Passed {
			return strings.TrimPrefix(e.Test, "Test")
		}
	}
	return ""
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// WriteJSON prints the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
