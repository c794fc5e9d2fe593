package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// SetupCell is the code cell the course tool puts before a lesson's first
// code cell: it makes the notebook's Go module require the course module,
// replaced by the checkout that holds the notebook (GONB_DIR is the
// notebook's folder, notebooks/). A go.work route would make GoNB ask the
// module proxy for gonb's latest version, which the proxy refuses.
const SetupCell = "!*go mod edit -require=github.com/posenc/course@v0.0.0 -replace=github.com/posenc/course=${GONB_DIR}/.."

// CheckPrefix starts the first line of a check cell: a code cell that holds
// a lesson's assertions (lesson.Check*, silent when they pass) rather than
// code that teaches. The notebook collapses its source, and the static site
// leaves it out; it still runs in every execution, and a failing check still
// shows its panic.
const CheckPrefix = "// Checks:"

// CellBreak is a line that splits the prose around it into two markdown
// cells; the line itself is dropped.
const CellBreak = "<!-- cell -->"

// lessonName matches a lesson's file name: two digits, a dash, a slug. A
// lesson too long for one sitting is split into parts, files that share its
// number and are read in the order of their names (08-length-extrapolation-lab.md,
// then 08-length-extrapolation-results.md): each part is a notebook of its
// own, and the lesson's number selects them all.
var lessonName = regexp.MustCompile(`^([0-9]{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$`)

// Cell is one notebook cell generated from a lesson.
type Cell struct {
	Type   string // "markdown" or "code"
	Source string // the cell's text, without a trailing newline
	Line   int    // line of the lesson where the cell's text starts (0 for the setup cell)
}

// IsCheck reports whether the cell is a check cell: a code cell whose first
// line starts with CheckPrefix.
func (c Cell) IsCheck() bool {
	return c.Type == "code" && strings.HasPrefix(c.Source, CheckPrefix)
}

// Metadata returns the notebook metadata of the cell: none for most cells;
// for a check cell, its source collapsed in JupyterLab and Notebook 7
// (jupyter.source_hidden: a "…" the reader can click open) and in Notebook
// 6's hide_input extension. Its outputs stay in view ("collapsed", which
// Notebook 6 reads as outputs hidden, is not set): a check that fails must
// show its message.
func (c Cell) Metadata() map[string]any {
	if !c.IsCheck() {
		return map[string]any{}
	}
	return map[string]any{
		"hide_input": true,
		"jupyter":    map[string]any{"source_hidden": true},
	}
}

// Lesson is a parsed lessons/NN-slug.md.
type Lesson struct {
	Path  string // path of the Markdown file
	Num   string // "01"; the parts of a split lesson share it
	Slug  string // "01-permutation-invariance", the notebook's base name
	Cells []Cell // the notebook's cells, setup cell included
}

// NotebookName returns the notebook's file name, NN-slug.ipynb.
func (l *Lesson) NotebookName() string { return l.Slug + ".ipynb" }

// ReadLesson reads and parses the lesson at path.
func ReadLesson(path string) (*Lesson, error) {
	m := lessonName.FindStringSubmatch(filepath.Base(path))
	if m == nil {
		return nil, fmt.Errorf("%s: a lesson's file name must be NN-slug.md (two digits, a dash, lower-case words joined by dashes)", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cells, err := ParseLesson(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Lesson{Path: path, Num: m[1], Slug: strings.TrimSuffix(filepath.Base(path), ".md"), Cells: cells}, nil
}

// ParseLesson turns a lesson's Markdown into notebook cells: every ```go
// fenced block becomes one code cell, verbatim; the text between code blocks
// becomes a markdown cell (fences in other languages stay in it), split
// further at CellBreak lines. Blank lines around markdown cells are dropped.
// The setup cell is inserted before the first code cell, after the markdown
// cell that precedes it (the lesson's title), if any.
func ParseLesson(text string) ([]Cell, error) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")

	var cells []Cell
	var md []string // pending markdown lines
	mdStart := 1    // lesson line of md[0]
	flushMD := func(next int) {
		// Trim blank lines at both ends, remembering where the text starts.
		start, end := 0, len(md)
		for start < end && strings.TrimSpace(md[start]) == "" {
			start++
		}
		for end > start && strings.TrimSpace(md[end-1]) == "" {
			end--
		}
		if start < end {
			cells = append(cells, Cell{Type: "markdown", Source: strings.Join(md[start:end], "\n"), Line: mdStart + start})
		}
		md = md[:0]
		mdStart = next
	}

	fence := "" // the opening fence of a non-Go block we are inside, if any
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		lineNo := i + 1
		if fence != "" {
			md = append(md, line)
			if isClosingFence(line, fence) {
				fence = ""
			}
			continue
		}
		if line == CellBreak {
			flushMD(lineNo + 1)
			continue
		}
		f, info, ok := openingFence(line)
		if !ok {
			md = append(md, line)
			continue
		}
		if info != "go" {
			fence = f
			md = append(md, line)
			continue
		}
		if line != "```go" {
			return nil, fmt.Errorf("line %d: a Go code cell opens with a line that is exactly ```go (got %q)", lineNo, line)
		}
		// A Go code cell: everything up to the closing ``` line, verbatim.
		flushMD(lineNo)
		var code []string
		j := i + 1
		for ; j < len(lines) && lines[j] != "```"; j++ {
			code = append(code, lines[j])
		}
		if j == len(lines) {
			return nil, fmt.Errorf("line %d: ```go block is never closed (a line with exactly ``` closes it)", lineNo)
		}
		src := strings.Join(code, "\n")
		if strings.TrimSpace(src) == "" {
			return nil, fmt.Errorf("line %d: empty ```go block", lineNo)
		}
		cells = append(cells, Cell{Type: "code", Source: src, Line: lineNo + 1})
		i = j
		mdStart = j + 2
	}
	if fence != "" {
		return nil, fmt.Errorf("a %s fenced block is never closed", fence)
	}
	flushMD(len(lines) + 1)

	// Insert the setup cell before the first code cell.
	first := -1
	for i, c := range cells {
		if c.Type == "code" {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, fmt.Errorf("the lesson has no ```go code cell")
	}
	if strings.Contains(cells[first].Source, "go mod edit") {
		return nil, fmt.Errorf("line %d: the tool adds the `!*go mod edit` setup cell itself: remove it from the lesson", cells[first].Line)
	}
	setup := Cell{Type: "code", Source: SetupCell}
	cells = append(cells[:first], append([]Cell{setup}, cells[first:]...)...)
	return cells, nil
}

// openingFence reports whether line opens a fenced block (CommonMark: up to
// three spaces, then at least three backticks or tildes), returning the
// fence characters and the info string's first word.
func openingFence(line string) (fence, info string, ok bool) {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 || len(trimmed) < 3 {
		return "", "", false
	}
	c := trimmed[0]
	if c != '`' && c != '~' {
		return "", "", false
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	rest := strings.TrimSpace(trimmed[n:])
	if c == '`' && strings.Contains(rest, "`") {
		return "", "", false
	}
	if fields := strings.Fields(rest); len(fields) > 0 {
		info = fields[0]
	}
	return trimmed[:n], info, true
}

// isClosingFence reports whether line closes a block opened by fence.
func isClosingFence(line, fence string) bool {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	trimmed = strings.TrimRight(trimmed, " \t")
	if len(trimmed) < len(fence) || strings.Trim(trimmed, fence[:1]) != "" {
		return false
	}
	return true
}

// FindLessons returns the lessons in dir, sorted by name, so that the parts
// of a split lesson (files sharing a number) come in their order.
// Files that do not look like lessons (README.md) are skipped.
func FindLessons(dir string) ([]*Lesson, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var lessons []*Lesson
	for _, e := range entries {
		if e.IsDir() || !lessonName.MatchString(e.Name()) {
			continue
		}
		l, err := ReadLesson(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		lessons = append(lessons, l)
	}
	sort.Slice(lessons, func(i, j int) bool { return lessons[i].Slug < lessons[j].Slug })
	return lessons, nil
}

// SelectLessons picks the lessons named by args ("1", "01", "01-slug",
// "lessons/01-slug.md" or "notebooks/01-slug.ipynb"); no args means all. A
// number picks every part of a split lesson, a slug one part.
func SelectLessons(all []*Lesson, args []string) ([]*Lesson, error) {
	if len(args) == 0 {
		return all, nil
	}
	var out []*Lesson
	for _, a := range args {
		key := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(a), ".md"), ".ipynb")
		if len(key) == 1 && key[0] >= '0' && key[0] <= '9' {
			key = "0" + key
		}
		var found []*Lesson
		for _, l := range all {
			if key == l.Num || key == l.Slug {
				found = append(found, l)
			}
		}
		if len(found) == 0 {
			var names []string
			for _, l := range all {
				names = append(names, l.Slug)
			}
			return nil, fmt.Errorf("no lesson %q (lessons: %s)", a, strings.Join(names, ", "))
		}
		out = append(out, found...)
	}
	return out, nil
}

// CheckBackendLine reports a lesson that builds GoMLX graphs (calls
// posgraph) but does not say which backend runs them: its first code cell
// that calls posgraph must print posgraph.BackendSummary(), once for the
// whole notebook, since the backend itself is created silently. Cells
// before it may be plain Go, so that a lesson can start without GoMLX.
func CheckBackendLine(l *Lesson) error {
	for _, c := range l.Cells {
		if c.Type != "code" || c.Source == SetupCell || !strings.Contains(c.Source, "posgraph.") {
			continue
		}
		if strings.Contains(c.Source, "posgraph.BackendSummary()") {
			return nil
		}
		return fmt.Errorf("%s line %d: this is the lesson's first code cell that builds graphs (posgraph), so it must "+
			"print posgraph.BackendSummary() (e.g. %q after its %%%% line): the learner sees once which backend runs and why",
			l.Path, c.Line, "fmt.Println(posgraph.BackendSummary())")
	}
	return nil
}
