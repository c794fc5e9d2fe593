package lab

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
)

// Results is what a lab run writes (results.json): how it ran, its
// configuration, and every number it measured, per model and seed.
type Results struct {
	Provenance Provenance `json:"provenance"`
	Config     Config     `json:"config"`
	Baselines  Baselines  `json:"baselines"`
	Runs       []Run      `json:"runs"`
}

// Provenance says which code, command and machine made the results.
type Provenance struct {
	Command     string     `json:"command"`
	Commit      string     `json:"commit"`
	Dirty       bool       `json:"dirty"` // a file that decides the numbers differed from the commit
	Backend     string     `json:"backend"`
	GoVersion   string     `json:"go_version"`
	CPU         string     `json:"cpu"`
	Cores       int        `json:"cores"`
	LoadBefore  [3]float64 `json:"load_before"`
	LoadAfter   [3]float64 `json:"load_after"`
	PeakRSSMiB  float64    `json:"peak_rss_mib"`
	Started     string     `json:"started"` // RFC 3339
	WallSeconds float64    `json:"wall_seconds"`
}

// Run is one trained model and seed, or a trained RoPE model evaluated
// with a scaling method, or fine-tuned.
type Run struct {
	Name        string       `json:"name"` // "rope", "rope+pi", "rope+pi-finetune", …
	Encoding    Encoding     `json:"encoding"`
	Seed        int64        `json:"seed"`
	Scaling     string       `json:"scaling,omitempty"` // how the RoPE frequencies were scaled, per length
	Train       *TrainStats  `json:"train,omitempty"`   // nil for an evaluation-only run
	EvalSeconds float64      `json:"eval_seconds"`
	Lengths     []Length     `json:"lengths"`
	Recall      []RecallCell `json:"recall"`
}

// Length is the validation loss at one evaluation length.
type Length struct {
	Multiple int  `json:"multiple"` // of L
	Length   int  `json:"length"`
	Defined  bool `json:"defined"` // false: the model has no positions this far (learned)
	// Mean is the loss (nats per character) on the last L targets of every
	// window: the same characters at every length. PerPosition is the mean
	// over windows at each position.
	Mean        float64   `json:"mean"`
	PerPosition []float64 `json:"per_position,omitempty"`
	Factor      float64   `json:"factor,omitempty"` // the scaling factor used at this length
}

// RecallCell is recall at one length and depth: Correct of N probes.
type RecallCell struct {
	Multiple int     `json:"multiple"`
	Length   int     `json:"length"`
	Depth    float64 `json:"depth"`
	Distance int     `json:"distance"` // from the probed value to the query
	Defined  bool    `json:"defined"`
	Correct  int     `json:"correct"`
	N        int     `json:"n"`
	// Kind says which probes (revision 2): "" the depth probes, "single"
	// the probed pair alone, "distractors" the sweep over Pairs−1 other
	// pairs, "first" the pair at the first token. Pairs is the number of
	// pairs in each probe, Outcomes which probes the model answered.
	Kind     string   `json:"kind,omitempty"`
	Pairs    int      `json:"pairs,omitempty"`
	Outcomes Outcomes `json:"outcomes,omitempty"`
}

// The kinds of recall probes (RecallCell.Kind).
const (
	ProbeDepth       = ""            // ProbePairs pairs, the probed one at each depth
	ProbeSingle      = "single"      // the probed pair alone, at each depth
	ProbeDistractors = "distractors" // at SweepDepth, with each number of other pairs
	ProbeFirst       = "first"       // the probed pair at the first token
)

// Outcomes says which of a cell's probes a model answered, probe i in bit
// i%8 of byte i/8; in JSON a hexadecimal string (128 probes: 32 digits).
type Outcomes []byte

// NewOutcomes packs answered into Outcomes.
func NewOutcomes(answered []bool) Outcomes {
	o := make(Outcomes, (len(answered)+7)/8)
	for i, a := range answered {
		if a {
			o[i/8] |= 1 << (i % 8)
		}
	}
	return o
}

// Bools unpacks the first n outcomes.
func (o Outcomes) Bools(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = i/8 < len(o) && o[i/8]&(1<<(i%8)) != 0
	}
	return out
}

// MarshalText writes o in hexadecimal.
func (o Outcomes) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(o)), nil }

// UnmarshalText reads o from hexadecimal.
func (o *Outcomes) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	if err != nil {
		return fmt.Errorf("lab: recall outcomes: %w", err)
	}
	*o = v
	return nil
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

// Names returns the run names, in the order first run.
func (r *Results) Names() []string {
	var names []string
	for _, run := range r.Runs {
		if !slices.Contains(names, run.Name) {
			names = append(names, run.Name)
		}
	}
	return names
}

// Seeds returns the runs named name, one per seed, in seed order; an error
// names the missing run.
func (r *Results) Seeds(name string) ([]*Run, error) {
	var runs []*Run
	for i := range r.Runs {
		if r.Runs[i].Name == name {
			runs = append(runs, &r.Runs[i])
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("lab: results have no run %q (have %v)", name, r.Names())
	}
	slices.SortFunc(runs, func(a, b *Run) int { return cmp.Compare(a.Seed, b.Seed) }) // not a.Seed − b.Seed: it overflows
	return runs, nil
}

// Loss returns the loss of name at multiple·L for every seed, and whether
// it is defined.
func (r *Results) Loss(name string, multiple int) ([]float64, bool, error) {
	runs, err := r.Seeds(name)
	if err != nil {
		return nil, false, err
	}
	var out []float64
	for _, run := range runs {
		l, ok := run.length(multiple)
		if !ok {
			return nil, false, fmt.Errorf("lab: run %q has no length %d×L", name, multiple)
		}
		if !l.Defined {
			return nil, false, nil
		}
		out = append(out, l.Mean)
	}
	return out, true, nil
}

// PerPosition returns the loss by position of name at multiple·L, the mean
// over seeds.
func (r *Results) PerPosition(name string, multiple int) ([]float64, error) {
	runs, err := r.Seeds(name)
	if err != nil {
		return nil, err
	}
	var mean []float64
	for _, run := range runs {
		l, ok := run.length(multiple)
		if !ok || !l.Defined {
			return nil, fmt.Errorf("lab: run %q has no loss at %d×L", name, multiple)
		}
		if mean == nil {
			mean = make([]float64, len(l.PerPosition))
		}
		for p, v := range l.PerPosition {
			mean[p] += v / float64(len(runs))
		}
	}
	return mean, nil
}

// RecallStat is recall pooled over seeds at one length and depth.
type RecallStat struct {
	Defined          bool
	Distance         int
	Correct, N       int       // pooled over seeds
	Rate, Lo, Hi     float64   // Correct/N and its 95% Wilson interval
	PerSeed          []float64 // each seed's rate
	SeedMin, SeedMax float64
}

// Overlaps reports whether s's and o's 95% Wilson intervals meet: at these
// numbers of probes the two rates cannot be ranked, a tie.
func (s RecallStat) Overlaps(o RecallStat) bool { return s.Lo <= o.Hi && o.Lo <= s.Hi }

// RecallAt returns the recall of name at multiple·L and depth.
func (r *Results) RecallAt(name string, multiple int, depth float64) (RecallStat, error) {
	runs, err := r.Seeds(name)
	if err != nil {
		return RecallStat{}, err
	}
	s := RecallStat{Defined: true, SeedMin: math.Inf(1), SeedMax: math.Inf(-1)}
	for _, run := range runs {
		i := slices.IndexFunc(run.Recall, func(c RecallCell) bool {
			return c.Kind == ProbeDepth && c.Multiple == multiple && c.Depth == depth
		})
		if i < 0 {
			return RecallStat{}, fmt.Errorf("lab: run %q has no recall at %d×L, depth %g", name, multiple, depth)
		}
		c := run.Recall[i]
		s.Distance = c.Distance
		if !c.Defined {
			return RecallStat{Distance: c.Distance}, nil
		}
		s.Correct, s.N = s.Correct+c.Correct, s.N+c.N
		rate := float64(c.Correct) / float64(c.N)
		s.PerSeed = append(s.PerSeed, rate)
		s.SeedMin, s.SeedMax = math.Min(s.SeedMin, rate), math.Max(s.SeedMax, rate)
	}
	s.Rate = float64(s.Correct) / float64(s.N)
	s.Lo, s.Hi = Wilson(s.Correct, s.N)
	return s, nil
}

// RecallOutcomes returns, for each seed of name, the outcomes of the
// probes of the first recall cell match accepts: one row per seed, in
// seed order, the same probes in every row. An error names a run without
// such a cell, or without outcomes (results of revision 1).
func (r *Results) RecallOutcomes(name string, match func(RecallCell) bool) ([][]bool, error) {
	runs, err := r.Seeds(name)
	if err != nil {
		return nil, err
	}
	var out [][]bool
	for _, run := range runs {
		i := slices.IndexFunc(run.Recall, match)
		if i < 0 {
			return nil, fmt.Errorf("lab: run %q, seed %d, has no such recall cell", name, run.Seed)
		}
		c := run.Recall[i]
		if !c.Defined || len(c.Outcomes) == 0 {
			return nil, fmt.Errorf("lab: run %q, seed %d: no outcomes at %d×L, depth %g (%q)", name, run.Seed, c.Multiple, c.Depth, c.Kind)
		}
		out = append(out, c.Outcomes.Bools(c.N))
	}
	return out, nil
}

// Cell returns a matcher of recall cells for RecallOutcomes: kind at
// multiple·L, depth and pairs (pairs 0: any).
func Cell(kind string, multiple int, depth float64, pairs int) func(RecallCell) bool {
	return func(c RecallCell) bool {
		return c.Kind == kind && c.Multiple == multiple && c.Depth == depth && (pairs == 0 || c.Pairs == pairs)
	}
}

func (run *Run) length(multiple int) (Length, bool) {
	for _, l := range run.Lengths {
		if l.Multiple == multiple {
			return l, true
		}
	}
	return Length{}, false
}

// round4 rounds v to 4 decimals, to keep results files small and diffs
// readable.
func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
