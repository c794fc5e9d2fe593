package longrun

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/posenc/course/pkg/lab"
)

// RangeRow is one method's mean NLL over a position range, with its spread
// over the texts.
type RangeRow struct {
	Method string       `json:"method"`
	From   int          `json:"from"`
	To     int          `json:"to"` // exclusive
	Spread lab.Spread   `json:"spread"`
	ByText []TextResult `json:"by_text"`
}

// TextResult is one text's mean NLL over a range.
type TextResult struct {
	Text string  `json:"text"`
	NLL  float64 `json:"nll"`
}

// PasskeyCell is the pass rate of one method at one length and depth.
type PasskeyCell struct {
	Method string  `json:"method"`
	Length int     `json:"length"`
	Depth  float64 `json:"depth"`
	Passed int     `json:"passed"`
	Trials int     `json:"trials"`
	Lo     float64 `json:"wilson_lo"` // 95% Wilson interval of the pass rate
	Hi     float64 `json:"wilson_hi"`
}

// Summary is what summary.json holds: the tables, from the cells on disk.
type Summary struct {
	Config  Config        `json:"config"`
	NLL     []RangeRow    `json:"nll_by_range"`
	Passkey []PasskeyCell `json:"passkey"`
	Time    CellTime      `json:"time"`
	Runs    []RunRecord   `json:"runs"`
}

// CellTime is the time the cells on disk took, in seconds: the run's own
// measure of its cost, whatever sittings it took (a sitting's wall time
// also holds its start and whatever it found done).
type CellTime struct {
	NLL      float64 `json:"nll"`
	Passkey  float64 `json:"passkey"`  // the trials, each from the needle on where a prefix was shared
	Prefixes float64 `json:"prefixes"` // the shared prefixes (PrefixRun)
}

// Total is the time of every cell.
func (t CellTime) Total() float64 { return t.NLL + t.Passkey + t.Prefixes }

// Summarize builds the tables from the cells in store. The NLL of
// position i is the loss of predicting token i from tokens 0 … i−1, so a
// range [a, b) averages the predictions at positions max(a, 1) … b−1.
func Summarize(store Store, c Config) (Summary, error) {
	s := Summary{Config: c}
	cells, err := store.NLLCells()
	if err != nil {
		return s, err
	}
	for _, cell := range cells {
		s.Time.NLL += cell.Seconds
	}
	for _, m := range Methods(c.Factor, c.OriginalLen) {
		for r := 0; r+1 < len(c.RangeEdges); r++ {
			row := RangeRow{Method: m.Name, From: c.RangeEdges[r], To: c.RangeEdges[r+1]}
			var xs []float64
			for _, cell := range cells {
				if cell.Method != m.Name {
					continue
				}
				// nll[j] predicts token j+1: positions a … b−1 are nll[a−1 … b−2].
				lo, hi := max(row.From, 1)-1, min(row.To, cell.Tokens)-1
				if hi <= lo {
					continue
				}
				v := mean32(cell.NLL[lo:hi])
				row.ByText = append(row.ByText, TextResult{cell.Text, v})
				xs = append(xs, v)
			}
			if len(xs) > 0 {
				row.Spread = lab.SpreadOf(xs)
				s.NLL = append(s.NLL, row)
			}
		}
	}
	trials, err := store.PasskeyTrials()
	if err != nil {
		return s, err
	}
	type key struct {
		m string
		n int
		d float64
	}
	prefixes, err := store.PrefixRuns()
	if err != nil {
		return s, err
	}
	for _, p := range prefixes {
		s.Time.Prefixes += p.Seconds
	}
	agg := map[key]*PasskeyCell{}
	for _, t := range trials {
		s.Time.Passkey += t.Seconds
		k := key{t.Method, t.Length, t.Depth}
		if agg[k] == nil {
			agg[k] = &PasskeyCell{Method: t.Method, Length: t.Length, Depth: t.Depth}
		}
		agg[k].Trials++
		if t.Pass {
			agg[k].Passed++
		}
	}
	for _, cell := range agg {
		cell.Lo, cell.Hi = lab.Wilson(cell.Passed, cell.Trials)
		s.Passkey = append(s.Passkey, *cell)
	}
	sort.Slice(s.Passkey, func(i, j int) bool {
		a, b := s.Passkey[i], s.Passkey[j]
		if a.Method != b.Method {
			return a.Method < b.Method
		}
		if a.Length != b.Length {
			return a.Length < b.Length
		}
		return a.Depth < b.Depth
	})
	s.Runs, err = store.Runs()
	return s, err
}

// WriteSummary writes summary.json and summary.md from the cells in store.
func WriteSummary(store Store, c Config) error {
	s, err := Summarize(store, c)
	if err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(store.Dir, "summary.json"), s); err != nil {
		return err
	}
	return writeText(filepath.Join(store.Dir, "summary.md"), s.Markdown())
}

// Markdown returns the tables as markdown.
func (s Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# SmolLM2-135M past its trained length (%d positions), factor %g\n\n", s.Config.OriginalLen, s.Config.Factor)
	b.WriteString("## NLL by position range (nats/token): mean over texts [min, max]\n\n| method |")
	edges := s.Config.RangeEdges
	for r := 0; r+1 < len(edges); r++ {
		fmt.Fprintf(&b, " %d–%d |", edges[r], edges[r+1])
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(edges)-1) + "\n")
	for _, m := range Methods(s.Config.Factor, s.Config.OriginalLen) {
		fmt.Fprintf(&b, "| %s |", m.Name)
		for r := 0; r+1 < len(edges); r++ {
			cellText := " – |"
			for _, row := range s.NLL {
				if row.Method == m.Name && row.From == edges[r] {
					cellText = fmt.Sprintf(" %.3f [%.3f, %.3f] |", row.Spread.Mean, row.Spread.Min, row.Spread.Max)
				}
			}
			b.WriteString(cellText)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## Passkey retrieval: passed/trials (95% Wilson interval)\n\n| method | length | depth | passed | interval |\n|---|---|---|---|---|\n")
	for _, c := range s.Passkey {
		fmt.Fprintf(&b, "| %s | %d | %.2f | %d/%d | [%.2f, %.2f] |\n", c.Method, c.Length, c.Depth, c.Passed, c.Trials, c.Lo, c.Hi)
	}
	wall := 0.0
	for _, r := range s.Runs {
		wall += r.WallSeconds
	}
	t := s.Time
	fmt.Fprintf(&b, "\nThe cells took %.1f min: %.1f min of NLL, %.1f min of passkey trials and %.1f min of shared prefixes.\n",
		t.Total()/60, t.NLL/60, t.Passkey/60, t.Prefixes/60)
	if len(s.Runs) > 0 {
		last := s.Runs[len(s.Runs)-1]
		fmt.Fprintf(&b, "\n%d run(s), %.0f s in all; last: `%s` at %s on %s, %s (%d cores), load %.1f before and %.1f after.\n",
			len(s.Runs), wall, last.Command, short(last.Commit), last.Backend, last.CPU, last.Cores, last.Load[0], last.LoadAfter[0])
	}
	return b.String()
}

func short(commit string) string {
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}
