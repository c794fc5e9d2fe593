package cells

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cpuSeconds is this process's user and system time so far, from
// /proc/self/stat (clock ticks of 1/100 s; 0 where there is no /proc): with
// the wall time it says what an experiment would take on idle cores.
func cpuSeconds() float64 {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndex(s, ")")+2:]) // after the command name: state is field 3
	if len(fields) < 13 {
		return 0
	}
	user, _ := strconv.ParseFloat(fields[11], 64)
	sys, _ := strconv.ParseFloat(fields[12], 64)
	return (user + sys) / 100
}

// root is the repository root, from this package's folder.
const root = "../../.."

// each lists every experiment, run for its source alone.
var each = []struct {
	name string
	run  func(l *Lab) (Source, error)
}{
	{"layout", func(l *Lab) (Source, error) { _, s, err := l.Layout(); return s, err }},
	{"relative", func(l *Lab) (Source, error) { _, s, err := l.Relative(); return s, err }},
	{"padding", func(l *Lab) (Source, error) { _, s, err := l.Padding(); return s, err }},
	{"packing", func(l *Lab) (Source, error) { _, s, err := l.Packing(); return s, err }},
	{"probe", func(l *Lab) (Source, error) { _, s, err := l.Probe(); return s, err }},
	{"precision", func(l *Lab) (Source, error) { _, s, err := l.Precision(); return s, err }},
	{"generate", func(l *Lab) (Source, error) { _, s, err := l.Generate(); return s, err }},
	{"stale-cache", func(l *Lab) (Source, error) { _, s, err := l.StaleCache(); return s, err }},
	{"short-prompt", func(l *Lab) (Source, error) { _, s, err := l.ShortPrompt(); return s, err }},
}

// TestRecords checks, without the model, what a notebook on the pure-Go
// backend shows: every experiment has a record, made on XLA by the record
// command from committed code, with the parameters the code states now.
// (Whether the numbers still follow from the code is for a live run:
// TestLive, and the notebook on XLA in make test.)
func TestRecords(t *testing.T) {
	l := &Lab{why: "a test"}
	names := map[string]bool{}
	for _, e := range each {
		names[e.name+".json"] = true
		src, err := e.run(l)
		if err != nil {
			t.Errorf("%s: %v", e.name, err)
			continue
		}
		p := src.Recorded.Provenance
		if src.Live || src.Recorded.Name != e.name {
			t.Errorf("%s: live %t, record named %q", e.name, src.Live, src.Recorded.Name)
		}
		if p.Command != RecordCommand || p.Commit == "" || p.Dirty || !strings.HasPrefix(p.Backend, "xla") {
			t.Errorf("%s: recorded by %q at commit %q (uncommitted changes: %t) on %q; want %s, committed code, on XLA", e.name, p.Command, p.Commit, p.Dirty, p.Backend, RecordCommand)
		}
		if s := src.String(); !strings.Contains(s, "Committed result") || !strings.Contains(s, "pure-Go") && !strings.Contains(s, "a test") {
			t.Errorf("%s: source line %q", e.name, s)
		}
	}
	files, err := recordFiles.ReadDir("records")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !names[f.Name()] {
			t.Errorf("records/%s belongs to no experiment", f.Name())
		}
	}
}

// TestDiffers checks the comparison of a live result with its record.
func TestDiffers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want string // a part of the difference; "" for none
	}{
		{`{"x":3.0385,"y":[1,2]}`, `{"x":3.0386,"y":[1,2]}`, ""},
		{`{"x":6.5e-5}`, `{"x":9e-5}`, ""},
		{`{"x":3.0385}`, `{"x":3.1}`, "result.x"},
		{`{"y":[1,2]}`, `{"y":[1,3]}`, "result.y[1]"},
		{`{"y":[1,2]}`, `{"y":[1]}`, "2 items"},
		{`{"s":"Paris"}`, `{"s":"Lyon"}`, "result.s"},
		{`{"s":"Paris"}`, `{"t":"Paris"}`, "result.s"},
	} {
		got := differs([]byte(c.a), []byte(c.b))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("differs(%s, %s) = %q; want %q", c.a, c.b, got, c.want)
		}
	}
}

// TestLive runs every experiment on XLA, each in a subtest of its name,
// and compares it with its record (make model-cells); with CELLS_RECORD=1
// it rewrites the records. It skips
// on the pure-Go backend, where the experiments take many minutes.
func TestLive(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the experiments load the model several times")
	}
	l := Open()
	if l.why != "" {
		if os.Getenv("CI") != "" && onXLA() {
			t.Fatalf("CI on XLA cannot run the experiments: %s", l.why)
		}
		t.Skipf("not live: %s", l.why)
	}
	if prov := NewRecordProvenance(root); recording() && (prov.Dirty || prov.Commit == "") {
		t.Fatalf("CELLS_RECORD=1 with uncommitted changes to the code that decides the numbers: commit first")
	}
	for _, e := range each {
		t.Run(e.name, func(t *testing.T) {
			prov := NewRecordProvenance(root) // the load as this experiment starts
			cpu := cpuSeconds()
			src, err := e.run(l)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%.1f s wall, %.1f s of CPU, at load %.1f", src.Seconds, cpuSeconds()-cpu, prov.Load[0])
			if !recording() {
				if src.Stale != nil {
					t.Error(src.Stale)
				}
				return
			}
			rec := src.Recorded
			rec.Provenance = prov
			b, err := json.MarshalIndent(rec, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("records", e.name+".json"), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMemo checks that a kept result is found only for the same parameters
// and token ids.
func TestMemo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "smollm-cells-x.json")
	writeMemo(file, Record{Name: "x", Params: []byte(`{"tokens":128}`), InputHash: "abc", Result: []byte(`{"nll":3.75}`), Seconds: 2})
	if m, ok := readMemo(file, []byte(`{ "tokens": 128 }`), "abc"); !ok || string(m.Result) != `{"nll":3.75}` || m.Seconds != 2 {
		t.Errorf("the kept result was not found: %+v, %t", m, ok)
	}
	if _, ok := readMemo(file, []byte(`{"tokens":64}`), "abc"); ok {
		t.Error("a result kept for other parameters was found")
	}
	if _, ok := readMemo(file, []byte(`{"tokens":128}`), "abd"); ok {
		t.Error("a result kept for other token ids was found")
	}
	if _, ok := readMemo(filepath.Join(t.TempDir(), "none.json"), []byte(`{}`), ""); ok {
		t.Error("a missing file gave a result")
	}
}
