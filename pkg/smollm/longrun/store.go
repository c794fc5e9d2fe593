package longrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// NLLCell is one text scored under one method: the NLL of every position.
type NLLCell struct {
	Text       string     `json:"text"`
	Method     string     `json:"method"`
	Scaling    string     `json:"scaling"` // the posenc.Scaling, printed
	Tokens     int        `json:"tokens"`
	NLL        []float32  `json:"nll"` // −log p(token i+1 | tokens ≤ i), rounded to 1e-4 nats
	Mean       float64    `json:"mean"`
	Seconds    float64    `json:"seconds"`
	Provenance Provenance `json:"provenance"`
}

// PasskeyTrial is one passkey trial under one method.
type PasskeyTrial struct {
	Method    string  `json:"method"`
	Length    int     `json:"length"` // asked
	Tokens    int     `json:"tokens"` // the prompt's, answer included
	Depth     float64 `json:"depth"`
	Trial     int     `json:"trial"`
	Key       int     `json:"key"`
	NeedleAt  int     `json:"needle_at"`
	Pass      bool    `json:"pass"`
	Correct   int     `json:"correct"` // answer tokens right under teacher forcing
	Answer    int     `json:"answer_tokens"`
	Greedy    []int   `json:"greedy"`
	AnswerNLL float64 `json:"answer_nll"`
	// Seconds is the trial's own time: from the needle on where the
	// engine shares the part before it between trials (PrefixSharer).
	Seconds    float64    `json:"seconds"`
	Provenance Provenance `json:"provenance"`
}

// PrefixRun is the run of the part before the needle that the passkey
// trials of one method, length and depth share (PrefixSharer): its time
// counts toward the run's, though no trial's Seconds holds it.
type PrefixRun struct {
	Method   string  `json:"method"`
	Length   int     `json:"length"`
	Depth    float64 `json:"depth"`
	NeedleAt int     `json:"needle_at"`
	// Tokens is how many tokens of the NeedleAt before the needle ran
	// once (the whole chunks); each trial runs the rest.
	Tokens     int        `json:"tokens"`
	Seconds    float64    `json:"seconds"`
	Provenance Provenance `json:"provenance"`
}

// Store is a results folder: nll/TEXT.METHOD.json, passkey/METHOD/
// len-L.depth-D.trial-T.json, prefixes/METHOD.len-L.depth-D.json,
// runs.json, summary.json and summary.md.
type Store struct{ Dir string }

func (s Store) nllPath(text, method string) string {
	return filepath.Join(s.Dir, "nll", text+"."+method+".json")
}

func (s Store) passkeyPath(method string, length int, depth float64, trial int) string {
	return filepath.Join(s.Dir, "passkey", method, fmt.Sprintf("len-%05d.depth-%.2f.trial-%02d.json", length, depth, trial))
}

func (s Store) prefixPath(method string, length int, depth float64) string {
	return filepath.Join(s.Dir, "prefixes", fmt.Sprintf("%s.len-%05d.depth-%.2f.json", method, length, depth))
}

// has reports whether the cell at path is done.
func has(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// writeJSON writes v to path at once: to a temporary file, then renamed,
// so that an interrupted run never leaves half a cell that a re-run would
// skip.
func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("longrun: %s: %w", path, err)
	}
	return nil
}

// round4 rounds to 1e-4, which keeps the files a third of their size.
func round4(xs []float32) []float32 {
	out := make([]float32, len(xs))
	for i, x := range xs {
		out[i] = float32(math.Round(float64(x)*1e4) / 1e4)
	}
	return out
}

// NLLCells returns every NLL cell in the store, by text then method.
func (s Store) NLLCells() ([]NLLCell, error) { return readAll[NLLCell](filepath.Join(s.Dir, "nll")) }

// PrefixRuns returns every shared prefix's record in the store.
func (s Store) PrefixRuns() ([]PrefixRun, error) {
	return readAll[PrefixRun](filepath.Join(s.Dir, "prefixes"))
}

// readAll reads every JSON file of dir, in the order of their names.
func readAll[T any](dir string) ([]T, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(paths)
	var out []T
	for _, p := range paths {
		var v T
		if err := readJSON(p, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// PasskeyTrials returns every passkey trial in the store.
func (s Store) PasskeyTrials() ([]PasskeyTrial, error) {
	var trials []PasskeyTrial
	err := filepath.WalkDir(filepath.Join(s.Dir, "passkey"), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fs.SkipAll
		}
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		var t PasskeyTrial
		if err := readJSON(p, &t); err != nil {
			return err
		}
		trials = append(trials, t)
		return nil
	})
	return trials, err
}

// RunRecord is one invocation of the run: its provenance and how it ended.
type RunRecord struct {
	Provenance
	Config      Config     `json:"config"`
	CellsRun    int        `json:"cells_run"`
	CellsKept   int        `json:"cells_kept"` // found on disk, skipped
	WallSeconds float64    `json:"wall_seconds"`
	LoadAfter   [3]float64 `json:"load_after"`
	PeakRSSMiB  float64    `json:"peak_rss_mib"`
}

// Runs returns the runs recorded in runs.json.
func (s Store) Runs() ([]RunRecord, error) {
	var runs []RunRecord
	err := readJSON(filepath.Join(s.Dir, "runs.json"), &runs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return runs, err
}

// startRun appends r to runs.json and returns its index there.
func (s Store) startRun(r RunRecord) (int, error) {
	runs, err := s.Runs()
	if err != nil {
		return 0, err
	}
	return len(runs), writeJSON(filepath.Join(s.Dir, "runs.json"), append(runs, r))
}

// putRun replaces the record at index of runs.json with r.
func (s Store) putRun(index int, r RunRecord) error {
	runs, err := s.Runs()
	if err != nil {
		return err
	}
	if index < 0 || index >= len(runs) {
		return fmt.Errorf("longrun: runs.json holds %d runs, none at index %d", len(runs), index)
	}
	runs[index] = r
	return writeJSON(filepath.Join(s.Dir, "runs.json"), runs)
}

func writeText(path, text string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
