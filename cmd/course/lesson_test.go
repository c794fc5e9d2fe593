package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseLesson(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Cell
	}{
		{
			name: "title, code, prose, code",
			text: "# Title\n\nIntro.\n\n```go\nfunc f() int { return 1 }\n```\n\nMiddle.\n\n```go\n%%\nfmt.Println(f())\n```\n",
			want: []Cell{
				{Type: "markdown", Source: "# Title\n\nIntro.", Line: 1},
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "func f() int { return 1 }", Line: 6},
				{Type: "markdown", Source: "Middle.", Line: 9},
				{Type: "code", Source: "%%\nfmt.Println(f())", Line: 12},
			},
		},
		{
			name: "code first: setup cell before it",
			text: "```go\n%%\nx := 1\n\n_ = x\n```\nAfter.",
			want: []Cell{
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "%%\nx := 1\n\n_ = x", Line: 2},
				{Type: "markdown", Source: "After.", Line: 7},
			},
		},
		{
			name: "other fences stay in the prose, a ```go inside them too",
			text: "# T\n\n```text\nplain\n```\n\n````markdown\n```go\nnot code\n```\n````\n\n```go\n%%\n```\n",
			want: []Cell{
				{Type: "markdown", Source: "# T\n\n```text\nplain\n```\n\n````markdown\n```go\nnot code\n```\n````", Line: 1},
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "%%", Line: 14},
			},
		},
		{
			name: "golang fences are shown, not run",
			text: "# T\n\n```golang\nx := wrong()\n```\n\n```go\n%%\n```\n",
			want: []Cell{
				{Type: "markdown", Source: "# T\n\n```golang\nx := wrong()\n```", Line: 1},
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "%%", Line: 8},
			},
		},
		{
			name: "cell break splits prose",
			text: "# T\n\nOne.\n" + CellBreak + "\nTwo.\n\n```go\n%%\n```",
			want: []Cell{
				{Type: "markdown", Source: "# T\n\nOne.", Line: 1},
				{Type: "markdown", Source: "Two.", Line: 5},
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "%%", Line: 8},
			},
		},
		{
			name: "CRLF line ends, code kept verbatim (tabs, blank lines)",
			text: "# T\r\n\r\n```go\r\nfunc f() {\r\n\r\n\treturn\r\n}\r\n```\r\n",
			want: []Cell{
				{Type: "markdown", Source: "# T", Line: 1},
				{Type: "code", Source: SetupCell},
				{Type: "code", Source: "func f() {\n\n\treturn\n}", Line: 4},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLesson(tt.text)
			if err != nil {
				t.Fatalf("ParseLesson: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLesson cells:\ngot  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseLessonErrors(t *testing.T) {
	tests := []struct {
		name, text, wantErr string
	}{
		{"unclosed go block", "# T\n\n```go\n%%\n", "line 3: ```go block is never closed"},
		{"go fence inside another block is prose", "# T\n\n```text\nx\n\n```go\n%%\n```\n", "no ```go code cell"},
		{"unclosed other block", "# T\n\n~~~text\nx\n```go\n%%\n```\n", "a ~~~ fenced block is never closed"},
		{"no code", "# T\n\nJust prose.\n", "no ```go code cell"},
		{"empty code", "# T\n\n```go\n\n```\n", "line 3: empty ```go block"},
		{"go fence with extra words", "# T\n\n```go title\n%%\n```\n", "line 3: a Go code cell opens with a line that is exactly ```go"},
		{"indented go fence", "# T\n\n  ```go\n%%\n```\n", "line 3: a Go code cell opens"},
		{"setup cell written by hand", "```go\n!*go mod edit -require=x@v0.0.0\n```\n", "adds the `!*go mod edit` setup cell itself"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLesson(tt.text)
			if err == nil {
				t.Fatalf("ParseLesson(%q) = nil error; want one containing %q", tt.text, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseLesson error = %q; want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func writeLesson(t *testing.T, dir, name, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindAndSelectLessons(t *testing.T) {
	dir := t.TempDir()
	writeLesson(t, dir, "02-second.md", "```go\n%%\n```\n")
	writeLesson(t, dir, "01-first-one.md", "# One\n```go\n%%\n```\n")
	writeLesson(t, dir, "README.md", "not a lesson")
	all, err := FindLessons(dir)
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, l := range all {
		slugs = append(slugs, l.Slug)
	}
	if want := []string{"01-first-one", "02-second"}; !reflect.DeepEqual(slugs, want) {
		t.Fatalf("FindLessons slugs = %q; want %q", slugs, want)
	}
	if got, want := all[0].NotebookName(), "01-first-one.ipynb"; got != want {
		t.Errorf("NotebookName = %q; want %q", got, want)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"1"}, "01-first-one"},
		{[]string{"02"}, "02-second"},
		{[]string{"01-first-one"}, "01-first-one"},
		{[]string{"lessons/02-second.md"}, "02-second"},
		{[]string{"notebooks/01-first-one.ipynb"}, "01-first-one"},
	} {
		got, err := SelectLessons(all, tt.args)
		if err != nil || len(got) != 1 || got[0].Slug != tt.want {
			t.Errorf("SelectLessons(%q) = %v, %v; want %s", tt.args, got, err, tt.want)
		}
	}
	if got, _ := SelectLessons(all, nil); len(got) != 2 {
		t.Errorf("SelectLessons(nil) = %d lessons; want all 2", len(got))
	}
	if _, err := SelectLessons(all, []string{"7"}); err == nil || !strings.Contains(err.Error(), `no lesson "7" (lessons: 01-first-one, 02-second)`) {
		t.Errorf("SelectLessons(7) error = %v; want one listing the lessons", err)
	}
}

// TestLessonParts checks a lesson split into parts: files sharing a number
// are found in name order, the number selects every part and a slug
// one, and each part keeps its own notebook.
func TestLessonParts(t *testing.T) {
	dir := t.TempDir()
	writeLesson(t, dir, "09-next.md", "```go\n%%\n```\n")
	writeLesson(t, dir, "08-lab-build.md", "# 8, part 1\n```go\n%%\n```\n")
	writeLesson(t, dir, "08-lab-results.md", "# 8, part 2\n```go\n%%\n```\n")
	all, err := FindLessons(dir)
	if err != nil {
		t.Fatalf("FindLessons with two parts of lesson 08: %v", err)
	}
	slugs := func(ls []*Lesson) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Slug)
		}
		return out
	}
	if got, want := slugs(all), []string{"08-lab-build", "08-lab-results", "09-next"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("FindLessons = %q; want %q (name order)", got, want)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"8"}, []string{"08-lab-build", "08-lab-results"}},
		{[]string{"08"}, []string{"08-lab-build", "08-lab-results"}},
		{[]string{"08-lab-build"}, []string{"08-lab-build"}},
		{[]string{"notebooks/08-lab-results.ipynb"}, []string{"08-lab-results"}},
		{[]string{"9", "08-lab-build"}, []string{"09-next", "08-lab-build"}},
	} {
		got, err := SelectLessons(all, tt.args)
		if err != nil || !reflect.DeepEqual(slugs(got), tt.want) {
			t.Errorf("SelectLessons(%q) = %q, %v; want %q", tt.args, slugs(got), err, tt.want)
		}
	}
	if all[0].Num != "08" || all[1].Num != "08" || all[0].NotebookName() == all[1].NotebookName() {
		t.Errorf("parts: numbers %s, %s, notebooks %s, %s; want 08 for both and two notebooks",
			all[0].Num, all[1].Num, all[0].NotebookName(), all[1].NotebookName())
	}
}

func TestFindLessonsRejects(t *testing.T) {
	t.Run("bad lesson names the file", func(t *testing.T) {
		dir := t.TempDir()
		writeLesson(t, dir, "03-broken.md", "# no code\n")
		if _, err := FindLessons(dir); err == nil || !strings.Contains(err.Error(), "03-broken.md: the lesson has no ```go code cell") {
			t.Errorf("FindLessons error = %v; want it to name 03-broken.md", err)
		}
	})
	t.Run("bad file name", func(t *testing.T) {
		if _, err := ReadLesson("lessons/1-x.md"); err == nil || !strings.Contains(err.Error(), "NN-slug.md") {
			t.Errorf("ReadLesson(1-x.md) error = %v; want the naming rule", err)
		}
	})
}

func TestCheckBackendLine(t *testing.T) {
	const graphs = "```go\nimport \"posgraph\"\n\n%%\nposgraph.Backend()\n```\n\nText.\n\n```go\n%%\nposgraph.Backend()\n```\n"
	tests := []struct {
		name, text string
		wantErr    bool
	}{
		{"no graphs", "```go\n%%\nfmt.Println(1)\n```\n", false},
		{"graphs, summary in the first cell", "```go\n%%\nfmt.Println(posgraph.BackendSummary())\n```\n\n```go\n%%\nposgraph.Backend()\n```\n", false},
		{"graphs, no summary", graphs, true},
		{"graphs, summary only later", graphs + "\n```go\n%%\nfmt.Println(posgraph.BackendSummary())\n```\n", true},
		{"plain Go first, summary in the first graph cell", "```go\n%%\nfmt.Println(1)\n```\n\n```go\n%%\nfmt.Println(posgraph.BackendSummary())\n```\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := testLesson(t, "# T\n\n"+tt.text)
			err := CheckBackendLine(l)
			if (err != nil) != tt.wantErr {
				t.Fatalf("CheckBackendLine = %v; want an error: %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "line 4") {
				t.Errorf("error %q does not name the first code cell's line 4", err)
			}
		})
	}
}
