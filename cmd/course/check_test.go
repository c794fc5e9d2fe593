package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestCheckSync(t *testing.T) {
	l := testLesson(t, demoLesson)
	executed := func(l *Lesson) Notebook {
		gen := NewNotebook(l)
		nb, err := WithOutputs(gen, executedCopy(t, gen, "2\n"))
		if err != nil {
			t.Fatal(err)
		}
		return nb
	}
	const nbPath = "notebooks/07-demo.ipynb"
	if err := CheckSync(l, nbPath, executed(l)); err != nil {
		t.Fatalf("CheckSync of a fresh notebook: %v", err)
	}

	tests := []struct {
		name     string
		nb       Notebook
		wantErrs []string
	}{
		{
			name: "code line changed in the lesson",
			nb:   executed(testLesson(t, strings.Replace(demoLesson, "return 2", "return 3", 1))),
			wantErrs: []string{
				"notebooks/07-demo.ipynb is out of date with lessons/07-demo.md",
				"cell 3 (code, lesson line 6) differs at its line 1",
				`lesson:   "func f() int { return 2 }"`,
				`notebook: "func f() int { return 3 }"`,
			},
		},
		{
			name:     "prose changed",
			nb:       executed(testLesson(t, strings.Replace(demoLesson, "More.", "More!", 1))),
			wantErrs: []string{"cell 4 (markdown, lesson line 9) differs"},
		},
		{
			name:     "line added at the end of a cell",
			nb:       executed(testLesson(t, strings.Replace(demoLesson, "fmt.Println(f())\n", "fmt.Println(f())\n_ = 1\n", 1))),
			wantErrs: []string{"cell 5 (code, lesson line 12) differs at its line 3", "lesson:   (none)", `notebook: "_ = 1"`},
		},
		{
			name:     "cell added",
			nb:       executed(testLesson(t, demoLesson+"\n```go\n%%\n```\n")),
			wantErrs: []string{"the lesson makes 5 cells, the notebook has 6"},
		},
		{
			name:     "not executed",
			nb:       NewNotebook(l),
			wantErrs: []string{"cell 2 has not been executed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSync(l, nbPath, tt.nb)
			if err == nil {
				t.Fatal("CheckSync = nil; want an error")
			}
			for _, want := range tt.wantErrs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("CheckSync error:\n%v\nwant it to contain %q", err, want)
				}
			}
		})
	}

	t.Run("kernel", func(t *testing.T) {
		nb := executed(l)
		nb["metadata"] = map[string]any{"kernelspec": map[string]any{"name": "python3"}}
		if err := CheckSync(l, nbPath, nb); err == nil || !strings.Contains(err.Error(), `kernelspec is "python3", not gonb`) {
			t.Errorf("CheckSync error = %v; want the kernelspec named", err)
		}
		nb = executed(l)
		nb["metadata"].(map[string]any)["language_info"] = languageInfo
		if err := CheckSync(l, nbPath, nb); err == nil || !strings.Contains(err.Error(), "language_info was not written by the gonb kernel") {
			t.Errorf("CheckSync error = %v; want the placeholder language_info named", err)
		}
		delete(nb, "metadata")
		if err := CheckSync(l, nbPath, nb); err == nil {
			t.Error("CheckSync accepted a notebook without metadata")
		}
	})
}

func TestFirstDiff(t *testing.T) {
	tests := []struct {
		a, b         string
		line         int
		wantA, wantB string
	}{
		{"x\ny", "x\nz", 2, `"y"`, `"z"`},
		{"x", "x\ny", 2, "(none)", `"y"`},
		{"a", "b", 1, `"a"`, `"b"`},
	}
	for _, tt := range tests {
		line, a, b := firstDiff(tt.a, tt.b)
		if line != tt.line || a != tt.wantA || b != tt.wantB {
			t.Errorf("firstDiff(%q, %q) = %d, %s, %s; want %d, %s, %s", tt.a, tt.b, line, a, b, tt.line, tt.wantA, tt.wantB)
		}
	}
}

// checkLesson has a check cell after the cell that computes its numbers.
const checkLesson = "# Demo\n\nProse.\n\n```go\n%%\nfmt.Println(2)\n```\n\n```go\n// Checks: the numbers quoted above.\n%%\nlesson.CheckClose(\"two\", 2, 2, 0)\n```\n\n```go\n%%\n// Checks: not a check cell (not its first line)\n```\n"

func TestCheckCellMetadata(t *testing.T) {
	l := testLesson(t, checkLesson)
	cells := NewNotebook(l).Cells()
	if len(cells) != 5 {
		t.Fatalf("notebook has %d cells; want 5", len(cells))
	}
	hidden := map[string]any{"hide_input": true, "jupyter": map[string]any{"source_hidden": true}}
	for i, want := range []map[string]any{{}, {}, {}, hidden, {}} {
		if got := cells[i]["metadata"]; !reflect.DeepEqual(got, any(want)) {
			t.Errorf("cell %d metadata = %v; want %v", i, got, want)
		}
		// Ids do not depend on what a cell is.
		if got, want := cells[i]["id"], cellID("07-demo", i); got != want {
			t.Errorf("cell %d id = %v; want %v", i, got, want)
		}
	}
	if !l.Cells[3].IsCheck() || l.Cells[4].IsCheck() || l.Cells[1].IsCheck() {
		t.Error("IsCheck: want only the cell whose first line starts with // Checks:")
	}
}

func TestCheckSyncMetadata(t *testing.T) {
	l := testLesson(t, checkLesson)
	gen := NewNotebook(l)
	nb, err := WithOutputs(gen, executedCopy(t, gen, "2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSync(l, "notebooks/07-demo.ipynb", nb); err != nil {
		t.Fatalf("CheckSync of a fresh notebook: %v", err)
	}
	// A notebook generated before check cells were collapsed.
	for _, c := range nb.Cells() {
		c["metadata"] = map[string]any{}
	}
	err = CheckSync(l, "notebooks/07-demo.ipynb", nb)
	var me *MetadataError
	if !errors.As(err, &me) || me.Cell != 4 {
		t.Fatalf("CheckSync with a check cell not collapsed = %v; want a *MetadataError for cell 4", err)
	}
	fixed, err := Restamp(l, "notebooks/07-demo.ipynb", nb)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSync(l, "notebooks/07-demo.ipynb", fixed); err != nil {
		t.Errorf("CheckSync after Restamp: %v", err)
	}
	if got := joinText(CellOutputs(fixed.Cells()[2])[0]["text"]); got != "2\n" {
		t.Errorf("Restamp lost the outputs: %q", got)
	}
	// Restamp mends metadata only: a changed source needs a regeneration.
	other := testLesson(t, strings.Replace(checkLesson, "Println(2)", "Println(3)", 1))
	if _, err := Restamp(other, "notebooks/07-demo.ipynb", nb); err == nil {
		t.Error("Restamp accepted a notebook whose sources differ from the lesson's")
	}
}
