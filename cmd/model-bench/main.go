// Command model-bench times SmolLM2-135M-Instruct in GoMLX on XLA's CPU
// plugin against Hugging Face transformers + PyTorch on the CPU, in one run:
// prefill tokens/s at 128, 512 and 2,048 tokens and decode tokens/s with
// the key/value cache, plus GoMLX's pure-Go backend at 128 tokens and, with
// --long, the time and peak memory of a 16,384-token prefill. `make
// model-bench` (part of `make bench`, not of `make test`) runs it from the
// repository root.
//
// Every side runs the same GGUF file (make model) dequantized to float32,
// on the same token ids (the lab's text, pkg/lab/corpus/go-docs.txt,
// tokenized by pkg/bpe from the GGUF's own vocabulary), with the same
// number of threads (--threads: GOMAXPROCS, torch.set_num_threads, and
// with fewer threads than cores every side pinned to the same CPUs by
// taskset, whose set XLA's CPU client sizes its thread pool to). Each side
// runs in processes of its own, --rounds of them, the sides' order
// alternating from round to round; each process runs every task once
// untimed (GoMLX compiles its graphs then) and --repeat times timed. A
// side's figure is its minimum over all those runs, the run least
// disturbed by other work on the machine, and ratios are ratios of minima.
// Each row also pairs the sides round by round (XLA's minimum in a round
// against PyTorch's in the same round) and prints the median and range of
// those paired ratios: this machine's speed drifts by more than the gap
// between the sides within minutes, and two minima taken minutes apart can
// each come from a faster minute. The goal, XLA at least 1.0× PyTorch on
// prefill at 512 and 2,048 tokens (the sizes the real-model issue names),
// must hold both on minima and on the median of the pairs.
// The Python side is scripts/model/model_bench_torch.py in the hash-locked
// environment scripts/model/env.sh installs (transformers, torch, gguf).
//
//	go run ./cmd/model-bench              # about 15 min on 2 idle cores (5 rounds); table + cmd/model-bench/results.json
//	go run ./cmd/model-bench --long       # also prefill 16,384 once per side, time and peak memory (about 4 min more: 1,122 s in all)
//	go run ./cmd/model-bench --tasks prefill:64,decode:8@64 --go-tasks prefill:16 --rounds 1 --repeat 1 --json ""
//
// XLA's CPU plugin must be installed where go-xla finds it (make xla, or
// PJRT_PLUGIN_LIBRARY_PATH=$(scripts/xla-test.sh --plugin-dir), which is
// what make model-bench does). Bad flags exit with status 2 and a one-line
// message; a side that fails exits with status 1.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"

	"github.com/posenc/course/pkg/bpe"
	"github.com/posenc/course/pkg/gguf"
	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/smollm"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// The sides, by the names --sides takes.
const (
	sideXLA   = "xla"   // GoMLX on XLA's CPU plugin
	sideTorch = "torch" // transformers + PyTorch on the CPU
	sideGo    = "go"    // GoMLX on its pure-Go backend
)

var sideNames = map[string]string{sideXLA: "GoMLX, XLA CPU", sideTorch: "PyTorch, CPU", sideGo: "GoMLX, Go backend"}

// Default tasks: prefill at 128, 512 and 2,048 tokens and decoding after
// 512 and after 128 for XLA and PyTorch; the pure-Go backend, about 20
// times slower, only at 128.
const (
	defaultTasks   = "prefill:128,prefill:512,prefill:2048,decode:64@512,decode:16@128"
	defaultGoTasks = "prefill:128,decode:16@128"
	longTokens     = 16384
)

// config is the parsed command line.
type config struct {
	rounds, repeat, threads int
	tasks, goTasks          []task
	sides                   []string
	long                    bool
	python, jsonPath, note  string
	chunk                   int // query positions per GoMLX call
	keyBlock                int // cache slots per attention block (GoMLX)
	args                    []string

	// the worker's (a GoMLX side's own process)
	worker          bool
	model, idsPath  string
	workerTasksText string
}

func parseFlags(args []string) (config, error) {
	c := config{args: args}
	fs := flag.NewFlagSet("model-bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&c.rounds, "rounds", 5, "processes per side, the sides' order alternating")
	fs.IntVar(&c.repeat, "repeat", 3, "timed runs of each task per process, after an untimed one")
	fs.IntVar(&c.threads, "threads", runtime.NumCPU(), "threads of every side (at most the cores)")
	tasks := fs.String("tasks", defaultTasks, "tasks of XLA and PyTorch: prefill:N, decode:D@P, memory:N")
	goTasks := fs.String("go-tasks", defaultGoTasks, "tasks of the pure-Go backend")
	sides := fs.String("sides", "xla,torch,go", "sides to run: xla, torch, go")
	fs.IntVar(&c.chunk, "chunk", smollm.DefaultChunkSize, "query positions per GoMLX call (a prompt shorter than this runs as one call)")
	fs.IntVar(&c.keyBlock, "key-block", smollm.DefaultKeyBlockSize, "cache slots GoMLX's attention reads per block")
	fs.BoolVar(&c.long, "long", false, fmt.Sprintf("also memory:%d on XLA and PyTorch (minutes, GBs)", longTokens))
	fs.StringVar(&c.python, "python", "", "the python of the environment with transformers and torch (default: what scripts/model/env.sh prints, installing it)")
	fs.StringVar(&c.jsonPath, "json", "cmd/model-bench/results.json", "write the results here (\"\": nowhere)")
	fs.StringVar(&c.note, "note", "", "a remark recorded in the JSON (such as: measured under load)")
	fs.BoolVar(&c.worker, "worker", false, "internal: run the GoMLX side (GOMLX_BACKEND) and print its JSON")
	fs.StringVar(&c.model, "model", "", "internal: the GGUF file")
	fs.StringVar(&c.idsPath, "ids", "", "internal: the token ids, a JSON array")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("model-bench: %v", err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("model-bench: unexpected argument %q (all options are flags)", fs.Arg(0))
	}
	if c.rounds < 1 || c.repeat < 1 {
		return c, fmt.Errorf("model-bench: --rounds and --repeat must be at least 1, got %d and %d", c.rounds, c.repeat)
	}
	if c.chunk < 1 {
		return c, fmt.Errorf("model-bench: --chunk must be at least 1, got %d", c.chunk)
	}
	if c.keyBlock < 1 {
		return c, fmt.Errorf("model-bench: --key-block must be at least 1, got %d", c.keyBlock)
	}
	if c.threads < 1 || c.threads > runtime.NumCPU() {
		return c, fmt.Errorf("model-bench: --threads must be between 1 and the %d cores, got %d", runtime.NumCPU(), c.threads)
	}
	var err error
	if c.tasks, err = parseTasks(*tasks); err != nil {
		return c, fmt.Errorf("model-bench: --tasks: %v", err)
	}
	if c.goTasks, err = parseTasks(*goTasks); err != nil {
		return c, fmt.Errorf("model-bench: --go-tasks: %v", err)
	}
	c.workerTasksText = *tasks
	for _, s := range strings.Split(*sides, ",") {
		if _, ok := sideNames[s]; !ok || slices.Contains(c.sides, s) {
			return c, fmt.Errorf("model-bench: --sides: want some of xla, torch, go, each once, got %q", *sides)
		}
		c.sides = append(c.sides, s)
	}
	if c.long {
		c.tasks = append(c.tasks, task{Kind: "memory", Prompt: longTokens})
	}
	return c, nil
}

const usage = `usage: model-bench [--rounds 5] [--repeat 3] [--threads N] [--tasks LIST] [--go-tasks LIST]
                   [--sides xla,torch,go] [--chunk 512] [--key-block 512] [--long] [--python PATH] [--json FILE] [--note TEXT]

Times SmolLM2-135M-Instruct in GoMLX (XLA CPU, pure-Go backend) against
transformers + PyTorch on the CPU, same weights, token ids and threads, and
prints one table of tokens/s (minimum time over every run) with the ratios,
and the ratios paired round by round (median, range).
Tasks: prefill:N, decode:D@P (D tokens after a prompt of P), memory:N.
`

func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	if c.worker {
		if err := runWorker(c.model, c.idsPath, c.workerTasksText, c.repeat, c.chunk, c.keyBlock, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "model-bench worker:", err)
			return exitFailure
		}
		return exitOK
	}
	res, err := measure(c, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "model-bench:", err)
		return exitFailure
	}
	printTable(stdout, res)
	if c.jsonPath != "" {
		data, err := json.MarshalIndent(res, "", " ")
		if err == nil {
			err = os.WriteFile(c.jsonPath, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "model-bench:", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "JSON: %s\n", c.jsonPath)
	}
	return exitOK
}

// measure runs every side's processes and gathers their numbers.
func measure(c config, log io.Writer) (*results, error) {
	model, err := smollm.Find()
	if err != nil {
		return nil, err
	}
	python := c.python
	if python == "" && slices.Contains(c.sides, sideTorch) {
		cmd := exec.Command("scripts/model/env.sh")
		cmd.Stderr = log
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("scripts/model/env.sh (run from the repository root): %v", err)
		}
		python = strings.TrimSpace(string(out))
	}
	need := 0
	for _, t := range append(slices.Clone(c.tasks), c.goTasks...) {
		need = max(need, t.tokens())
	}
	ids, err := tokenIDs(model, need)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "model-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	idsPath := dir + "/ids.json"
	data, _ := json.Marshal(ids)
	if err := os.WriteFile(idsPath, data, 0o644); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}

	res := newResults(c, model)
	byRound := map[string][]sideResult{}
	for r := range c.rounds {
		order := slices.Clone(c.sides)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, side := range order {
			tasks := c.tasks
			if side == sideGo {
				tasks = c.goTasks
			}
			if len(tasks) == 0 {
				continue
			}
			// PyTorch runs twice, with OpenMP's default wait policy (its
			// threads spin between parallel regions: fastest on idle
			// cores, many times slower when other work shares them) and
			// with OMP_WAIT_POLICY=PASSIVE (they sleep); its figure is the
			// better of the two.
			policies := []string{""}
			if side == sideTorch {
				policies = append(policies, "PASSIVE")
			}
			for i, policy := range policies {
				if r > 0 || i > 0 {
					tasks = withoutMemory(tasks) // a memory task runs once per side, in its first process
					if len(tasks) == 0 {
						continue
					}
				}
				fmt.Fprintf(log, "round %d/%d: %s%s\n", r+1, c.rounds, sideNames[side], map[string]string{"": "", "PASSIVE": ", OMP_WAIT_POLICY=PASSIVE"}[policy])
				cmd := sideCommand(c, side, policy, tasks, self, python, model, idsPath)
				cmd.Stderr = log
				out, err := cmd.Output()
				if err != nil {
					return nil, fmt.Errorf("%s: %v", sideNames[side], err)
				}
				var sr sideResult
				if err := json.Unmarshal(out, &sr); err != nil {
					return nil, fmt.Errorf("%s printed %q: %v", sideNames[side], out, err)
				}
				sr.OMPWaitPolicy, sr.Round = policy, r
				byRound[side] = append(byRound[side], sr)
			}
		}
	}
	res.finish(c, byRound)
	return res, nil
}

// withoutMemory returns tasks but the memory ones.
func withoutMemory(tasks []task) []task {
	var out []task
	for _, t := range tasks {
		if t.Kind != "memory" {
			out = append(out, t)
		}
	}
	return out
}

// sideCommand returns the process that runs tasks on side: PyTorch's
// script with ompWaitPolicy ("": OpenMP's default), or this program as a
// GoMLX worker on the side's backend; both on c.threads threads.
func sideCommand(c config, side, ompWaitPolicy string, tasks []task, self, python, model, idsPath string) *exec.Cmd {
	names := make([]string, len(tasks))
	for i, t := range tasks {
		names[i] = t.String()
	}
	list, rep := strings.Join(names, ","), fmt.Sprint(c.repeat)
	if side == sideTorch {
		cmd := pinned(c.threads, python, "scripts/model/model_bench_torch.py", "--model", model, "--ids", idsPath,
			"--tasks", list, "--repeat", rep, "--threads", fmt.Sprint(c.threads))
		cmd.Env = append(os.Environ(), fmt.Sprintf("OMP_NUM_THREADS=%d", c.threads), fmt.Sprintf("MKL_NUM_THREADS=%d", c.threads),
			"HF_HUB_DISABLE_PROGRESS_BARS=1", "TQDM_DISABLE=1")
		if ompWaitPolicy != "" {
			cmd.Env = append(cmd.Env, "OMP_WAIT_POLICY="+ompWaitPolicy)
		}
		return cmd
	}
	cmd := pinned(c.threads, self, "--worker", "--model", model, "--ids", idsPath, "--tasks", list, "--go-tasks", "", "--repeat", rep, "--chunk", fmt.Sprint(c.chunk), "--key-block", fmt.Sprint(c.keyBlock))
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND="+map[string]string{sideXLA: "xla:cpu", sideGo: "go"}[side],
		fmt.Sprintf("GOMAXPROCS=%d", c.threads))
	return cmd
}

// pinned returns the command name args, run on CPUs 0 … threads−1 by
// taskset when threads is fewer than the cores (else as it is).
func pinned(threads int, name string, args ...string) *exec.Cmd {
	if threads < runtime.NumCPU() {
		return exec.Command("taskset", append([]string{"-c", fmt.Sprintf("0-%d", threads-1), name}, args...)...)
	}
	return exec.Command(name, args...)
}

// tokenIDs returns the first n token ids of the lab's text, tokenized by
// the GGUF's own tokenizer (the text is repeated should it be too short).
func tokenIDs(model string, n int) ([]int32, error) {
	f, err := gguf.Open(model)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tok, err := bpe.FromGGUF(f)
	if err != nil {
		return nil, err
	}
	text := string(lab.CorpusText())
	var ids []int32
	for chars := 8 * n; len(ids) < n; chars *= 2 {
		for len(text) < chars {
			text += "\n\n" + string(lab.CorpusText())
		}
		ids = ids[:0]
		for _, id := range tok.Encode(text[:chars]) {
			ids = append(ids, int32(id))
		}
	}
	return ids[:n], nil
}
