package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
)

const root = "../../.."

// TestGeneratedFilesAreFresh fails when a generated file no longer matches
// the checks: run go generate ./exercises.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			t.Errorf("%v (run go generate ./exercises)", err)
			continue
		}
		if !bytes.Equal(old, f.data) {
			t.Errorf("%s is stale: run go generate ./exercises", f.path)
		}
	}
}

// TestWrap checks the wrapping of generated Markdown: lines of at most the
// width where there is a space to break at, never inside code or math.
func TestWrap(t *testing.T) {
	tests := []struct {
		text, indent string
		width        int
		want         string
	}{
		{"- one two three four", "  ", 9, "- one two\n  three\n  four\n"},
		{"a `b c d` e", "", 3, "a\n`b c d`\ne\n"},
		{"x $a + b$ y", "", 4, "x\n$a + b$\ny\n"},
		{"short", "", 80, "short\n"},
	}
	for _, tc := range tests {
		if got := wrap(tc.text, tc.width, tc.indent); got != tc.want {
			t.Errorf("wrap(%q, %d, %q) = %q; want %q", tc.text, tc.width, tc.indent, got, tc.want)
		}
	}
}

// TestMarkdownBlocks checks that list items form one list and everything
// else is separated by a blank line.
func TestMarkdownBlocks(t *testing.T) {
	got := markdownBlocks([]string{"Steps:", "1. one", "2. two", "- a", "Done."}, 80)
	want := "Steps:\n\n1. one\n2. two\n- a\n\nDone.\n"
	if got != want {
		t.Errorf("markdownBlocks = %q; want %q", got, want)
	}
}

// TestCourseMap checks the rewriting of README.md's Exercises column.
func TestCourseMap(t *testing.T) {
	readme := "# X\n\n## The course\n\n| # | Lesson | Exercises |\n|---|---|---|\n| 1 | [a](b) | old |\n| 99 | [c](d) | old |\n\nText | with a bar |\n"
	got, err := courseMap(readme, check.Entries())
	if err != nil {
		t.Fatal(err)
	}
	want := "# X\n\n## The course\n\n| # | Lesson | Exercises |\n|---|---|---|\n| 1 | [a](b) | 01, 02 |\n| 99 | [c](d) | — |\n\nText | with a bar |\n"
	if got != want {
		t.Errorf("courseMap =\n%s\nwant\n%s", got, want)
	}
	if _, err := courseMap("## The course\n\n| # | Lesson | Notebook |\n", nil); err == nil {
		t.Error("courseMap accepts a table whose last column is not Exercises")
	}
}

// TestMarkersRequired checks that a file without its markers is an error,
// not a silent append.
func TestMarkersRequired(t *testing.T) {
	if _, err := replaceBetween("no markers here\n", "x.md", lessonStart, lessonEnd, "body"); err == nil ||
		!strings.Contains(err.Error(), "x.md lacks the markers") {
		t.Errorf("replaceBetween without markers: %v; want an error naming the file", err)
	}
	got, err := replaceBetween("a\n"+lessonStart+"\nold\n"+lessonEnd+"\nb\n", "x.md", lessonStart, lessonEnd, "\nnew\n\n")
	if want := "a\n" + lessonStart + "\n\nnew\n\n" + lessonEnd + "\nb\n"; err != nil || got != want {
		t.Errorf("replaceBetween = %q, %v; want %q", got, err, want)
	}
}

// TestExercisesPart checks where a lesson's generated exercises go: its only
// file, or the one part of a split lesson that holds the markers.
func TestExercisesPart(t *testing.T) {
	l := catalog.Lesson{Num: 8, Title: "lab"}
	write := func(dir, name, text string) {
		if err := os.MkdirAll(filepath.Join(dir, "lessons"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "lessons", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	marked := "# results\n" + lessonStart + "\n" + lessonEnd + "\n"

	one := t.TempDir()
	write(one, "08-lab.md", "# no markers yet\n")
	if p, _, err := exercisesPart(one, l); err != nil || filepath.Base(p) != "08-lab.md" {
		t.Errorf("one file: %s, %v; want 08-lab.md (its markers are checked when it is rewritten)", p, err)
	}

	parts := t.TempDir()
	write(parts, "08-lab-build.md", "# how it is built\n")
	write(parts, "08-lab-results.md", marked)
	write(parts, "09-next.md", marked)
	if p, data, err := exercisesPart(parts, l); err != nil || filepath.Base(p) != "08-lab-results.md" || string(data) != marked {
		t.Errorf("two parts: %s, %v; want 08-lab-results.md, the part with the markers", p, err)
	}

	both := t.TempDir()
	write(both, "08-lab-build.md", marked)
	write(both, "08-lab-results.md", marked)
	if _, _, err := exercisesPart(both, l); err == nil || !strings.Contains(err.Error(), "both 08-lab-build.md and 08-lab-results.md") {
		t.Errorf("markers in two parts: %v; want an error naming both", err)
	}

	neither := t.TempDir()
	write(neither, "08-lab-build.md", "# a\n")
	write(neither, "08-lab-results.md", "# b\n")
	if _, _, err := exercisesPart(neither, l); err == nil || !strings.Contains(err.Error(), "none of its parts") {
		t.Errorf("markers in no part: %v; want an error", err)
	}
	if _, _, err := exercisesPart(t.TempDir(), l); err == nil || !strings.Contains(err.Error(), "no file lessons/08-*.md") {
		t.Errorf("no file: %v; want an error", err)
	}
}

// row and miniTable are a case table in miniature, for TestLiteral.
type row struct {
	Name string
	X    []float64
	N    int
	F    func(int) bool
}

type miniTable struct {
	Rows []row `doc:"Each row is one check."`
	Grid [][]float64
}

// TestLiteral checks the printing of a case table: short rows on one line,
// special floats through math, functions of internal/check by name, a
// field's doc tag above it, and an error for what the test file could not
// compile.
func TestLiteral(t *testing.T) {
	var l literal
	got, err := l.value(reflect.ValueOf(miniTable{
		Rows: []row{{Name: "a", X: []float64{1, -0.5}, N: 2, F: nil}},
		Grid: [][]float64{{math.Inf(1), math.NaN()}, {math.Copysign(0, -1), 1e-9}},
	}), 0, false)
	if err != nil {
		t.Fatal(err)
	}
	want := "main.miniTable{\n\t// Each row is one check.\n\tRows: []main.row{{Name: \"a\", X: []float64{1, -0.5}, N: 2, F: nil}},\n" +
		"\tGrid: [][]float64{{math.Inf(1), math.NaN()}, {math.Copysign(0, -1), 1e-09}},\n}"
	if got != want || !l.usesMath {
		t.Errorf("literal =\n%s\nwant\n%s (usesMath %v)", got, want, l.usesMath)
	}
	if _, err := l.value(reflect.ValueOf(row{F: func(int) bool { return true }}), 0, false); err == nil {
		t.Error("a closure in a case table is printed; want an error")
	}
	if s, err := l.value(reflect.ValueOf(check.Rowwise), 0, false); err != nil || s != "check.Rowwise" {
		t.Errorf("check.Rowwise prints as %q, %v", s, err)
	}
	long := make([]float64, 40)
	if s, _ := l.value(reflect.ValueOf(long), 1, false); strings.Count(s, "\n") < 2 {
		t.Errorf("40 values are printed on one line:\n%s", s)
	}
}
