// Package cells runs the experiments of lesson 11's live cells on
// SmolLM2-135M (pkg/smollm's experiments.go), or, where they cannot run in
// a cell's time, shows the result committed from a run on XLA.
//
// On XLA's CPU plugin each experiment takes seconds; the pure-Go backend
// takes about 100 s per 512 tokens, minutes per cell. So a cell runs live
// only when the notebook's backend is XLA and the model is downloaded;
// otherwise it returns the committed record (records/NAME.json, embedded)
// and a Source that says where the numbers came from and why they were not
// computed here. The output of a cell on the pure-Go backend is therefore
// the same on every machine, which the headless and browser checks of the
// committed notebook rely on.
//
// A live run also compares its result with the record (Source.Stale), so
// that make test, which runs the notebooks on XLA, fails when the code
// that decides the numbers has moved away from what the notebook shows.
// make model-cells runs every experiment on XLA and compares; with
// CELLS_RECORD=1 it rewrites the records.
package cells

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gomlx/compute"

	"github.com/posenc/course/pkg/lab/report"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
	"github.com/posenc/course/pkg/smollm/longrun"
)

// recordFiles are the committed results, one file per experiment.
//
//go:embed records/*.json
var recordFiles embed.FS

// RecordCommand is the command that writes the records.
const RecordCommand = "make model-cells CELLS_RECORD=1"

// CodePaths are the git pathspecs of the code that decides the records'
// numbers: those of the long run, the experiments and this package.
var CodePaths = append(append([]string(nil), longrun.ResultPaths...),
	"pkg/smollm/experiments.go", "pkg/smollm/tokenizer.go", "pkg/smollm/cells",
	":(exclude)pkg/smollm/cells/records/**")

// Record is one experiment's committed result.
type Record struct {
	Name       string             `json:"name"`
	Params     json.RawMessage    `json:"params"`    // the experiment's inputs, as the code states them
	InputHash  string             `json:"input_fnv"` // FNV-1a of the token ids run: the tokenizer's part
	Result     json.RawMessage    `json:"result"`
	Seconds    float64            `json:"seconds"` // the experiment's wall time (load in the provenance)
	Provenance longrun.Provenance `json:"provenance"`
}

// Source says where a cell's numbers came from.
type Source struct {
	Live     bool    // computed now, on this kernel's backend
	Seconds  float64 // how long that took (live), or took when recorded
	Why      string  // why the committed record is shown (not live)
	Recorded Record  // the committed record (its Result aside)
	// Stale is set by a live run whose result differs from the committed
	// record beyond float32 noise: the notebook and the code disagree.
	Stale error
}

// String is the line a cell prints above its numbers.
func (s Source) String() string {
	p := s.Recorded.Provenance
	when := strings.SplitN(p.Started, "T", 2)[0]
	if s.Live {
		return fmt.Sprintf("Ran live on %s in %.1f s.", backendName(), s.Seconds)
	}
	return fmt.Sprintf("Committed result (%s, commit %s, %s, %.0f s at load %.1f on %d cores), not run here: %s.",
		p.Backend, short(p.Commit), when, s.Recorded.Seconds, p.Load[0], p.Cores, s.Why)
}

func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}

// Lab holds what the experiments need: the backend, the model and the
// token ids of the lesson's passage. Without XLA or without the model it
// holds only the reason, and every experiment returns its record.
type Lab struct {
	backend compute.Backend
	weights *smollm.Weights
	tok     smollm.Tokenizer
	ids     []int32 // the passage: PassageTokens tokens of Passage
	why     string  // why the experiments are not run live; "" when they are
	model   string  // the model's status, one line
	path    string  // the GGUF file
	loadErr error
}

// Passage is where the lesson's text starts: Newton's Opticks (the long
// run's texts/opticks.txt, public domain), the first paragraph of its
// first advertisement.
const Passage = "Part of the ensuing Discourse about Light"

// PassageTokens is how many tokens of Passage the experiments use at most.
const PassageTokens = 192

// goBackendWhy says why a cell on the pure-Go backend shows the record;
// goBackendStatus says it at length, once.
const (
	goBackendWhy    = "the pure-Go backend would take minutes (make xla, then restart the kernel, to run it live)"
	goBackendStatus = "this kernel runs the pure-Go backend, which needs about 100 s per 512 tokens of SmolLM2; " +
		"install XLA's CPU plugin (make xla) and restart the kernel to run them live in seconds"
)

// Open returns the lesson's lab. It never fails and reads nothing yet:
// what stops the experiments from running live (no XLA, no model) is
// kept, and each experiment then returns its committed record; the model
// is read by the first experiment that runs live.
func Open() *Lab {
	l := &Lab{}
	var err error
	l.path, err = smollm.Find()
	if err != nil {
		l.model = "SmolLM2-135M-Instruct is not downloaded: run make model (98 MB, once) to run this lesson's cells live"
		l.why = "the model is not downloaded (make model)"
	} else {
		l.model = "SmolLM2-135M-Instruct is downloaded (make model)"
	}
	if !onXLA() {
		l.why = goBackendWhy // the backend first: without XLA the model would not help
	}
	return l
}

// loadText reads the tokenizer and tokenizes the passage, once: enough to
// find a result an earlier cell kept.
func (l *Lab) loadText() error {
	if l.tok != nil || l.loadErr != nil {
		return l.loadErr
	}
	var tok smollm.Tokenizer
	if tok, l.loadErr = smollm.LoadTokenizer(l.path); l.loadErr == nil {
		l.ids, l.loadErr = passageIDs(tok)
	}
	if l.loadErr == nil {
		l.tok = tok
	}
	return l.loadErr
}

// loadWeights reads and dequantizes the model, once, for a run.
func (l *Lab) loadWeights() error {
	if l.weights != nil || l.loadErr != nil {
		return l.loadErr
	}
	if l.weights, l.loadErr = smollm.Load(l.path); l.loadErr == nil {
		l.backend = posgraph.Backend()
	}
	return l.loadErr
}

// Status is the line the lesson's first cell prints: is the model there,
// and will the cells run live.
func (l *Lab) Status() string {
	if l.why == "" {
		return l.model + "; the cells run live on " + backendName() + "."
	}
	why := l.why
	if why == goBackendWhy {
		why = goBackendStatus
	}
	return l.model + ". The cells show their committed results: " + why + "."
}

// onXLA reports whether the notebook's backend is XLA's (ChooseBackend's
// choice, which BackendSummary prints).
func onXLA() bool {
	config, _ := posgraph.ChooseBackend()
	return config == "xla" || strings.HasPrefix(config, "xla:") || strings.HasPrefix(config, "xla,")
}

func backendName() string {
	config, _ := posgraph.ChooseBackend()
	return config
}

// passageIDs tokenizes PassageTokens tokens of Opticks from Passage on.
func passageIDs(tok smollm.Tokenizer) ([]int32, error) {
	text, err := longrun.LoadText("opticks")
	if err != nil {
		return nil, err
	}
	i := strings.Index(text.Body, Passage)
	if i < 0 {
		return nil, fmt.Errorf("cells: %q not found in opticks.txt", Passage)
	}
	end := min(len(text.Body), i+4*PassageTokens*8) // far more characters than tokens needed
	ids, err := tok.Encode(text.Body[i:end])
	if err != nil {
		return nil, err
	}
	if len(ids) < PassageTokens {
		return nil, fmt.Errorf("cells: the passage has %d tokens, want %d", len(ids), PassageTokens)
	}
	return ids[:PassageTokens], nil
}

// hashIDs is the FNV-1a hash of ids, in hex.
func hashIDs(ids []int32) string {
	h := fnv.New64a()
	for _, id := range ids {
		fmt.Fprintf(h, "%d,", id)
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// LoadRecord returns the committed record called name.
func LoadRecord(name string) (Record, error) {
	b, err := recordFiles.ReadFile(path.Join("records", name+".json"))
	if err != nil {
		return Record{}, fmt.Errorf("cells: no committed record of %q (%s on XLA writes it)", name, RecordCommand)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, fmt.Errorf("cells: records/%s.json: %w", name, err)
	}
	return r, nil
}

// experiment runs one experiment live, or returns its record: name names
// the record, params are the inputs (they must equal the record's), input
// the token ids it runs (live only), and do computes the result.
func experiment[T any](l *Lab, name string, params any, input func() []int32, do func() (T, error)) (T, Source, error) {
	var zero T
	want, err := json.Marshal(params)
	if err != nil {
		return zero, Source{}, err
	}
	rec, recErr := LoadRecord(name)
	src := Source{Recorded: rec, Why: l.why}
	if recErr == nil && !jsonEqual(rec.Params, want) {
		recErr = fmt.Errorf("cells: the record of %q has parameters %s, the code %s: re-record with %s", name, rec.Params, want, RecordCommand)
	}
	if l.why != "" {
		if recErr != nil {
			return zero, src, recErr
		}
		var v T
		if err := json.Unmarshal(rec.Result, &v); err != nil {
			return zero, src, fmt.Errorf("cells: records/%s.json: %w", name, err)
		}
		src.Seconds = rec.Seconds
		return v, src, nil
	}
	if err := l.loadText(); err != nil {
		return zero, src, err
	}
	memo := memoPath(name)
	var v T
	if m, ok := readMemo(memo, want, hashIDs(input())); ok && json.Unmarshal(m.Result, &v) == nil {
		src.Live, src.Seconds = true, m.Seconds // run by an earlier cell of this kernel
	} else {
		if err := l.loadWeights(); err != nil {
			return zero, src, err
		}
		t0 := time.Now()
		if v, err = do(); err != nil {
			return zero, src, err
		}
		src.Live, src.Seconds = true, time.Since(t0).Seconds()
	}
	got, err := json.Marshal(v)
	if err != nil {
		return zero, src, err
	}
	switch {
	case recErr != nil:
		src.Stale = recErr
	case rec.InputHash != hashIDs(input()):
		src.Stale = fmt.Errorf("cells: %q ran other token ids than its record (the tokenizer or the text changed): re-record with %s", name, RecordCommand)
	default:
		if d := differs(rec.Result, got); d != "" {
			src.Stale = fmt.Errorf("cells: %q differs from its committed record at %s: re-record with %s", name, d, RecordCommand)
		}
	}
	run := Record{Name: name, Params: want, InputHash: hashIDs(input()), Result: got, Seconds: src.Seconds}
	writeMemo(memo, run)
	if recording() {
		src.Recorded = run
	}
	return v, src, nil
}

// memoPath is where a live result is kept for the later cells of the same
// kernel: the folder of the running program, which GoNB makes per kernel
// (and go test per test binary), so that a check cell reads what the cell
// before it ran instead of running it again; the folder goes with the
// kernel.
func memoPath(name string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(exe), "smollm-cells-"+name+".json")
}

// readMemo returns the result kept at file when it was run with the same
// parameters and token ids.
func readMemo(file string, params []byte, input string) (Record, bool) {
	var m Record
	b, err := os.ReadFile(file)
	if file == "" || err != nil || json.Unmarshal(b, &m) != nil {
		return m, false
	}
	return m, jsonEqual(m.Params, params) && m.InputHash == input
}

// writeMemo keeps r for readMemo; failing to is no error (the next cell
// runs the experiment again).
func writeMemo(file string, r Record) {
	if b, err := json.Marshal(r); err == nil && file != "" {
		_ = os.WriteFile(file, b, 0o600)
	}
}

// recording reports whether this process rewrites the records
// (CELLS_RECORD=1, make model-cells).
func recording() bool { return os.Getenv("CELLS_RECORD") == "1" }

func jsonEqual(a, b []byte) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// differs returns where two JSON results differ beyond float32 noise
// (|a−b| ≤ 2e-3 + 2e-3·|a|: the XLA builds and CPUs a record may come
// from), or "" when they agree. Strings and the shape must match exactly.
func differs(a, b []byte) string {
	var x, y any
	if err := errors.Join(json.Unmarshal(a, &x), json.Unmarshal(b, &y)); err != nil {
		return err.Error()
	}
	return walk("result", x, y)
}

func walk(at string, x, y any) string {
	switch xv := x.(type) {
	case float64:
		yv, ok := y.(float64)
		if !ok || math.Abs(xv-yv) > 2e-3+2e-3*math.Abs(xv) {
			return fmt.Sprintf("%s (%v, now %v)", at, x, y)
		}
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return fmt.Sprintf("%s (%d items, now %v)", at, len(xv), y)
		}
		for i := range xv {
			if d := walk(fmt.Sprintf("%s[%d]", at, i), xv[i], yv[i]); d != "" {
				return d
			}
		}
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			return fmt.Sprintf("%s (fields differ)", at)
		}
		for k := range xv {
			if d := walk(at+"."+k, xv[k], yv[k]); d != "" {
				return d
			}
		}
	default:
		if fmt.Sprint(x) != fmt.Sprint(y) {
			return fmt.Sprintf("%s (%v, now %v)", at, x, y)
		}
	}
	return ""
}

// NewRecordProvenance is the provenance of records written now, in the
// repository at root, on this process's backend.
func NewRecordProvenance(root string) longrun.Provenance {
	p := longrun.NewProvenance(RecordCommand, root, backendName())
	p.Commit, p.Dirty = report.CodeState(root, CodePaths)
	return p
}
