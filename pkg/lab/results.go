package lab

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
)

// Results is what a lab run writes (results.json): how it ran, and every
// number it measured.
type Results struct {
	Command     string      `json:"command"` // the command line that made it
	Config      Config      `json:"config"`
	Code        CodeVersion `json:"code"`
	Environment Environment `json:"environment"`
	Started     string      `json:"started"` // RFC 3339
	WallSeconds float64     `json:"wall_seconds"`
	Runs        []Run       `json:"runs"`
}

// CodeVersion says which code made the results: the git commit, and whether
// any of ResultFiles differed from it.
type CodeVersion struct {
	Commit string `json:"commit"`
	Dirty  bool   `json:"dirty"`
}

// ResultFiles are the files, relative to the repository root, whose code
// decides the lab's numbers: a change to any of them after a run makes its
// results stale (figures, summaries and the progress bar do not count).
var ResultFiles = []string{
	"pkg/lab/checkpoint.go", "pkg/lab/config.go", "pkg/lab/corpus.go", "pkg/lab/corpus/go-docs.txt",
	"pkg/lab/data.go", "pkg/lab/eval.go", "pkg/lab/model.go", "pkg/lab/passkey.go",
	"pkg/lab/run.go", "pkg/lab/train.go", "pkg/lab/vocab.go",
}

// CurrentCode returns the commit checked out in the git repository at dir,
// and whether any of ResultFiles has uncommitted changes. Outside a git
// checkout it returns an empty commit.
func CurrentCode(dir string) CodeVersion {
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return CodeVersion{}
	}
	status, err := git(append([]string{"status", "--porcelain", "--"}, ResultFiles...)...)
	return CodeVersion{Commit: commit, Dirty: err != nil || status != ""}
}

// Environment describes the machine and backend.
type Environment struct {
	Backend      string     `json:"backend"` // GoMLX backend configuration
	GoVersion    string     `json:"go_version"`
	GOEXPERIMENT string     `json:"goexperiment"`
	CPU          string     `json:"cpu"`
	Cores        int        `json:"cores"`
	LoadBefore   [3]float64 `json:"load_before"` // /proc/loadavg at the start
	LoadAfter    [3]float64 `json:"load_after"`
	PeakRSSMiB   float64    `json:"peak_rss_mib"`
}

// Run is one trained model, or a trained RoPE model evaluated with a
// scaling method, or fine-tuned.
type Run struct {
	Name        string      `json:"name"` // "rope", "rope+pi", "rope+pi-finetune", …
	Encoding    Encoding    `json:"encoding"`
	Scaling     string      `json:"scaling,omitempty"` // how the RoPE frequencies were scaled, per length
	Train       *TrainStats `json:"train,omitempty"`   // nil for an evaluation-only run
	EvalSeconds float64     `json:"eval_seconds"`
	Lengths     []Length    `json:"lengths"`
	Passkey     []PasskeyAt `json:"passkey"`
}

// Length is the validation loss at one evaluation length.
type Length struct {
	Multiple int  `json:"multiple"` // of L
	Length   int  `json:"length"`
	Defined  bool `json:"defined"` // false: the model has no positions this far (learned)
	// Mean is the loss averaged over every position and window (nats per
	// character); PerPosition the average over windows at each position.
	Mean        float64   `json:"mean"`
	PerPosition []float64 `json:"per_position,omitempty"`
	Factor      float64   `json:"factor,omitempty"` // the scaling factor used at this length
}

// PasskeyAt is the passkey accuracy at one distance.
type PasskeyAt struct {
	Distance int     `json:"distance"`
	Length   int     `json:"length"` // the sequence length it was evaluated on
	Defined  bool    `json:"defined"`
	Accuracy float64 `json:"accuracy"`
}

// ReadResults reads a results file.
func ReadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("lab: %s: %w", path, err)
	}
	return &r, nil
}

// Write writes r as indented JSON to path.
func (r *Results) Write(path string) error {
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Run returns the run named name.
func (r *Results) Run(name string) (*Run, error) {
	for i := range r.Runs {
		if r.Runs[i].Name == name {
			return &r.Runs[i], nil
		}
	}
	return nil, fmt.Errorf("lab: results have no run %q", name)
}

// Loss returns the mean loss at multiple·L, and whether it is defined.
func (run *Run) Loss(multiple int) (float64, bool) {
	for _, l := range run.Lengths {
		if l.Multiple == multiple {
			return l.Mean, l.Defined
		}
	}
	return math.NaN(), false
}

// Accuracy returns the passkey accuracy at distance d, and whether it is
// defined.
func (run *Run) Accuracy(d int) (float64, bool) {
	for _, p := range run.Passkey {
		if p.Distance == d {
			return p.Accuracy, p.Defined
		}
	}
	return math.NaN(), false
}

// UsableContext returns the longest distance at which run's passkey
// accuracy is at least threshold, with every shorter distance also at
// least threshold; 0 if even the shortest fails.
func (run *Run) UsableContext(threshold float64) int {
	usable := 0
	for _, p := range run.Passkey {
		if !p.Defined || p.Accuracy < threshold {
			break
		}
		usable = p.Distance
	}
	return usable
}

// round4 rounds v to 4 decimals, to keep results files small and diffs
// readable.
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
