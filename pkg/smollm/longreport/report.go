// Package longreport reads the committed long run of SmolLM2-135M
// (model/results, written by make model-results and pkg/smollm/longrun)
// for lesson 11, part 2: the NLL of each method over a range of
// positions, with its spread over the texts; paired differences between
// two methods on the same tokens, with a moving-block bootstrap; the
// passkey grid with Wilson intervals and McNemar's exact test on the same
// prompts; and the figures, in the colours lesson 8 gives the same
// methods.
//
// It reads; it never runs the model. Nothing here decides the numbers of
// the cells (longrun.ResultPaths), only how they are summarised.
package longreport

import (
	"fmt"
	"slices"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/smollm/longrun"
)

// Report is a long run read from disk: every NLL cell and passkey trial
// found, whether or not the run is complete.
type Report struct {
	Config longrun.Config
	Runs   []longrun.RunRecord
	// NLL holds, per method and text, −log p(token i+1 | tokens ≤ i) at
	// index i: the loss of predicting position i+1.
	NLL    map[string]map[string][]float32
	Cells  []longrun.NLLCell
	Trials []longrun.PasskeyTrial
	// Prefixes are the parts before the needle that the passkey trials of
	// a method, length and depth shared, run once.
	Prefixes []longrun.PrefixRun
}

// Read reads the long run in dir (model/results) as made with
// longrun.DefaultConfig.
func Read(dir string) (*Report, error) {
	store := longrun.Store{Dir: dir}
	cells, err := store.NLLCells()
	if err != nil {
		return nil, err
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("longreport: no NLL cells in %s (make model-results writes them)", dir)
	}
	trials, err := store.PasskeyTrials()
	if err != nil {
		return nil, err
	}
	runs, err := store.Runs()
	if err != nil {
		return nil, err
	}
	prefixes, err := store.PrefixRuns()
	if err != nil {
		return nil, err
	}
	r := &Report{Config: longrun.DefaultConfig(), Runs: runs, NLL: map[string]map[string][]float32{}, Cells: cells, Trials: trials, Prefixes: prefixes}
	for _, c := range cells {
		if r.NLL[c.Method] == nil {
			r.NLL[c.Method] = map[string][]float32{}
		}
		r.NLL[c.Method][c.Text] = c.NLL
	}
	return r, nil
}

// Methods returns the methods with an NLL cell for every text, in the
// order of longrun.Methods.
func (r *Report) Methods() []string {
	var names []string
	for _, m := range longrun.Methods(r.Config.Factor, r.Config.OriginalLen) {
		if len(r.NLL[m.Name]) == len(r.Config.Texts) {
			names = append(names, m.Name)
		}
	}
	return names
}

// CompleteNLL reports whether every method has an NLL cell for every text.
func (r *Report) CompleteNLL() bool {
	return len(r.Methods()) == len(longrun.Methods(r.Config.Factor, r.Config.OriginalLen))
}

// losses returns a text's losses of predicting positions from … to−1
// under method: NLL[max(from, 1)−1 … to−2], as longrun.Summarize reads
// them (position 0 is not predicted).
func (r *Report) losses(method, text string, from, to int) ([]float32, error) {
	byText, ok := r.NLL[method]
	if !ok {
		return nil, fmt.Errorf("longreport: no NLL cells of method %q (have %v)", method, r.Methods())
	}
	nll, ok := byText[text]
	if !ok {
		return nil, fmt.Errorf("longreport: method %q has no cell for text %q", method, text)
	}
	if from < 0 || to > len(nll)+1 || max(from, 1) >= to {
		return nil, fmt.Errorf("longreport: positions %d to %d, want a range inside 1 … %d", from, to, len(nll)+1)
	}
	return nll[max(from, 1)-1 : to-1], nil
}

// TextNLL returns a text's mean NLL over positions from … to−1 under
// method.
func (r *Report) TextNLL(method, text string, from, to int) (float64, error) {
	xs, err := r.losses(method, text, from, to)
	if err != nil {
		return 0, err
	}
	return mean32(xs), nil
}

// RangeNLL returns method's mean NLL over positions from … to−1 for each
// text, summarised over the texts (the mean of the texts' means, and
// their smallest and largest).
func (r *Report) RangeNLL(method string, from, to int) (lab.Spread, error) {
	var xs []float64
	for _, text := range r.Config.Texts {
		v, err := r.TextNLL(method, text, from, to)
		if err != nil {
			return lab.Spread{}, err
		}
		xs = append(xs, v)
	}
	return lab.SpreadOf(xs), nil
}

// Ranges returns the position ranges of the run's NLL table, [e₀, e₁), … .
func (r *Report) Ranges() [][2]int {
	var rs [][2]int
	for i := 0; i+1 < len(r.Config.RangeEdges); i++ {
		rs = append(rs, [2]int{r.Config.RangeEdges[i], r.Config.RangeEdges[i+1]})
	}
	return rs
}

// Time returns the seconds the cells on disk took, as each recorded its
// own: the NLL cells, the passkey trials (each from where its shared
// prefix ended) and the shared prefixes. It is the run's time, whatever
// sittings it was split over, as longrun.Summary's Time counts it.
func (r *Report) Time() longrun.CellTime {
	var t longrun.CellTime
	for _, c := range r.Cells {
		t.NLL += c.Seconds
	}
	for _, tr := range r.Trials {
		t.Passkey += tr.Seconds
	}
	for _, p := range r.Prefixes {
		t.Prefixes += p.Seconds
	}
	return t
}

func mean32(xs []float32) float64 {
	s := 0.0
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

// hasMethod reports whether name is one of the run's methods.
func (r *Report) hasMethod(name string) bool {
	return slices.ContainsFunc(longrun.Methods(r.Config.Factor, r.Config.OriginalLen), func(m longrun.Method) bool { return m.Name == name })
}
