package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/posenc/course/exercises/internal/catalog"
)

const root = "../../.."

// TestGeneratedFilesAreFresh fails when a generated file no longer matches
// the catalog or the checks: run go run ./exercises/internal/gen.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			t.Errorf("%v (run go run ./exercises/internal/gen)", err)
			continue
		}
		if !bytes.Equal(old, f.data) {
			t.Errorf("%s is stale: run go run ./exercises/internal/gen", f.path)
		}
	}
}

// TestReadmeHints checks that every exercise has a folded hints section.
func TestReadmeHints(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, catalog.Dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, e := range catalog.Exercises {
		summary := fmt.Sprintf("<summary><b>%02d · %s</b></summary>", e.Num, e.Title)
		i := strings.Index(text, summary)
		if i < 0 {
			t.Errorf("exercises/README.md has no hints section %q", summary)
			continue
		}
		body, _, ok := strings.Cut(text[i:], "</details>")
		if !ok || !strings.Contains(body, "\n- ") && !strings.Contains(body, "\n1. ") {
			t.Errorf("exercises/README.md: the hints of exercise %02d are empty or not closed by </details>", e.Num)
		}
		if !strings.HasPrefix(text[:i][strings.LastIndex(text[:i], "\n<details>"):], "\n<details>") {
			t.Errorf("exercises/README.md: the hints of exercise %02d are not folded in <details>", e.Num)
		}
	}
}

// TestLessonsLinkTheirExercises checks that each lesson's Exercises section
// links every exercise of the lesson.
func TestLessonsLinkTheirExercises(t *testing.T) {
	for _, l := range catalog.Lessons {
		paths, _ := filepath.Glob(filepath.Join(root, "lessons", fmt.Sprintf("%02d-*.md", l.Num)))
		if len(paths) != 1 {
			t.Errorf("lesson %d: found %d files lessons/%02d-*.md", l.Num, len(paths), l.Num)
			continue
		}
		data, err := os.ReadFile(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(data), "\n## Exercises\n")
		if !ok {
			t.Errorf("%s has no “## Exercises” section", paths[0])
			continue
		}
		section, _, _ = strings.Cut(section, "\n## ")
		for _, e := range catalog.Exercises {
			if e.Lesson == l.Num && !strings.Contains(section, "(../exercises/"+e.File()+")") {
				t.Errorf("%s: the Exercises section does not link ../exercises/%s", filepath.Base(paths[0]), e.File())
			}
		}
	}
}
