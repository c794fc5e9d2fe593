package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/cli"
)

// Result is the grade of one exercise.
type Result struct {
	Number       int    `json:"number"`
	Slug         string `json:"slug"`
	File         string `json:"file"`
	Test         string `json:"test"`
	Lesson       int    `json:"lesson"`
	Difficulty   string `json:"difficulty"`
	Status       string `json:"status"` // one of catalog's Status constants
	Passed       bool   `json:"passed"`
	Points       int    `json:"points"`
	MaxPoints    int    `json:"max_points"`
	ChecksPassed int    `json:"checks_passed"`
	Checks       int    `json:"checks"`
	Summary      string `json:"hint,omitempty"`     // the first hint, whole, or what went wrong
	Messages     string `json:"messages,omitempty"` // every failure's message
	// Was is the exercise's result at the learner's previous run, when it
	// has changed since ("fail 2/5", "not implemented"); empty when
	// unchanged or not graded then.
	Was string `json:"was,omitempty"`
}

// Report is the grade of every exercise graded: what the table and --json
// print.
type Report struct {
	Lesson        int      `json:"lesson,omitempty"` // -lesson, when given
	Exercises     []Result `json:"exercises"`
	Points        int      `json:"points"`
	MaxPoints     int      `json:"max_points"`
	Passed        int      `json:"passed"`
	Total         int      `json:"total"`
	CompileErrors string   `json:"compile_errors,omitempty"` // of the files replaced by their stand-ins
	BuildOutput   string   `json:"build_output,omitempty"`   // when nothing could be graded
}

// AllPassed reports whether every exercise passed.
func (r *Report) AllPassed() bool { return r.Passed == r.Total }

// add records the result of exercise e.
func (r *Report) add(res Result, e catalog.Exercise) {
	res.Number, res.Slug, res.File, res.Test = e.Num, e.Slug, e.Path(), e.Test
	res.Lesson, res.Difficulty, res.MaxPoints = e.Lesson, string(e.Difficulty), e.Points()
	if res.Status == catalog.StatusPass {
		res.Passed, res.Points = true, e.Points()
		r.Passed++
		r.Points += res.Points
	}
	if res.Status == catalog.StatusTodo {
		// The table's wording, not go test's (the harness's todoMessage):
		// the row already says "not implemented", and the committed
		// notebooks show this line as it is.
		res.Summary = fmt.Sprintf("write %s in %s (%s)", e.FuncList(), e.Path(), e.Where())
	}
	r.Exercises = append(r.Exercises, res)
}

// width is where the table wraps the hint lines under each row.
const width = 100

// WriteTable prints the report as a table, each exercise's first hint in
// full under its row, and the total.
func (r *Report) WriteTable(w io.Writer) error {
	rows := [][]string{{"exercise", "lesson", "result", "checks", "points"}}
	changed := r.Changed()
	if changed > 0 {
		rows[0] = append(rows[0], "since your last run")
	}
	for _, e := range r.Exercises {
		checks := "-"
		if e.Checks > 0 {
			checks = fmt.Sprintf("%d/%d", e.ChecksPassed, e.Checks)
		}
		result := e.Status
		if e.Passed {
			result = "✓ " + result
		}
		row := []string{fmt.Sprintf("%02d %s", e.Number, e.Slug), fmt.Sprint(e.Lesson), result, checks,
			fmt.Sprintf("%d/%d", e.Points, e.MaxPoints)}
		if changed > 0 {
			was := ""
			if e.Was != "" {
				was = "was " + e.Was
			}
			row = append(row, was)
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for c, cell := range row {
			widths[c] = max(widths[c], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	if changed > 0 {
		fmt.Fprintf(&b, "%d changed since your last run, listed first.\n\n", changed)
	}
	line := func(row []string) {
		var l strings.Builder
		for c, cell := range row {
			if c < len(row)-1 {
				cell += strings.Repeat(" ", widths[c]-utf8.RuneCountInString(cell)+2)
			}
			l.WriteString(cell)
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(rows[0])
	for i, e := range r.Exercises {
		line(rows[i+1])
		if e.Summary != "" {
			prefix := ""
			if e.Status == catalog.StatusFail {
				prefix = "Hint: "
			}
			for _, l := range wrap(prefix+e.Summary, width-4) {
				b.WriteString("    " + l + "\n")
			}
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if r.CompileErrors != "" {
		fmt.Fprintf(w, "\nThese files do not compile; the other exercises were graded with their stubs in their place:\n%s\n", cli.Indent(r.CompileErrors))
	}
	if r.BuildOutput != "" {
		fmt.Fprintf(w, "\nThe exercises could not be compiled, so nothing was graded:\n%s\n", cli.Indent(r.BuildOutput))
	}
	what := "Total"
	if r.Lesson != 0 {
		what = fmt.Sprintf("Lesson %d (%s)", r.Lesson, catalog.LessonTitle(r.Lesson))
	}
	_, err := fmt.Fprintf(w, "\n%s: %d/%d points, %d of %d exercises pass.\n", what, r.Points, r.MaxPoints, r.Passed, r.Total)
	if err == nil && !r.AllPassed() && r.BuildOutput == "" {
		if f := r.firstFailing(); f != "" {
			_, err = fmt.Fprintf(w, "Details: go test ./exercises -run %s -v; hints: exercises/README.md\n", f)
		}
	}
	return err
}

// Changed returns how many exercises changed since the previous run.
func (r *Report) Changed() int {
	n := 0
	for _, e := range r.Exercises {
		if e.Was != "" {
			n++
		}
	}
	return n
}

// outcome is how an exercise ended, as the next run compares it: status,
// and checks passed when it has checks.
func (e Result) outcome() string {
	if e.Checks > 0 {
		return fmt.Sprintf("%s %d/%d", e.Status, e.ChecksPassed, e.Checks)
	}
	return e.Status
}

// Since compares the report with the outcomes of the previous run (by
// exercise number; nil when there was none): it sets Was on each exercise
// that changed and moves those first, keeping the order within each group.
func (r *Report) Since(prev map[int]string) {
	if prev == nil {
		return
	}
	var changed, same []Result
	for _, e := range r.Exercises {
		// An exercise the previous run did not grade (-lesson) has
		// nothing to compare with.
		if was, ok := prev[e.Number]; ok && was != e.outcome() {
			e.Was = was
		}
		if e.Was != "" {
			changed = append(changed, e)
		} else {
			same = append(same, e)
		}
	}
	r.Exercises = append(changed, same...)
}

// Outcomes returns the report's outcome per exercise number, for the next
// run's Since.
func (r *Report) Outcomes() map[int]string {
	out := map[int]string{}
	for _, e := range r.Exercises {
		out[e.Number] = e.outcome()
	}
	return out
}

// firstFailing returns the test name, without "Test", of the first exercise
// that does not pass and was started.
func (r *Report) firstFailing() string {
	for _, e := range r.Exercises {
		if !e.Passed && e.Status != catalog.StatusTodo {
			return strings.TrimPrefix(e.Test, "Test")
		}
	}
	return ""
}

// wrap splits s into lines of at most n runes, at spaces.
func wrap(s string, n int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			switch {
			case line == "":
				line = word
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > n:
				lines = append(lines, line)
				line = word
			default:
				line += " " + word
			}
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// WriteJSON prints the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
