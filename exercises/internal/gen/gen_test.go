package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
