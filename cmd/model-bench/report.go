package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/posenc/course/internal/machine"
)

// results is everything one run measured; it is also the JSON file.
type results struct {
	Command     string      `json:"command"`
	Commit      string      `json:"commit"`
	Dirty       bool        `json:"dirty"` // uncommitted changes to what decides the numbers (benchCode)
	Note        string      `json:"note,omitempty"`
	Started     string      `json:"started"`
	WallSeconds float64     `json:"wall_seconds"`
	Machine     machineInfo `json:"machine"`
	Threads     int         `json:"threads"`
	Rounds      int         `json:"rounds"`
	Repeat      int         `json:"repeat"`
	Model       string      `json:"model"`
	TokenIDs    string      `json:"token_ids"`
	Method      string      `json:"method"`
	Sides       []sideInfo  `json:"sides"`
	Rows        []row       `json:"rows"`
	Goal        string      `json:"goal"`
	GoalMet     *bool       `json:"goal_met,omitempty"`

	start time.Time
}

type machineInfo struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	Kernel     string `json:"kernel,omitempty"`
	GoVersion  string `json:"go_version"`
	LoadBefore string `json:"load_before"`
	LoadAfter  string `json:"load_after"`
}

// sideInfo is one side as its processes described themselves.
type sideInfo struct {
	Side        string    `json:"side"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	LoadSeconds []float64 `json:"load_seconds"` // reading the weights, one per process
}

// row is one task on every side that ran it.
type row struct {
	Task  string           `json:"task"`
	Label string           `json:"label"`
	Timed int              `json:"timed_tokens"`
	Cells map[string]*cell `json:"sides"`
	// Ratios of tokens/s (of minimum times), against PyTorch.
	XLAOverTorch float64 `json:"xla_over_torch,omitempty"`
	GoOverTorch  float64 `json:"go_over_torch,omitempty"`
	// XLAOverTorchByRound pairs the sides round by round: in each round,
	// XLA's process's minimum against the better of PyTorch's two
	// processes' minima, as a ratio of tokens/s. The machine's speed
	// drifts from minute to minute, and a pair measured minutes apart
	// shares more of it than two minima over the whole run do.
	XLAOverTorchByRound []float64 `json:"xla_over_torch_by_round,omitempty"`
}

// pairedText sums up the paired ratios: their median, their range and in
// how many rounds XLA was ahead ("–" when there are none).
func (rw row) pairedText() string {
	ps := rw.XLAOverTorchByRound
	if len(ps) == 0 {
		return "–"
	}
	ahead := 0
	for _, p := range ps {
		if p >= 1 {
			ahead++
		}
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f×), ahead in %d of %d", median(ps), slices.Min(ps), slices.Max(ps), ahead, len(ps))
}

// median is the middle of xs, or the mean of the two middle values.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// goalPrefills are the prompt lengths the goal is judged on: the prefill
// sizes the real-model issue names (512 and 2,048 tokens). The other
// prefill rows (128 tokens) are measured and printed the same way, but a
// prompt that short spends most of its time in the matrix products, XLA's
// dot library against PyTorch's, which no code of this course runs
// (docs/performance.md, "Short prompts").
var goalPrefills = []int{512, 2048}

// cell is one side's figures for one task.
type cell struct {
	Seconds         []float64 `json:"seconds"`        // every timed run, all processes
	WarmupSeconds   []float64 `json:"warmup_seconds"` // each process's untimed first run (GoMLX: compiling)
	MinSeconds      float64   `json:"min_seconds"`
	TokensPerSecond float64   `json:"tokens_per_second"` // timed tokens / MinSeconds
	PeakRSSMiB      float64   `json:"peak_rss_mib"`      // the largest over processes
	PeakIsTask      bool      `json:"peak_is_task"`      // reset before the task (else since the process started)
	// PyTorch's minimum with each OMP_WAIT_POLICY ("default": unset); its
	// MinSeconds is the better one.
	ByOMPWaitPolicy map[string]float64 `json:"min_seconds_by_omp_wait_policy,omitempty"`
}

// benchCode is what decides the numbers: a change to it after a run makes
// the run's JSON stale.
var benchCode = []string{"cmd/model-bench", "scripts/model/model_bench_torch.py", "scripts/model/requirements.txt", "pkg/cpuattention",
	"pkg/smollm", "pkg/gguf", "pkg/bpe", "pkg/posgraph", "pkg/posenc", "go.mod", "go.sum"}

func newResults(c config, model string) *results {
	r := &results{
		Command: strings.TrimSpace("go run ./cmd/model-bench " + strings.Join(c.args, " ")),
		Note:    c.note, Threads: c.threads, Rounds: c.rounds, Repeat: c.repeat,
		Model: filepath.Base(model) + ", dequantized to float32 (make model)",
		TokenIDs: "pkg/lab/corpus/go-docs.txt from its start, tokenized by pkg/bpe from the GGUF's vocabulary; " +
			"the same ids on every side",
		Method: "each side in processes of its own, the sides' order alternating by round; per process each task " +
			"once untimed, then repeat times timed; a side's figure is its minimum time over all runs; " +
			"paired: in each round, XLA's minimum against PyTorch's (the better of its two processes)",
		Goal: "GoMLX on XLA CPU at least 1.0× PyTorch's tokens/s on prefill at 512 and 2,048 tokens, " +
			"both as a ratio of minima and as the median of the rounds' paired ratios",
		start:   time.Now(),
		Started: time.Now().UTC().Format(time.RFC3339),
		Machine: machineInfo{CPU: machine.CPUModel(), Cores: runtime.NumCPU(), GoVersion: runtime.Version(), LoadBefore: machine.LoadText()},
	}
	if out, err := exec.Command("uname", "-sr").Output(); err == nil {
		r.Machine.Kernel = strings.TrimSpace(string(out))
	}
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		r.Commit = strings.TrimSpace(string(out))
		st, err := exec.Command("git", append([]string{"status", "--porcelain", "--"}, benchCode...)...).Output()
		r.Dirty = err != nil || len(st) > 0
	}
	return r
}

// finish gathers the processes' results into rows.
func (r *results) finish(c config, byRound map[string][]sideResult) {
	r.Machine.LoadAfter = machine.LoadText()
	r.WallSeconds = math.Round(time.Since(r.start).Seconds())
	for _, side := range c.sides {
		runs := byRound[side]
		if len(runs) == 0 {
			continue
		}
		info := sideInfo{Side: side, Name: sideNames[side]}
		var descriptions []string
		for _, sr := range runs {
			info.LoadSeconds = append(info.LoadSeconds, sr.LoadSeconds)
			if !slices.Contains(descriptions, sr.Description) {
				descriptions = append(descriptions, sr.Description)
			}
		}
		info.Description = strings.Join(descriptions, " | ")
		r.Sides = append(r.Sides, info)
	}
	var order []task
	for _, t := range append(slices.Clone(c.tasks), c.goTasks...) {
		if !slices.Contains(order, t) {
			order = append(order, t)
		}
	}
	for _, t := range order {
		rw := row{Task: t.String(), Label: t.label(), Timed: t.timed(), Cells: map[string]*cell{}}
		for side, runs := range byRound {
			for _, sr := range runs {
				for _, tr := range sr.Tasks {
					if tr.Task != rw.Task {
						continue
					}
					cl := rw.Cells[side]
					if cl == nil {
						cl = &cell{PeakIsTask: true}
						rw.Cells[side] = cl
					}
					cl.Seconds = append(cl.Seconds, tr.Seconds...)
					if tr.WarmupSeconds != nil {
						cl.WarmupSeconds = append(cl.WarmupSeconds, *tr.WarmupSeconds)
					}
					cl.PeakRSSMiB = max(cl.PeakRSSMiB, tr.PeakRSSMiB)
					cl.PeakIsTask = cl.PeakIsTask && tr.PeakIsTask
					if side == sideTorch {
						policy := cmp.Or(sr.OMPWaitPolicy, "default")
						if cl.ByOMPWaitPolicy == nil {
							cl.ByOMPWaitPolicy = map[string]float64{}
						}
						if m, ok := cl.ByOMPWaitPolicy[policy]; !ok || slices.Min(tr.Seconds) < m {
							cl.ByOMPWaitPolicy[policy] = slices.Min(tr.Seconds)
						}
					}
				}
			}
		}
		if len(rw.Cells) == 0 {
			continue // no side that ran ran this task
		}
		for _, cl := range rw.Cells {
			cl.MinSeconds = slices.Min(cl.Seconds)
			cl.TokensPerSecond = float64(rw.Timed) / cl.MinSeconds
		}
		// No ratio for a memory task: one run, GoMLX's with compiling.
		if torch := rw.Cells[sideTorch]; torch != nil && t.Kind != "memory" {
			if x := rw.Cells[sideXLA]; x != nil {
				rw.XLAOverTorch = x.TokensPerSecond / torch.TokensPerSecond
				rw.XLAOverTorchByRound = pairedRatios(rw.Task, byRound[sideXLA], byRound[sideTorch])
				if t.Kind == "prefill" && slices.Contains(goalPrefills, t.Prompt) {
					paired := len(rw.XLAOverTorchByRound) > 0 && median(rw.XLAOverTorchByRound) >= 1
					met := rw.XLAOverTorch >= 1 && paired && (r.GoalMet == nil || *r.GoalMet)
					r.GoalMet = &met
				}
			}
			if g := rw.Cells[sideGo]; g != nil {
				rw.GoOverTorch = g.TokensPerSecond / torch.TokensPerSecond
			}
		}
		r.Rows = append(r.Rows, rw)
	}
}

// pairedRatios returns, for each round in which both sides ran task, the
// ratio of tokens/s of XLA's minimum in that round to PyTorch's (the better
// of its processes in that round), in the order of the rounds.
func pairedRatios(task string, xla, torch []sideResult) []float64 {
	minimum := func(runs []sideResult) map[int]float64 {
		m := map[int]float64{}
		for _, sr := range runs {
			for _, tr := range sr.Tasks {
				if tr.Task != task || len(tr.Seconds) == 0 {
					continue
				}
				if old, ok := m[sr.Round]; !ok || slices.Min(tr.Seconds) < old {
					m[sr.Round] = slices.Min(tr.Seconds)
				}
			}
		}
		return m
	}
	x, p := minimum(xla), minimum(torch)
	var out []float64
	for _, round := range slices.Sorted(maps.Keys(x)) {
		if t, ok := p[round]; ok {
			out = append(out, t/x[round]) // tokens/s: the inverse of the times
		}
	}
	return out
}

// printTable writes the table: tokens/s of each side, the ratios to
// PyTorch, and each side's peak memory; memory rows give seconds and MiB.
func printTable(w io.Writer, r *results) {
	fmt.Fprintf(w, "\nSmolLM2-135M-Instruct, float32 on the CPU, %d threads: tokens/s, the best of %d processes × %d runs "+
		"(PyTorch: %d processes, half with OMP_WAIT_POLICY=PASSIVE); × torch: ratio of tokens/s\n",
		r.Threads, r.Rounds, r.Repeat, 2*r.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "task\t%s\t%s\t× torch\tpaired by round: median (range)\t%s\t× torch\tpeak MiB (XLA / torch / Go)\t\n", sideNames[sideXLA], sideNames[sideTorch], sideNames[sideGo])
	for _, rw := range r.Rows {
		val := func(side string) string {
			cl := rw.Cells[side]
			switch {
			case cl == nil:
				return "–"
			case strings.HasPrefix(rw.Task, "memory"):
				return fmt.Sprintf("%.1f s", cl.MinSeconds)
			}
			return fmt.Sprintf("%.1f", cl.TokensPerSecond)
		}
		ratio := func(x float64) string {
			if x == 0 {
				return "–"
			}
			return fmt.Sprintf("%.2f×", x)
		}
		mem := func(side string) string {
			if cl := rw.Cells[side]; cl != nil {
				return fmt.Sprintf("%.0f", cl.PeakRSSMiB)
			}
			return "–"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s / %s / %s\t\n", rw.Label, val(sideXLA), val(sideTorch), ratio(rw.XLAOverTorch),
			rw.pairedText(), val(sideGo), ratio(rw.GoOverTorch), mem(sideXLA), mem(sideTorch), mem(sideGo))
	}
	tw.Flush()
	for _, s := range r.Sides {
		fmt.Fprintf(w, "%s: %s; weights read in %s s\n", s.Name, s.Description, formatSeconds(s.LoadSeconds))
	}
	goal := "not measured"
	if r.GoalMet != nil {
		goal = map[bool]string{true: "met", false: "not met"}[*r.GoalMet]
	}
	fmt.Fprintf(w, "goal, %s: %s\n", r.Goal, goal)
	fmt.Fprintf(w, "load %s → %s, %s, %d cores, %s; %.0f s in all\n", r.Machine.LoadBefore, r.Machine.LoadAfter, r.Machine.CPU,
		r.Machine.Cores, r.Machine.GoVersion, r.WallSeconds)
	if r.Note != "" {
		fmt.Fprintf(w, "note: %s\n", r.Note)
	}
	if r.Dirty {
		fmt.Fprintln(os.Stderr, "model-bench: the code has uncommitted changes (recorded as dirty in the JSON)")
	}
}
