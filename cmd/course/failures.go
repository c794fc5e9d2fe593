package main

import (
	"fmt"
	"html"
	"regexp"
	"strings"
)

// Failure is a cell whose execution went wrong.
type Failure struct {
	Cell    int    // 1-based cell number in the notebook
	Line    int    // lesson line where the cell's code starts (0: the setup cell)
	Kind    string // "panic", "exit", "error" (compile or kernel error), "timeout", "kernel"
	Message string // what Jupyter showed, as plain text, trimmed
}

var (
	ansiEscape   = regexp.MustCompile(`\x1b\[[0-9;]*[a-zA-Z]`)
	exitLine     = regexp.MustCompile(`(?m)^(exit status [0-9]+|signal: [a-z ]+)$`)
	htmlStyle    = regexp.MustCompile(`(?s)<style>.*?</style>`)
	htmlTag      = regexp.MustCompile(`(?s)<[^>]*>`)
	blankLines   = regexp.MustCompile(`\n\s*\n+`)
	maxMsgLines  = 12
	maxLineBytes = 240
)

// plain strips terminal colours and trims text for a one-screen message.
func plain(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	s = strings.TrimSpace(blankLines.ReplaceAllString(s, "\n"))
	lines := strings.Split(s, "\n")
	if len(lines) > maxMsgLines {
		lines = append(lines[:maxMsgLines], fmt.Sprintf("… (%d more lines)", len(lines)-maxMsgLines))
	}
	for i, l := range lines {
		if len(l) > maxLineBytes {
			lines[i] = l[:maxLineBytes] + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// htmlText returns the text of GoNB's HTML error report: locations and
// messages, without styles and the hover-only context.
func htmlText(h string) string {
	h = htmlStyle.ReplaceAllString(h, "")
	h = dropElement(h, `<div class="gonb-err-context">`)
	h = strings.ReplaceAll(h, "<br/>", "\n")
	h = htmlTag.ReplaceAllString(h, "")
	h = html.UnescapeString(h)
	var lines []string
	join := false // the previous line was "Cell[3]: Line 2": the location and message follow
	for _, l := range strings.Split(h, "\n") {
		if l = strings.TrimSpace(l); l == "" || gonbPackage.MatchString(l) {
			continue
		}
		if join {
			lines[len(lines)-1] += " " + l
		} else {
			lines = append(lines, l)
		}
		join = cellLineInfo.MatchString(l)
	}
	return strings.Join(lines, "\n")
}

var (
	cellLineInfo = regexp.MustCompile(`^Cell\[[0-9]+\]: Line [0-9]+$`)
	gonbPackage  = regexp.MustCompile(`^# gonb_[0-9a-f]+$`) // go build's header line
)

// dropElement removes each div that starts with open, nested divs included.
func dropElement(h, open string) string {
	for {
		i := strings.Index(h, open)
		if i < 0 {
			return h
		}
		depth, j := 0, i
		for j < len(h) {
			next := strings.Index(h[j:], "<")
			if next < 0 {
				break // no closing tag
			}
			j += next
			switch {
			case strings.HasPrefix(h[j:], "<div"):
				depth++
			case strings.HasPrefix(h[j:], "</div>"):
				depth--
				if depth == 0 {
					j += len("</div>")
					h = h[:i] + h[j:]
					goto next
				}
			}
			j++
		}
		return h[:i] // unbalanced: drop the rest
	next:
	}
}

// CellFailure returns what went wrong in an executed code cell, or nil.
//
// nbconvert and nbclient see a cell fail when the kernel reports an error.
// GoNB does for compile errors, with the details in an HTML display before
// it. For a Go program that panics or calls os.Exit(1), GoNB writes a stderr
// line "exit status N" (or "signal: killed") after the program's own output;
// up to v0.11.3 that was all, and Jupyter saw a cell that ran fine. Since
// v0.11.4 it also displays an HTML box that maps the stack trace's main.go
// lines to cell lines ("Cell[3]: Line 2") and reports the error "exit status
// N". Either way the program's stderr (the panic, log.Fatal's message) says
// what went wrong, so such a cell is a "panic" or an "exit" with that text,
// and the box's cell lines follow it.
//
// GoNB's nbexec -check_cells (v0.11.4) classifies cells much the same way,
// but it is no replacement: it runs the whole notebook through a Jupyter
// server and a headless browser, then prints a report, from a main package
// that cannot be imported. The course's executor needs each cell's verdict
// as the cell ends, to stop there, time it and name its lesson line.
func CellFailure(cell map[string]any) *Failure {
	var stderr strings.Builder
	var lastHTML string
	var errMsg string // the kernel's error, with the HTML report before it when there is one
	exited := false   // the kernel's error is the program's exit status
	for _, o := range CellOutputs(cell) {
		switch o["output_type"] {
		case "stream":
			if o["name"] == "stderr" {
				stderr.WriteString(joinText(o["text"]))
			}
		case "display_data", "execute_result":
			data, _ := o["data"].(map[string]any)
			if h := joinText(data["text/html"]); strings.Contains(h, "gonb-err-location") || strings.Contains(h, "gonb-cell-line-info") {
				lastHTML = h
			}
		case "error":
			if errMsg != "" {
				continue // the first error stopped the cell
			}
			errMsg = fmt.Sprint(o["ename"], ": ", o["evalue"])
			exited = exitLine.MatchString(fmt.Sprint(o["evalue"]))
			if exited {
				break // the program's stderr says more: below
			}
			if lastHTML != "" {
				errMsg = htmlText(lastHTML) + "\n" + errMsg
			} else if tb, ok := o["traceback"].([]any); ok && len(tb) > 0 {
				var lines []string
				for _, t := range tb {
					lines = append(lines, fmt.Sprint(t))
				}
				errMsg = strings.Join(lines, "\n")
			}
		}
	}
	if errMsg != "" && !exited {
		return &Failure{Kind: "error", Message: plain(errMsg)}
	}
	// cellLines is the HTML box's mapping of the trace to cell lines, when
	// GoNB (v0.11.4 and later) displayed one: after the trimmed message, so
	// that a long stack trace does not push it out.
	cellLines := ""
	if exited && lastHTML != "" {
		cellLines = "\n" + plain(htmlText(lastHTML))
	}
	errText := stderr.String()
	if i := strings.Index(errText, "panic:"); i >= 0 {
		return &Failure{Kind: "panic", Message: plain(errText[i:]) + cellLines}
	}
	if exitLine.MatchString(errText) {
		return &Failure{Kind: "exit", Message: plain(errText) + cellLines}
	}
	if exited { // an exit status with no stderr to show for it
		return &Failure{Kind: "exit", Message: plain(errMsg) + cellLines}
	}
	return nil
}

// Failures returns the failures of an executed notebook generated from l,
// first failing cell first.
func Failures(l *Lesson, executed Notebook) []Failure {
	var out []Failure
	for i, c := range executed.Cells() {
		if CellType(c) != "code" {
			continue
		}
		if f := CellFailure(c); f != nil {
			f.Cell = i + 1
			if i < len(l.Cells) {
				f.Line = l.Cells[i].Line
			}
			out = append(out, *f)
		}
	}
	return out
}

// Where names a failing cell for a person: notebook, cell number, and the
// lesson line its code starts on.
func (f Failure) Where(nbPath, lessonPath string) string {
	if f.Line == 0 {
		return fmt.Sprintf("%s: cell %d (the setup cell the tool adds)", nbPath, f.Cell)
	}
	return fmt.Sprintf("%s: cell %d (%s line %d)", nbPath, f.Cell, lessonPath, f.Line)
}
