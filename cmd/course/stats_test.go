package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestStatsFixture(t *testing.T) {
	text, err := os.ReadFile("testdata/stats-lesson.md")
	if err != nil {
		t.Fatal(err)
	}
	nb := Notebook{"cells": []any{
		map[string]any{"cell_type": "code", "source": "x", "outputs": []any{
			map[string]any{"output_type": "stream", "name": "stdout", "text": []any{"✓ a = 1\n", "plain\n", "  ✓ b = 2\n"}},
			map[string]any{"output_type": "display_data", "data": map[string]any{"text/plain": "✓ c\nd"}},
		}},
	}}
	s, err := Stats("07-demo", string(text), nb)
	if err != nil {
		t.Fatal(err)
	}
	// Prose: the title (3 words: "#" and "—" are not words), the time line
	// (13), two sentences (15 and 8 words, the link target dropped),
	// "Answer" and the answer (6); its decimals: 1.7, 1.26 and 0.9.
	// Out: the table, both $$ blocks, the code and text fences, the comment.
	prose := Prose(string(text))
	for _, gone := range []string{"1.701", "0.5", "3.75", "0.25", "3.14", "9.99", "notebooks/05", "summary"} {
		if strings.Contains(prose, gone) {
			t.Errorf("prose keeps %q:\n%s", gone, prose)
		}
	}
	want := LessonStats{
		Lesson: "07-demo", Words: 46, Decimals: 3, DecimalsPer100: 6.5,
		CheckLines: 3, CodeCells: 2, CheckCells: 1,
		Stated: "About 12 minutes to read and run; exercises 07, 08: about 40 minutes.", StatedMinutes: 12,
		EstimatedMinutes: 2, // 46 words: 0 minutes of reading, and 2 code cells
	}
	if s != want {
		t.Errorf("Stats =\n%+v\nwant\n%+v\nprose:\n%s", s, want, prose)
	}
}

func TestDecimals(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"about 1.7 at L, 1.701 [1.681–1.711]", 4},
		{"arXiv:2104.09864, v0.11.3, Go 1.26, pkg/a1.2", 1}, // Go 1.26 counts: it reads as a number
		{"−0.41 and -2.5, 10.", 2},
		{"1.2.3 and x2.5", 0},
	} {
		if got := Decimals(c.text); got != c.want {
			t.Errorf("Decimals(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// A time line that wraps is still read whole.
func TestStatedWrapped(t *testing.T) {
	s, m := Stated("# Title\n\n*About 20 minutes to read and run; no exercises in\nthis part.*\n\nProse.\n")
	if s != "About 20 minutes to read and run; no exercises in this part." || m != 20 {
		t.Errorf("Stated = %q, %d; want the wrapped line and 20", s, m)
	}
}

func TestStatedAbsent(t *testing.T) {
	if s, m := Stated("# Title\n\nFirst paragraph, *About 5 minutes* later.\n"); s != "" || m != 0 {
		t.Errorf("Stated = %q, %d; want none (the line under the title is prose)", s, m)
	}
}

// TestStatsCommand runs `course stats` on the repository's working tree
// and at a commit, as a table and as JSON.
func TestStatsCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-root", "../..", "stats", "-json", "01"}, &out, &errb); code != 0 {
		t.Fatalf("stats -json 01: exit %d: %s", code, errb.String())
	}
	var got struct {
		Lessons []LessonStats `json:"lessons"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("stats -json: %v\n%s", err, out.String())
	}
	if len(got.Lessons) != 1 || got.Lessons[0].Lesson != "01-permutation-invariance" || got.Lessons[0].Words < 100 || got.Lessons[0].CodeCells < 1 {
		t.Errorf("stats -json 01 = %+v", got.Lessons)
	}
	out.Reset()
	if code := run([]string{"-root", "../..", "stats", "-rev", "HEAD"}, &out, &errb); code != 0 {
		t.Fatalf("stats -rev HEAD: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Lessons at HEAD") || !strings.Contains(out.String(), "\ntotal ") {
		t.Errorf("stats -rev HEAD table:\n%s", out.String())
	}
	if code := run([]string{"-root", "../..", "stats", "-rev", "no-such-rev"}, &out, &errb); code != 2 {
		t.Errorf("stats -rev no-such-rev: exit %d, want 2", code)
	}
}
