package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// rowSpec is one line of the table: a Go benchmark, what it is compared
// with, and the targets it must meet.
type rowSpec struct {
	Label    string
	Bench    string   // Go benchmark name
	Numpy    string   // numpy kernel it replaces, or ""
	Copy     string   // copy benchmark whose bandwidth it is measured against, or ""
	Ref      []string // Go benchmarks whose summed time it is compared with, or nil
	RefLabel string
	MinNumpy float64 // required speed-up over numpy (0: none)
	MinCopy  float64 // required share of the copy bandwidth (0: none)
	MinRef   float64 // required speed-up over Ref (0: none)
}

const (
	copyRoPE, copyTable, copyTableAlloc = "BenchmarkCopy/4x32x4096x128", "BenchmarkCopy/8192x1024", "BenchmarkCopy/alloc-8192x1024"
	// The % copy yardsticks: the same plain loop split over all cores, as
	// the kernels it is compared with are.
	parCopyRoPE, parCopyTable = "BenchmarkCopy/parallel-4x32x4096x128", "BenchmarkCopy/parallel-8192x1024"
	sinTable, sinTableAlloc   = "BenchmarkSinusoidal/8192x1024", "BenchmarkSinusoidalTable/8192x1024"
)

var rowSpecs = []rowSpec{
	{Label: "sinusoidal table 8192×1024", Bench: sinTable, Numpy: "sinusoidal", Copy: parCopyTable, MinNumpy: 5},
	{Label: "  same, into a new slice (SinusoidalTable)", Bench: sinTableAlloc, Numpy: "sinusoidal"},
	{Label: "RoPE interleaved → dst", Bench: "BenchmarkRoPE/interleaved/4x32x4096x128", Numpy: "rope_interleaved", Copy: parCopyRoPE, MinNumpy: 8, MinCopy: 0.8},
	{Label: "RoPE interleaved in place", Bench: "BenchmarkRoPE/interleaved-inplace/4x32x4096x128", Numpy: "rope_interleaved", Copy: parCopyRoPE, MinNumpy: 8, MinCopy: 0.8},
	{Label: "RoPE half → dst", Bench: "BenchmarkRoPE/half/4x32x4096x128", Numpy: "rope_half", Copy: parCopyRoPE, MinNumpy: 8, MinCopy: 0.8},
	{Label: "RoPE half in place", Bench: "BenchmarkRoPE/half-inplace/4x32x4096x128", Numpy: "rope_half", Copy: parCopyRoPE, MinNumpy: 8, MinCopy: 0.8},
	{Label: "ALiBi bias 32×4096×4096", Bench: "BenchmarkALiBi/32x4096x4096", Numpy: "alibi", Copy: parCopyRoPE, MinCopy: 0.7},
	{Label: "copy 4×32×4096×128, all cores (yardstick)", Bench: parCopyRoPE},
	{Label: "copy 8192×1024, all cores (yardstick)", Bench: parCopyTable},
	{Label: "copy 4×32×4096×128, one goroutine", Bench: copyRoPE},
	{Label: "copy 8192×1024, one goroutine", Bench: copyTable},
	{Label: "copy 8192×1024 into a new slice", Bench: copyTableAlloc},
	{Label: "graph RoPE interleaved (posgraph)", Bench: "BenchmarkGraphRoPE/4x32x4096x128",
		Ref: []string{"BenchmarkGoMLXPosRoPE/4x32x4096x128"}, RefLabel: "GoMLX pos.RoPE"},
	{Label: "graph RoPE half (posgraph)", Bench: "BenchmarkGraphRoPE/half/4x32x4096x128",
		Ref: []string{"BenchmarkGoMLXPosRoPE/half/4x32x4096x128"}, RefLabel: "GoMLX pos.RoPE"},
	{Label: "GoMLX pos.RoPE interleaved (reference)", Bench: "BenchmarkGoMLXPosRoPE/4x32x4096x128"},
	{Label: "GoMLX pos.RoPE half (reference)", Bench: "BenchmarkGoMLXPosRoPE/half/4x32x4096x128"},
	{Label: "graph sinusoidal constant", Bench: "BenchmarkGraphSinusoidal/8192x1024",
		Ref: []string{sinTableAlloc, copyTableAlloc}, RefLabel: "new table + new copy", MinRef: 1},
	{Label: "  same, against in-place table + copy", Bench: "BenchmarkGraphSinusoidal/8192x1024",
		Ref: []string{sinTable, copyTable}},
}

// row is a rowSpec's measured values: the minimum time of each side over
// all rounds, and ratios of those minima.
type row struct {
	Label      string   `json:"label"`
	Bench      string   `json:"benchmark"`
	Ms         float64  `json:"ms"`
	GBPerS     float64  `json:"gb_per_s,omitempty"`
	Numpy      string   `json:"numpy_kernel,omitempty"`
	NumpyMs    float64  `json:"numpy_ms,omitempty"`
	VsNumpy    float64  `json:"speedup_vs_numpy,omitempty"`
	CopyShare  float64  `json:"copy_bandwidth_share,omitempty"`
	Ref        []string `json:"reference,omitempty"`
	VsRef      float64  `json:"speedup_vs_reference,omitempty"`
	Targets    []string `json:"targets,omitempty"`
	Met        *bool    `json:"met,omitempty"`
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// results is everything bench measured; it is also the JSON file.
type results struct {
	Started     time.Time              `json:"started"`
	Finished    time.Time              `json:"finished"`
	Machine     machineInfo            `json:"machine"`
	Rounds      int                    `json:"rounds"`
	Benchtime   string                 `json:"benchtime"`
	NumpyVer    string                 `json:"numpy_version,omitempty"`
	Rows        []row                  `json:"rows"`
	Precision   precisionReport        `json:"precision"`
	GoRounds    []map[string]goSample  `json:"go_rounds"`
	NumpyRounds []map[string][]float64 `json:"numpy_rounds,omitempty"`
}

type precisionReport struct {
	Posenc posencPrecision `json:"posenc_float32"`
	Numpy  *numpyPrecision `json:"numpy_float32_textbook,omitempty"`
}

// measure runs the rounds and computes the table.
func measure(c config, log io.Writer) (*results, error) {
	res := &results{Started: time.Now().UTC(), Machine: readMachine(), Rounds: c.rounds, Benchtime: c.benchtime}
	useNumpy := !c.noNumpy
	if useNumpy {
		if err := ensureNumpy(c, log); err != nil {
			return nil, err
		}
	}
	dir, err := os.MkdirTemp("", "posenc-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintln(log, "bench: building the test binaries of pkg/posenc and pkg/posgraph")
	bins, err := buildTestBinaries(c, dir, log)
	if err != nil {
		return nil, err
	}
	for r := range c.rounds {
		goFirst := r%2 == 0
		for step := range 2 {
			if (step == 0) == goFirst {
				fmt.Fprintf(log, "bench: round %d/%d: Go benchmarks\n", r+1, c.rounds)
				s, err := runGoBenchmarks(c, bins)
				if err != nil {
					return nil, err
				}
				res.GoRounds = append(res.GoRounds, s)
			} else if useNumpy {
				fmt.Fprintf(log, "bench: round %d/%d: numpy\n", r+1, c.rounds)
				n, err := runNumpy(c)
				if err != nil {
					return nil, err
				}
				res.NumpyVer = n.Version
				res.NumpyRounds = append(res.NumpyRounds, n.Seconds)
			}
		}
	}
	res.Machine.LoadAfter = loadAverage()
	if res.Precision.Posenc, err = measurePosencPrecision(); err != nil {
		return nil, err
	}
	if useNumpy {
		p, err := runNumpyPrecision(c)
		if err != nil {
			return nil, err
		}
		res.Precision.Numpy = &p
	}
	res.Rows = computeRows(res.GoRounds, res.NumpyRounds)
	res.Finished = time.Now().UTC()
	return res, nil
}

// computeRows turns the rounds into the table's rows, taking both sides of
// every comparison the same way: the minimum over all rounds of each
// (numpy's over all its repetitions too), the run least disturbed by other
// work on the machine. numpyRounds may be empty (no numpy): the numpy
// targets are then reported as unmeasured.
func computeRows(goRounds []map[string]goSample, numpyRounds []map[string][]float64) []row {
	best := func(bench string) (goSample, bool) {
		var b goSample
		found := false
		for _, g := range goRounds {
			if s, ok := g[bench]; ok && s.NsPerOp > 0 && (!found || s.NsPerOp < b.NsPerOp) {
				b, found = s, true
			}
		}
		return b, found
	}
	var rows []row
	for _, spec := range rowSpecs {
		s, ok := best(spec.Bench)
		if !ok {
			continue
		}
		rw := row{Label: spec.Label, Bench: spec.Bench, Numpy: spec.Numpy, Ref: spec.Ref,
			Ms: s.NsPerOp / 1e6, GBPerS: s.MBPerS / 1e3}
		if spec.Numpy != "" {
			var all []float64
			for _, n := range numpyRounds {
				all = append(all, n[spec.Numpy]...)
			}
			if t := minPositive(all); t > 0 {
				rw.NumpyMs = t * 1e3
				rw.VsNumpy = t * 1e9 / s.NsPerOp
			}
		}
		if spec.Copy != "" {
			if cp, ok := best(spec.Copy); ok && cp.MBPerS > 0 && s.MBPerS > 0 {
				rw.CopyShare = s.MBPerS / cp.MBPerS
			}
		}
		if len(spec.Ref) > 0 {
			sum := 0.0
			for _, ref := range spec.Ref {
				rs, ok := best(ref)
				if !ok {
					sum = math.NaN()
					break
				}
				sum += rs.NsPerOp
			}
			if !math.IsNaN(sum) {
				rw.VsRef = sum / s.NsPerOp
			}
		}
		met := true
		check := func(min, got float64, name, what string) {
			if min == 0 {
				return
			}
			rw.Targets = append(rw.Targets, what)
			if got == 0 {
				rw.Unmeasured = append(rw.Unmeasured, name)
				met = false
				return
			}
			if got < min {
				met = false
			}
		}
		check(spec.MinNumpy, rw.VsNumpy, "numpy", fmt.Sprintf("≥%g× numpy", spec.MinNumpy))
		check(spec.MinCopy, rw.CopyShare, "copy", fmt.Sprintf("≥%.0f%% copy", 100*spec.MinCopy))
		check(spec.MinRef, rw.VsRef, "reference", fmt.Sprintf("≥%g× %s", spec.MinRef, spec.RefLabel))
		if len(rw.Targets) > 0 {
			rw.Met = &met
		}
		rows = append(rows, rw)
	}
	return rows
}

// minPositive returns the smallest positive value of v, or 0.
func minPositive(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		if x > 0 && (m == 0 || x < m) {
			m = x
		}
	}
	return m
}

func printReport(w io.Writer, res *results) {
	m := res.Machine
	fmt.Fprintf(w, "posenc benchmarks: %d rounds (Go and numpy interleaved); each side's minimum over all rounds, ratios of minima\n", res.Rounds)
	fmt.Fprintf(w, "machine: %s, %s CPUs, L3 %s, SIMD %s; %s, GOMAXPROCS %d; numpy %s\n",
		m.CPUModel, m.CPUs, m.L3, strings.Join(m.SIMD, " "), m.GoVersion, m.GOMAXPROCS, orDash(res.NumpyVer))
	fmt.Fprintf(w, "load average before %s, after %s\n\n", m.LoadBefore, m.LoadAfter)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tms\tGB/s\t% copy\tnumpy ms\t× numpy\t× ref\ttarget\tmet\t")
	for _, r := range res.Rows {
		met := ""
		if r.Met != nil {
			met = map[bool]string{true: "yes", false: "NO"}[*r.Met]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Label, num(r.Ms, 2), num(r.GBPerS, 1),
			pct(r.CopyShare), num(r.NumpyMs, 1), ratio(r.VsNumpy), ratio(r.VsRef), strings.Join(r.Targets, ", "), met)
	}
	tw.Flush()
	p := res.Precision
	fmt.Fprintf(w, "\nfloat32 sinusoidal table, d=1024, positions up to 1,000,000, max |error| against float64:\n")
	fmt.Fprintf(w, "  posenc   %.2g (target ≤ %g: %s)\n", p.Posenc.MaxAbsError, p.Posenc.Bound,
		map[bool]string{true: "yes", false: "NO"}[p.Posenc.MaxAbsError <= p.Posenc.Bound])
	if p.Numpy != nil {
		fmt.Fprintf(w, "  numpy textbook float32   %.2g at position 1,000,000 (%.2g at position %d)\n",
			p.Numpy.At1000000, p.Numpy.MaxAbsError, p.Numpy.Position)
	}
	fmt.Fprintln(w, "\n% copy: GB/s / the plain-loop copy's GB/s split over all cores, as the kernels are (memory bandwidth is the limit);")
	fmt.Fprintln(w, "× numpy: numpy's time / posenc's;")
	fmt.Fprintln(w, "× ref: the reference's time / this one's (GoMLX pos.RoPE; for the graph constant, the host table plus")
	fmt.Fprintln(w, "one copy, both into fresh memory as the graph's are, and, as information, both into warm buffers).")
}

func num(v float64, prec int) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

func ratio(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", v)
}

func pct(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*v)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func writeJSON(path string, res *results) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
