// Package lesson holds the small helpers the course's notebooks use around
// pkg/posenc: checking that a number quoted in the prose is the number a
// cell computes, showing tables, and stopping a cell on an error (Must). Checks fail loudly (a panic names what
// differed), so a lesson whose text and code drift apart fails its headless
// run in `make test`.
package lesson

import (
	"fmt"
	"html"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/janpfeifer/gonb/gonbui"
)

// Checks are silent when they pass: the reader sees the code that teaches,
// not a list of self-checks, and a check that fails still stops the cell
// loudly (a panic naming both numbers), so `make test` fails. An author who
// wants to see every passing check sets COURSE_CHECKS=verbose in the
// kernel's environment.
var verbose = os.Getenv("COURSE_CHECKS") == "verbose"

// passed prints a passing check's line, only when COURSE_CHECKS=verbose.
func passed(format string, args ...any) {
	if verbose {
		fmt.Printf("✓ "+format+"\n", args...)
	}
}

// Check returns silently when got is within tol of want, and panics with a
// message naming what differed otherwise. Use it for every number the text
// quotes: "PE(3)[0]", got, 0.1411, 5e-5.
func Check(what string, got, want, tol float64) {
	if !(math.Abs(got-want) <= tol) { // also false for NaN
		panic(fmt.Sprintf("lesson check failed: %s = %.6g, but the text says %.6g (tolerance %.1g)", what, got, want, tol))
	}
	passed("%s = %s (text: %s)", what, fmtNum(got), fmtNum(want))
}

// CheckSlice is Check for each element of got against want.
func CheckSlice(what string, got, want []float64, tol float64) {
	if len(got) != len(want) {
		panic(fmt.Sprintf("lesson check failed: %s has %d values, but the text lists %d", what, len(got), len(want)))
	}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			panic(fmt.Sprintf("lesson check failed: %s[%d] = %.6g, but the text says %.6g (tolerance %.1g)",
				what, i, got[i], want[i], tol))
		}
	}
	passed("%s = %s (text agrees to ±%.1g)", what, FormatSlice(got, 4), tol)
}

// CheckTrue returns silently when ok holds and panics naming the claim
// otherwise: for statements such as "every value lies in [−1, 1]".
func CheckTrue(claim string, ok bool) {
	if !ok {
		panic("lesson check failed: " + claim)
	}
	passed("%s", claim)
}

// FormatSlice formats values with the given number of decimals:
// [0.1411 -0.9900 0.0300 0.9996].
func FormatSlice(values []float64, decimals int) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprintf("%.*f", decimals, v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.6g", v)
}

// Table shows rows under header: an HTML table in a notebook, aligned
// text otherwise.
func Table(header []string, rows [][]string) {
	if !gonbui.IsNotebook {
		fmt.Print(TextTable(header, rows))
		return
	}
	gonbui.DisplayHtml(HTMLTable(header, rows))
	// Wait until GoNB has taken the table: a cell's program may end right
	// after it, and a display still in the pipe then never shows.
	gonbui.Sync()
}

// TextTable renders rows under header as tab-aligned text.
func TextTable(header []string, rows [][]string) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
	return b.String()
}

// HTMLTable renders rows under header as an HTML table, escaping cells.
func HTMLTable(header []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("<table>\n<thead><tr>")
	for _, h := range header {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for _, c := range r {
			b.WriteString("<td>" + html.EscapeString(c) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return b.String()
}

// Matrix shows a row-major rows×cols matrix with the given decimals, rows
// labelled by rowLabel(i) (for example "pos 3") and columns "d0", "d1", ….
func Matrix(data []float64, rows, cols, decimals int, rowLabel func(i int) string) {
	if rows <= 0 || cols <= 0 || len(data) != rows*cols {
		panic(fmt.Sprintf("lesson.Matrix: len(data) must equal rows×cols > 0, got %d for %d×%d", len(data), rows, cols))
	}
	header := make([]string, cols+1)
	for j := range cols {
		header[j+1] = fmt.Sprintf("d%d", j)
	}
	body := make([][]string, rows)
	for i := range rows {
		r := make([]string, cols+1)
		r[0] = fmt.Sprint(i)
		if rowLabel != nil {
			r[0] = rowLabel(i)
		}
		for j := range cols {
			r[j+1] = fmt.Sprintf("%.*f", decimals, data[i*cols+j])
		}
		body[i] = r
	}
	Table(header, body)
}
