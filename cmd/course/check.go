package main

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
)

// SyncError says how a committed notebook differs from what its lesson
// generates.
type SyncError struct {
	Notebook string // path of the notebook
	Lesson   string // path of the lesson
	Detail   string // what differs, first difference only
}

func (e *SyncError) Error() string {
	return fmt.Sprintf("%s is out of date with %s: %s", e.Notebook, e.Lesson, e.Detail)
}

// MetadataError says that a notebook's cells match its lesson but one's
// metadata does not (a check cell not collapsed): `course metadata` mends
// it without executing anything.
type MetadataError struct {
	Notebook string
	Cell     int // 1-based
	Got      any
	Want     map[string]any
}

func (e *MetadataError) Error() string {
	return fmt.Sprintf("%s: cell %d's metadata is %v, want %v", e.Notebook, e.Cell, e.Got, e.Want)
}

// CheckSync compares the cells of a committed notebook with those its lesson
// generates: same number, types and sources, every code cell executed.
// It returns nil when they agree, else a *SyncError naming the first
// differing cell.
func CheckSync(l *Lesson, nbPath string, committed Notebook) error {
	fail := func(format string, args ...any) error {
		return &SyncError{Notebook: nbPath, Lesson: l.Path, Detail: fmt.Sprintf(format, args...)}
	}
	got := committed.Cells()
	want := l.Cells
	for i := 0; i < len(got) && i < len(want); i++ {
		w := want[i]
		where := fmt.Sprintf("cell %d (%s", i+1, w.Type)
		if w.Line > 0 {
			where += fmt.Sprintf(", lesson line %d", w.Line)
		}
		where += ")"
		if gt := CellType(got[i]); gt != w.Type {
			return fail("%s is a %s cell in the notebook", where, gt)
		}
		if gs := CellSource(got[i]); gs != w.Source {
			ln, wl, gl := firstDiff(w.Source, gs)
			return fail("%s differs at its line %d:\n  lesson:   %s\n  notebook: %s", where, ln, wl, gl)
		}
	}
	if len(got) != len(want) {
		return fail("the lesson makes %d cells, the notebook has %d", len(want), len(got))
	}
	for i, w := range want {
		if m := w.Metadata(); !sameMetadata(got[i]["metadata"], m) {
			return &MetadataError{Notebook: nbPath, Cell: i + 1, Got: got[i]["metadata"], Want: m}
		}
	}
	meta, _ := committed["metadata"].(map[string]any)
	spec, _ := meta["kernelspec"].(map[string]any)
	if name, _ := spec["name"].(string); name != "gonb" {
		return fail("its kernelspec is %q, not gonb", name)
	}
	for i, c := range got {
		if CellType(c) == "code" && c["execution_count"] == nil {
			return fail("cell %d has not been executed (notebooks are committed with their outputs)", i+1)
		}
	}
	// Front ends store the kernel's language_info on opening; one the kernel
	// did not write would make the notebook open modified.
	if info, _ := meta["language_info"].(map[string]any); info["version"] == nil {
		return fail("its language_info was not written by the gonb kernel (no version), so Jupyter would change it on opening")
	}
	return nil
}

// sameMetadata reports whether a cell's metadata as decoded from a
// notebook is want (an absent one counts as empty).
func sameMetadata(got any, want map[string]any) bool {
	if got == nil {
		got = map[string]any{}
	}
	return reflect.DeepEqual(got, any(want))
}

// Restamp returns a copy of the committed notebook nb with each cell's id
// and metadata as the lesson generates them, outputs kept: what `course
// metadata` writes when only those differ. The cells must otherwise match
// (CheckSync passes or fails with a *MetadataError).
func Restamp(l *Lesson, nbPath string, nb Notebook) (Notebook, error) {
	if err := CheckSync(l, nbPath, nb); err != nil {
		if _, ok := err.(*MetadataError); !ok {
			return nil, err
		}
	}
	gen := NewNotebook(l).Cells()
	cells := nb.Cells()
	out := make([]any, len(cells))
	for i, c := range cells {
		c = maps.Clone(c)
		c["id"], c["metadata"] = gen[i]["id"], gen[i]["metadata"]
		out[i] = c
	}
	res := maps.Clone(nb)
	res["cells"] = out
	return res, nil
}

// firstDiff returns the 1-based number of the first line where a and b
// differ, and that line in each (quoted, or "(none)" past the end).
func firstDiff(a, b string) (int, string, string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; ; i++ {
		var x, y string = "(none)", "(none)"
		if i < len(al) {
			x = fmt.Sprintf("%q", al[i])
		}
		if i < len(bl) {
			y = fmt.Sprintf("%q", bl[i])
		}
		if x != y || (i >= len(al) && i >= len(bl)) {
			return i + 1, x, y
		}
	}
}
