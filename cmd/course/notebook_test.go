package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

func testLesson(t *testing.T, text string) *Lesson {
	t.Helper()
	cells, err := ParseLesson(text)
	if err != nil {
		t.Fatal(err)
	}
	return &Lesson{Path: "lessons/07-demo.md", Num: "07", Slug: "07-demo", Cells: cells}
}

const demoLesson = "# Demo\n\nSome *prose*.\n\n```go\nfunc f() int { return 2 }\n```\n\nMore.\n\n```go\n%%\nfmt.Println(f())\n```\n"

func TestNewNotebook(t *testing.T) {
	l := testLesson(t, demoLesson)
	nb := NewNotebook(l)
	a, err := nb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewNotebook(l).Encode()
	if !bytes.Equal(a, b) {
		t.Fatal("two encodings of the same lesson differ: generation is not deterministic")
	}
	cells := nb.Cells()
	if len(cells) != 5 {
		t.Fatalf("notebook has %d cells; want 5", len(cells))
	}
	for i, want := range []struct{ typ, id, src string }{
		{"markdown", "07-demo-00", "# Demo\n\nSome *prose*."},
		{"code", "07-demo-01", SetupCell},
		{"code", "07-demo-02", "func f() int { return 2 }"},
		{"markdown", "07-demo-03", "More."},
		{"code", "07-demo-04", "%%\nfmt.Println(f())"},
	} {
		c := cells[i]
		if CellType(c) != want.typ || c["id"] != want.id || CellSource(c) != want.src {
			t.Errorf("cell %d = %s %v %q; want %s %s %q", i, CellType(c), c["id"], CellSource(c), want.typ, want.id, want.src)
		}
	}
	// Sources are stored as Jupyter stores them: one string per line.
	if got, want := cells[0]["source"], []any{"# Demo\n", "\n", "Some *prose*."}; !reflect.DeepEqual(got, want) {
		t.Errorf("markdown source = %q; want %q", got, want)
	}
	text := string(a)
	for _, want := range []string{`"execution_count": null`, `"outputs": []`, `"name": "gonb"`, `"nbformat_minor": 5`} {
		if !strings.Contains(text, want) {
			t.Errorf("encoded notebook lacks %s", want)
		}
	}
	if !strings.HasSuffix(text, "}\n") {
		t.Error("encoded notebook does not end with a newline")
	}
}

func TestCellIDLimits(t *testing.T) {
	id := cellID(strings.Repeat("a", 80), 3)
	if len(id) != 64 || !strings.HasSuffix(id, "-03") {
		t.Errorf("cellID of a long slug = %q (%d chars); want 64 chars ending in -03", id, len(id))
	}
}

// TestEncodeAsJupyter checks that a notebook written by Python's nbformat
// (what JupyterLab saves) is re-encoded byte for byte: non-ASCII, HTML
// characters, key order and indentation as Jupyter writes them, so that a
// regenerated notebook differs from a saved one only where cells differ.
func TestEncodeAsJupyter(t *testing.T) {
	want, err := os.ReadFile("testdata/nbformat.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ParseNotebook(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := nb.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("re-encoded notebook differs from nbformat's:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseNotebookRejects(t *testing.T) {
	for _, data := range []string{"", "{", `{"metadata": {}}`, `[1, 2]`} {
		if _, err := ParseNotebook([]byte(data)); err == nil {
			t.Errorf("ParseNotebook(%q) = nil error; want 'not a notebook'", data)
		}
	}
}

// executedCopy returns nb as Jupyter would after running it: outputs and
// counts in code cells, plus metadata that must not reach the committed file.
func executedCopy(t *testing.T, nb Notebook, stdout string) Notebook {
	t.Helper()
	data, _ := nb.Encode()
	ex, err := ParseNotebook(data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range ex.Cells() {
		c["metadata"] = map[string]any{"execution": map[string]any{"iopub.status.busy": "2026-01-01T00:00:00Z"}}
		if CellType(c) == "code" {
			n++
			c["execution_count"] = json.Number(string(rune('0' + n)))
			c["outputs"] = []any{map[string]any{"name": "stdout", "output_type": "stream", "text": []any{stdout}}}
		}
	}
	ex["metadata"].(map[string]any)["language_info"] = map[string]any{"name": "go", "version": "go9.9"}
	return ex
}

func TestWithOutputs(t *testing.T) {
	gen := NewNotebook(testLesson(t, demoLesson))
	out, err := WithOutputs(gen, executedCopy(t, gen, "2\n"))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := out.Encode()
	text := string(data)
	if strings.Contains(text, "iopub") {
		t.Error("merged notebook carries Jupyter's execution timings")
	}
	// The kernel's language_info is kept: front ends write it on opening.
	info, _ := notebookMetadata(out)["language_info"].(map[string]any)
	if got := info["version"]; got != "go9.9" {
		t.Errorf("language_info version = %v; want the kernel's go9.9", got)
	}
	if _, ok := notebookMetadata(gen)["language_info"].(map[string]any)["version"]; ok {
		t.Error("WithOutputs changed gen's metadata")
	}
	cells := out.Cells()
	if got := cells[4]["execution_count"]; got != json.Number("3") {
		t.Errorf("last cell's execution_count = %v; want 3", got)
	}
	if got := joinText(CellOutputs(cells[4])[0]["text"]); got != "2\n" {
		t.Errorf("last cell's output = %q; want %q", got, "2\n")
	}
	if _, ok := cells[0]["outputs"]; ok {
		t.Error("a markdown cell got outputs")
	}
	// The generated notebook itself is left unexecuted.
	if gen.Cells()[4]["execution_count"] != nil {
		t.Error("WithOutputs changed its gen argument")
	}

	other := NewNotebook(testLesson(t, strings.Replace(demoLesson, "return 2", "return 3", 1)))
	if _, err := WithOutputs(gen, executedCopy(t, other, "3\n")); err == nil {
		t.Error("WithOutputs accepted an executed notebook with other sources")
	}
}

func TestKernelEnv(t *testing.T) {
	e := &Executor{Root: "/repo", Backend: "go"}
	t.Setenv("GOMLX_BACKEND", "xla:cpu")
	t.Setenv("GOFLAGS", "-buildvcs=false")
	t.Setenv("PATH", "/usr/bin")
	t.Setenv("JPY_SESSION_NAME", "/repo/notebooks/02-sinusoidal.ipynb") // run from a notebook's shell escape
	got := map[string]string{}
	for _, kv := range e.kernelEnv() {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("kernelEnv sets %s twice", k)
		}
		got[k] = v
	}
	if got["COURSE_GRADE_STATE"] != "off" {
		t.Errorf("COURSE_GRADE_STATE = %q; want off (grading cells must not depend on earlier runs)", got["COURSE_GRADE_STATE"])
	}
	if got["GOMLX_BACKEND"] != "go" {
		t.Errorf("GOMLX_BACKEND = %q; want go", got["GOMLX_BACKEND"])
	}
	if got["GOFLAGS"] != "-buildvcs=false -ldflags=-s" {
		t.Errorf("GOFLAGS = %q; want the environment's plus -ldflags=-s", got["GOFLAGS"])
	}
	if _, ok := got["JPY_SESSION_NAME"]; ok {
		t.Error("kernelEnv keeps JPY_SESSION_NAME: the notebooks' controls would wait for a page")
	}
	if strings.Contains(got["PATH"], "/repo") || !strings.HasSuffix(got["PATH"], "/usr/bin") {
		t.Errorf("PATH = %q; want the environment's last and nothing from the checkout", got["PATH"])
	}

	t.Setenv("GOFLAGS", "-ldflags=-X=a.b=c")
	e.Backend = ""
	got = map[string]string{}
	for _, kv := range e.kernelEnv() {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	if got["GOFLAGS"] != "-ldflags=-X=a.b=c" || got["GOMLX_BACKEND"] != "xla:cpu" {
		t.Errorf("GOFLAGS, GOMLX_BACKEND = %q, %q; want the environment's kept", got["GOFLAGS"], got["GOMLX_BACKEND"])
	}
}
