// Command bench measures pkg/posenc side by side with the textbook numpy
// code it replaces, and pkg/posgraph with GoMLX's own RoPE, and checks the
// host layer's targets. `make bench` runs it from the repository root.
//
// It builds the test binaries of pkg/posenc and pkg/posgraph once, then for
// each round runs the Go benchmarks (BenchmarkSinusoidal, BenchmarkRoPE,
// BenchmarkALiBi, BenchmarkCopy; BenchmarkGraphRoPE, BenchmarkGoMLXPosRoPE,
// BenchmarkGraphSinusoidal) and scripts/bench_numpy.py under the system
// python3 with Debian's numpy, alternating which goes first. Both sides of
// every comparison are taken the same way: each side's minimum over all
// rounds (numpy's over all its repetitions), the run least disturbed by
// other work on the machine, and ratios of those minima. The same numbers,
// with every round's raw values and the machine they were taken on, go to
// a JSON file.
//
//	go run ./cmd/bench                    # 5 rounds, table + cmd/bench/results.json
//	go run ./cmd/bench --rounds 9 --json /tmp/b.json
//	go run ./cmd/bench --no-numpy         # Go side only
//
// Bad flags exit with status 2 and a one-line message; a benchmark that
// fails to build or run exits with status 1. Targets that are not met are
// reported in the table and the JSON but do not change the exit status.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// config is the parsed command line.
type config struct {
	rounds      int
	benchtime   string
	numpyRepeat int
	jsonPath    string
	python      string
	script      string
	noNumpy     bool
	noInstall   bool
	goCmd       string
}

func parseFlags(args []string) (config, error) {
	var c config
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&c.rounds, "rounds", 5, "rounds of Go benchmarks and numpy, interleaved")
	fs.StringVar(&c.benchtime, "benchtime", "1s", "go test -benchtime for each benchmark in a round (a duration or Nx)")
	fs.IntVar(&c.numpyRepeat, "numpy-repeat", 3, "timed repetitions of each numpy kernel per round")
	fs.StringVar(&c.jsonPath, "json", "cmd/bench/results.json", "write the results as JSON to this file (\"\" for none)")
	fs.StringVar(&c.python, "python", "/usr/bin/python3", "the python3 that has Debian's numpy")
	fs.StringVar(&c.script, "numpy-script", "scripts/bench_numpy.py", "the numpy side")
	fs.BoolVar(&c.noNumpy, "no-numpy", false, "measure the Go side only")
	fs.BoolVar(&c.noInstall, "no-install", false, "do not try to install python3-numpy when it is missing")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, fmt.Errorf("bench: %v", err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	}
	if c.rounds < 1 {
		return c, fmt.Errorf("bench: --rounds must be >= 1, got %d", c.rounds)
	}
	if c.numpyRepeat < 1 {
		return c, fmt.Errorf("bench: --numpy-repeat must be >= 1, got %d", c.numpyRepeat)
	}
	if !validBenchtime(c.benchtime) {
		return c, fmt.Errorf("bench: --benchtime must be a duration such as 1s or a count such as 10x, got %q", c.benchtime)
	}
	c.goCmd = os.Getenv("GO")
	if c.goCmd == "" {
		c.goCmd = "go"
	}
	return c, nil
}

func validBenchtime(s string) bool {
	if n := len(s); n > 1 && s[n-1] == 'x' {
		var k int
		_, err := fmt.Sscanf(s[:n-1], "%d", &k)
		return err == nil && k > 0 && fmt.Sprint(k) == s[:n-1]
	}
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}

const usage = `usage: bench [--rounds N] [--benchtime 1s|Nx] [--numpy-repeat N] [--json FILE]
             [--python /usr/bin/python3] [--numpy-script FILE] [--no-numpy] [--no-install]

Runs pkg/posenc's and pkg/posgraph's benchmarks and the textbook numpy code
side by side, interleaved over rounds, and prints one table: time, GB/s,
share of the plain-loop copy bandwidth, speed-up over numpy and over GoMLX's
pos.RoPE (minimum against minimum), and the host layer's targets.
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
	res, err := measure(c, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return exitFailure
	}
	printReport(stdout, res)
	if c.jsonPath != "" {
		if err := writeJSON(c.jsonPath, res); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return exitFailure
		}
		fmt.Fprintf(stdout, "\nJSON: %s\n", c.jsonPath)
	}
	return exitOK
}
