package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// gonbVersions are the GoNB releases whose real outputs are in testdata:
// v0.11.3, which the course installed before, is what a learner who has not
// rerun scripts/install.sh still has.
var gonbVersions = []string{"v0.11.3", "v0.11.5"}

// gonbOutputs returns the last executed cell of small notebooks run through
// Jupyter with GoNB version (testdata/gonb-VERSION-outputs.json): real outputs
// of a panic, an os.Exit(3), a compile error, a failed lesson.Check, and a
// clean cell; v0.11.5's also of a log.Fatalf. v0.11.5's were captured by
// copying testdata/gonb-lessons/*.md into lessons/ and running
// go run ./cmd/course -keep run 91 92 93 94 95 96 with that kernel, then
// taking each executed notebook's last cell, with the temporary folder's path
// replaced by /tmp/ and the checkout's by /tmp/ft/.
func gonbOutputs(t *testing.T, version string) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/gonb-" + version + "-outputs.json")
	if err != nil {
		t.Fatal(err)
	}
	var cells map[string]map[string]any
	if err := json.Unmarshal(data, &cells); err != nil {
		t.Fatal(err)
	}
	return cells
}

func stream(name, text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": name, "text": text}
}

func cellWith(outputs ...map[string]any) map[string]any {
	outs := make([]any, len(outputs))
	for i, o := range outputs {
		outs[i] = o
	}
	return map[string]any{"cell_type": "code", "outputs": outs}
}

type cellFailureTest struct {
	name     string
	cell     map[string]any
	wantKind string   // "" for no failure
	wantMsg  []string // substrings of the message
	notMsg   []string
}

// gonbFailureTests are the cases on version's real outputs.
func gonbFailureTests(t *testing.T, version string) []cellFailureTest {
	real := gonbOutputs(t, version)
	compileMsg := `Cell[3]: Line 2 ./main.go:13:13:  cannot use "s" (untyped string constant) as int value`
	tests := []cellFailureTest{
		{name: "panic", cell: real["91-panic"], wantKind: "panic",
			wantMsg: []string{"panic: assignment to entry in nil map", "main.go:13", "exit status 2"}},
		{name: "os.Exit(3)", cell: real["92-exit"], wantKind: "exit", wantMsg: []string{"exit status 3"}},
		{name: "compile error", cell: real["93-compile"], wantKind: "error",
			wantMsg: []string{compileMsg, "go build"},
			notMsg:  []string{"<span", "flag.Parse()", "# gonb_", ".gonb-err-location"}},
		{name: "failed lesson.Check", cell: real["95-check"], wantKind: "panic",
			wantMsg: []string{"lesson check failed: PE(1)[0] = 0.8415, but the text says 0.9"}},
		{name: "clean cell", cell: real["96-ok"]},
	}
	if version == "v0.11.3" {
		return tests
	}
	// From v0.11.4 GoNB reports a non-zero exit as an error and maps the
	// stack trace's lines to the cell's in an HTML box; its compile error
	// report has one space less.
	tests[0].wantMsg = append(tests[0].wantMsg, "Cell[3]: Line 3 /tmp/gonb_d6d29b7b/main.go:13 +0x67")
	tests[0].notMsg = []string{"ERROR:", "<span", "flag.Parse()"}
	tests[1].notMsg = []string{"ERROR:"}
	tests[2].wantMsg[0] = strings.Replace(compileMsg, ":  ", ": ", 1)
	tests[3].wantMsg = append(tests[3].wantMsg, "Cell[3]: Line 2 ")
	return append(tests, cellFailureTest{name: "log.Fatalf", cell: real["94-fatal"], wantKind: "exit",
		wantMsg: []string{"bad input: 1\nexit status 1"}, notMsg: []string{"ERROR:"}})
}

func TestCellFailure(t *testing.T) {
	for _, version := range gonbVersions {
		t.Run("GoNB "+version, func(t *testing.T) { testCellFailure(t, gonbFailureTests(t, version)) })
	}
	testCellFailure(t, []cellFailureTest{
		{name: "stderr that is not a failure", cell: cellWith(stream("stderr", "posenc: backend go: GOMLX_BACKEND is set\n"), stream("stdout", "exit status is fine mid-line\n"))},
		{name: "killed", cell: cellWith(stream("stdout", "working\n"), stream("stderr", "signal: killed\n")), wantKind: "exit", wantMsg: []string{"signal: killed"}},
		{name: "error without HTML", cell: cellWith(map[string]any{"output_type": "error", "ename": "ERROR", "evalue": "x", "traceback": []any{"special command failed"}}),
			wantKind: "error", wantMsg: []string{"special command failed"}},
		{name: "exit status error without stderr", cell: cellWith(map[string]any{"output_type": "error", "ename": "ERROR", "evalue": "exit status 4", "traceback": []any{"exit status 4"}}),
			wantKind: "exit", wantMsg: []string{"exit status 4"}},
	})
}

func testCellFailure(t *testing.T, tests []cellFailureTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := CellFailure(tt.cell)
			if tt.wantKind == "" {
				if f != nil {
					t.Fatalf("CellFailure = %+v; want none", f)
				}
				return
			}
			if f == nil {
				t.Fatalf("CellFailure = nil; want a %s", tt.wantKind)
			}
			if f.Kind != tt.wantKind {
				t.Errorf("Kind = %q; want %q", f.Kind, tt.wantKind)
			}
			for _, w := range tt.wantMsg {
				if !strings.Contains(f.Message, w) {
					t.Errorf("Message:\n%s\nwant it to contain %q", f.Message, w)
				}
			}
			for _, w := range tt.notMsg {
				if strings.Contains(f.Message, w) {
					t.Errorf("Message:\n%s\nshould not contain %q", f.Message, w)
				}
			}
			if strings.Contains(f.Message, "\x1b[") {
				t.Errorf("Message keeps terminal colour codes: %q", f.Message)
			}
		})
	}
}

func TestFailuresNameCellAndLine(t *testing.T) {
	l := testLesson(t, demoLesson)
	gen := NewNotebook(l)
	ex := executedCopy(t, gen, "2\n")
	ex.Cells()[4]["outputs"] = []any{stream("stderr", "panic: boom\n\nexit status 2\n")}
	fs := Failures(l, ex)
	if len(fs) != 1 {
		t.Fatalf("Failures = %+v; want 1", fs)
	}
	got := fs[0].Where("notebooks/07-demo.ipynb", "lessons/07-demo.md")
	if want := "notebooks/07-demo.ipynb: cell 5 (lessons/07-demo.md line 12)"; got != want {
		t.Errorf("Where = %q; want %q", got, want)
	}
	setup := Failure{Cell: 2}
	if got := setup.Where("nb", "l"); !strings.Contains(got, "the setup cell") {
		t.Errorf("Where for the setup cell = %q; want it named", got)
	}
}

func TestPlainTrims(t *testing.T) {
	long := strings.Repeat("line\n", 40)
	got := plain(long)
	if n := strings.Count(got, "\n"); n != maxMsgLines {
		t.Errorf("plain kept %d line breaks; want %d", n, maxMsgLines)
	}
	if !strings.Contains(got, "(28 more lines)") {
		t.Errorf("plain = %q; want a count of the lines left out", got)
	}
	if got := plain(strings.Repeat("x", 500)); len(got) > maxLineBytes+4 {
		t.Errorf("plain left a %d-byte line", len(got))
	}
}

func TestCoalesceStreams(t *testing.T) {
	outs := []any{
		stream("stderr", "panic: "), stream("stderr", "boom\n"), stream("stdout", "a\n"), stream("stdout", "b"),
		map[string]any{"output_type": "display_data", "data": map[string]any{}},
		stream("stdout", "c\n"),
	}
	got := coalesceStreams(outs)
	if len(got) != 4 {
		t.Fatalf("coalesceStreams gave %d outputs; want 4: %v", len(got), got)
	}
	for i, want := range []string{"panic: boom\n", "a\nb", "", "c\n"} {
		m := got[i].(map[string]any)
		if m["output_type"] == "stream" && joinText(m["text"]) != want {
			t.Errorf("output %d text = %q; want %q", i, joinText(m["text"]), want)
		}
	}
	// The originals are not modified.
	if outs[0].(map[string]any)["text"] != "panic: " {
		t.Error("coalesceStreams modified its input")
	}
}

// TestExecutorStopsWhereGoSeesFailure checks that the embedded executor
// script's quick check (which stops execution at a broken cell) agrees with
// CellFailure on GoNB's real outputs. It needs a python3.
func TestExecutorStopsWhereGoSeesFailure(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	for _, version := range gonbVersions {
		script := `import json, sys
sys.path.insert(0, ".")
from execute import quick_failure
cells = json.load(open(sys.argv[1]))
print(json.dumps({k: quick_failure(v) for k, v in cells.items()}))`
		// -B: no __pycache__ in the source tree
		cmd := exec.Command(py, "-B", "-c", script, "testdata/gonb-"+version+"-outputs.json")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3: %v", err)
		}
		var stops map[string]bool
		if err := json.Unmarshal(out, &stops); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for name, cell := range gonbOutputs(t, version) {
			if want := CellFailure(cell) != nil; stops[name] != want {
				t.Errorf("GoNB %s, %s: execute.py stops = %v; CellFailure says failed = %v", version, name, stops[name], want)
			}
		}
	}
}
