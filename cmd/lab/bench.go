package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/posenc/course/internal/machine"
	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/posgraph"
)

// The training-throughput comparison of make bench: the lab's RoPE model
// trained by GoMLX on its pure-Go backend (built plain and with
// GOEXPERIMENT=simd, GoMLX's AVX-512/AVX2 matmul), by GoMLX on XLA's CPU
// plugin where one is installed (make xla, or PJRT_PLUGIN_LIBRARY_PATH, as
// make bench gives it), and by PyTorch on the CPU, same model, same batch,
// interleaved over rounds so that every side sees the same load.

// torchEnv is how PyTorch runs: Debian's python3-torch 1.13 with OpenBLAS
// (libopenblas0-pthread) on one BLAS thread, one OpenMP thread per core
// (Debian's build starts with one unless told), which sleep when idle; with
// Debian's reference BLAS instead it is several times slower.
var torchEnv = []string{"OPENBLAS_NUM_THREADS=1", "OMP_WAIT_POLICY=PASSIVE", fmt.Sprintf("OMP_NUM_THREADS=%d", runtime.NumCPU())}

// benchSize is one model compared: its name in the table, its
// LAB_BENCH_CONFIG for the Go side (pkg/lab's benchConfig), and the same
// config, whose sizes the PyTorch side is given.
type benchSize struct {
	name, config string
	c            lab.Config
}

// benchSizes are the models compared: the lab's DefaultConfig
// (LAB_BENCH_CONFIG default) and the same with d_model 32 (d32, the lab's
// model before it grew to 64).
func benchSizes() []benchSize {
	c := lab.DefaultConfig()
	d32 := c
	d32.Dim = 32
	return []benchSize{
		{fmt.Sprintf("%d layers, d_model %d (the lab's)", c.Layers, c.Dim), "default", c},
		{fmt.Sprintf("%d layers, d_model %d", d32.Layers, d32.Dim), "d32", d32},
	}
}

// throughput is one side's tokens per second in every round.
type throughput struct {
	Model  string    `json:"model"`
	Side   string    `json:"side"`
	Rounds []float64 `json:"tokens_per_second"`
	Median float64   `json:"median"`
}

type benchResults struct {
	Command    string       `json:"command"`
	XLA        string       `json:"xla_cpu"` // the plugin the XLA CPU side ran, or why it did not run
	Batch      int          `json:"batch"`
	SeqLen     int          `json:"seq_len"`
	Steps      int          `json:"steps_per_round"`
	Sides      []throughput `json:"sides"`
	Torch      string       `json:"torch"`
	TorchEnv   []string     `json:"torch_env"`
	GoVersion  string       `json:"go_version"`
	CPU        string       `json:"cpu"`
	LoadBefore string       `json:"load_before"`
	LoadAfter  string       `json:"load_after"`
	Started    string       `json:"started"`
}

func runBench(rounds, steps int, jsonPath string, stdout, stderr io.Writer) error {
	if rounds < 1 || steps < 1 {
		return fmt.Errorf("lab: --bench-rounds and --bench-steps must be positive, got %d and %d", rounds, steps)
	}
	dir, err := os.MkdirTemp("", "lab-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	bins := map[string]string{"GoMLX (Go backend)": filepath.Join(dir, "plain.test"), "GoMLX (Go backend, GOEXPERIMENT=simd)": filepath.Join(dir, "simd.test")}
	for _, side := range []string{"GoMLX (Go backend)", "GoMLX (Go backend, GOEXPERIMENT=simd)"} {
		bin := bins[side]
		cmd := exec.Command(goCmd, "test", "-c", "-o", bin, "./pkg/lab")
		cmd.Env = os.Environ()
		if strings.Contains(side, "simd") {
			cmd.Env = append(cmd.Env, "GOEXPERIMENT=simd")
		} else {
			cmd.Env = append(cmd.Env, "GOEXPERIMENT=")
		}
		cmd.Stdout, cmd.Stderr = stderr, stderr
		fmt.Fprintf(stderr, "building %s\n", side)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("lab: building pkg/lab's test binary for %s: %v", side, err)
		}
	}
	torchVersion, err := ensureTorch(stderr)
	if err != nil {
		return err
	}
	sizes := benchSizes()
	res := benchResults{Command: "go run ./cmd/lab --bench", Batch: sizes[0].c.Batch, SeqLen: sizes[0].c.TrainLen, Steps: steps, Torch: torchVersion,
		TorchEnv: torchEnv, GoVersion: runtime.Version(), CPU: machine.CPUModel(), LoadBefore: machine.LoadText(), Started: time.Now().UTC().Format(time.RFC3339)}
	sides := []string{"GoMLX (Go backend)", "GoMLX (Go backend, GOEXPERIMENT=simd)"}
	if plugin, ok := xlaCPUPlugin(); ok {
		res.XLA = plugin
		sides = append(sides, xlaSide)
		bins[xlaSide] = bins["GoMLX (Go backend)"] // the plain build, on GOMLX_BACKEND=xla:cpu
	} else {
		res.XLA = "not run: " + plugin
		fmt.Fprintf(stderr, "lab: no XLA CPU column: %s\n", plugin)
	}
	sides = append(sides, "PyTorch "+torchVersion+" (CPU)")
	for _, size := range sizes {
		samples := map[string][]float64{}
		for r := range rounds {
			order := slices.Clone(sides)
			if r%2 == 1 {
				slices.Reverse(order)
			}
			for _, side := range order {
				var tps float64
				var err error
				if strings.HasPrefix(side, "PyTorch") {
					tps, err = torchThroughput(size.c, steps)
				} else {
					backend := "go"
					if side == xlaSide {
						backend = "xla:cpu"
					}
					tps, err = goThroughput(bins[side], backend, size.config, steps)
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(stderr, "round %d/%d  %-22s %-40s %8.0f tokens/s\n", r+1, rounds, size.config, side, tps)
				samples[side] = append(samples[side], tps)
			}
		}
		for _, side := range sides {
			res.Sides = append(res.Sides, throughput{Model: size.name, Side: side, Rounds: samples[side], Median: median(samples[side])})
		}
	}
	res.LoadAfter = machine.LoadText()
	printBench(stdout, res)
	if jsonPath != "" {
		data, err := json.MarshalIndent(res, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonPath, append(data, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "JSON: %s\n", jsonPath)
	}
	return nil
}

func printBench(w io.Writer, res benchResults) {
	fmt.Fprintf(w, "\nTraining throughput, batch %d × %d tokens, median of %d rounds (tokens/s; × Go: that side's median over the plain Go backend's)\n",
		res.Batch, res.SeqLen, len(res.Sides[0].Rounds))
	var base float64
	for _, s := range res.Sides {
		if s.Side == "GoMLX (Go backend)" {
			base = s.Median
			fmt.Fprintf(w, "%s\n", s.Model)
		}
		fmt.Fprintf(w, "  %-42s %8.0f   %5.2f×\n", s.Side, s.Median, s.Median/base)
	}
	fmt.Fprintf(w, "load %s → %s, %s, %s; PyTorch with %s\n", res.LoadBefore, res.LoadAfter, res.CPU, res.GoVersion, strings.Join(res.TorchEnv, " "))
	fmt.Fprintf(w, "XLA CPU: %s\n", res.XLA)
}

// xlaSide is the XLA CPU side's name in the table.
const xlaSide = "GoMLX (XLA CPU)"

// xlaCPUPlugin returns the path of the XLA CPU plugin that go-xla finds
// (in its folders or PJRT_PLUGIN_LIBRARY_PATH), or why there is none: what
// posgraph.ChooseBackend would pick with GOMLX_BACKEND unset.
func xlaCPUPlugin() (string, bool) {
	if saved, ok := os.LookupEnv(posgraph.BackendEnvVar); ok {
		os.Unsetenv(posgraph.BackendEnvVar)
		defer os.Setenv(posgraph.BackendEnvVar, saved)
	}
	config, reason := posgraph.ChooseBackend()
	if config != "xla:cpu" {
		return reason + " (make xla installs it; make bench gives the test plugin)", false
	}
	return strings.TrimPrefix(reason, "the XLA CPU plugin is installed at "), true
}

// goThroughput runs BenchmarkTrainStep of a pkg/lab test binary on
// backend (GOMLX_BACKEND).
func goThroughput(bin, backend, config string, steps int) (float64, error) {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", "^BenchmarkTrainStep$", "-test.benchtime", fmt.Sprintf("%dx", steps))
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND="+backend, "LAB_BENCH_CONFIG="+config)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("lab: BenchmarkTrainStep: %v\n%s", err, out.String())
	}
	s := bufio.NewScanner(&out)
	for s.Scan() {
		f := strings.Fields(s.Text())
		for i := 1; i < len(f); i++ {
			if f[i] == "tokens/s" {
				return strconv.ParseFloat(f[i-1], 64)
			}
		}
	}
	return 0, fmt.Errorf("lab: BenchmarkTrainStep printed no tokens/s:\n%s", out.String())
}

// torchArgs are scripts/lab_torch.py's arguments for steps training steps
// of c's model: its sizes, L and batch.
func torchArgs(c lab.Config, steps int) []string {
	return []string{"scripts/lab_torch.py", "--layers", fmt.Sprint(c.Layers), "--dim", fmt.Sprint(c.Dim),
		"--heads", fmt.Sprint(c.Heads), "--seq", fmt.Sprint(c.TrainLen), "--batch", fmt.Sprint(c.Batch), "--steps", fmt.Sprint(steps)}
}

// torchThroughput runs scripts/lab_torch.py on c's model.
func torchThroughput(c lab.Config, steps int) (float64, error) {
	cmd := exec.Command("/usr/bin/python3", torchArgs(c, steps)...)
	cmd.Env = append(os.Environ(), torchEnv...)
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("lab: scripts/lab_torch.py: %v", err)
	}
	var r struct {
		TokensPerSecond float64 `json:"tokens_per_second"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, fmt.Errorf("lab: scripts/lab_torch.py printed %q: %v", out, err)
	}
	return r.TokensPerSecond, nil
}

// ensureTorch returns the version of Debian's PyTorch, installing
// python3-torch and libopenblas0-pthread with apt-get when missing and
// running as root.
func ensureTorch(log io.Writer) (string, error) {
	version := func() (string, error) {
		out, err := exec.Command("/usr/bin/python3", "-c", "import torch; print(torch.__version__)").Output()
		return strings.TrimSpace(string(out)), err
	}
	if v, err := version(); err == nil {
		return v, nil
	}
	if os.Geteuid() != 0 {
		return "", fmt.Errorf("lab: PyTorch is missing: run sudo apt-get install python3-torch libopenblas0-pthread")
	}
	fmt.Fprintln(log, "installing Debian's python3-torch and libopenblas0-pthread (apt-get)")
	cmd := exec.Command("apt-get", "install", "-y", "-qq", "--no-install-recommends", "python3-torch", "libopenblas0-pthread")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("lab: apt-get install python3-torch: %v", err)
	}
	return version()
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
