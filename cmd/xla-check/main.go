// Command xla-check measures the GoMLX backend that posgraph.NewBackend picks
// (GOMLX_BACKEND: xla:cpu, xla:cuda or go) against pkg/posenc's host code,
// and prints one line per figure:
//
//   - device: the backend and its first device;
//   - agreement: the largest |graph − host| of posgraph.ApplyRoPE (both
//     layouts, a start offset) and ApplyRoPEAt against posenc's float64
//     ApplyRoPETo on the same float32 inputs, next to the float32 rounding
//     of the values (the graph computes in float32);
//   - rope: posgraph.ApplyRoPE against GoMLX's ml/layers/attention/pos.RoPE
//     on the same input and backend, interleaved and with halves, each
//     compiled first, then timed alternately over rounds, minimum per call;
//   - train: steps per second of a small Transformer classifier (embeddings,
//     sinusoidal positions, one attention layer, feed-forward, Adam) trained
//     with GoMLX's train.Trainer, after a compiling first step, and its loss.
//
// scripts/gpu-check.sh runs it on a GPU (xla:cuda); make bench on xla:cpu.
//
//	go run ./cmd/xla-check                       # the backend GOMLX_BACKEND picks
//	go run ./cmd/xla-check -shape 1x8x1024x64 -rounds 3 -steps 50
//
// Bad flags exit with status 2 and a one-line message; a backend that does
// not start, or a graph that disagrees with the host beyond tolerance, exits
// with status 1.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// options is the parsed command line.
type options struct {
	shape  [4]int // the RoPE input: batch, heads, seq, headDim
	rounds int
	steps  int
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	o := options{}
	f := flag.NewFlagSet("xla-check", flag.ContinueOnError)
	f.SetOutput(io.Discard)
	shape := f.String("shape", "4x32x4096x128", "RoPE input shape batch×heads×seq×headDim (headDim even)")
	f.IntVar(&o.rounds, "rounds", 5, "timing rounds, alternating the two RoPE implementations")
	f.IntVar(&o.steps, "steps", 100, "timed training steps (0: no training)")
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "usage: xla-check [-shape BxHxSxD] [-rounds N] [-steps N]")
			f.SetOutput(stderr)
			f.PrintDefaults()
		}
		return o, err
	}
	if f.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (all options are flags)", f.Arg(0))
	}
	parts := strings.Split(*shape, "x")
	if len(parts) != 4 {
		return o, fmt.Errorf("-shape: want batch×heads×seq×headDim such as 4x32x4096x128, got %q", *shape)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return o, fmt.Errorf("-shape: want positive sizes, got %q in %q", p, *shape)
		}
		o.shape[i] = n
	}
	if o.shape[3]%2 != 0 {
		return o, fmt.Errorf("-shape: headDim must be even, got %d", o.shape[3])
	}
	if o.rounds < 1 {
		return o, fmt.Errorf("-rounds: want at least 1, got %d", o.rounds)
	}
	if o.steps < 0 {
		return o, fmt.Errorf("-steps: want 0 or more, got %d", o.steps)
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "xla-check: %v\n", err)
		return exitUsage
	}
	if err := check(o, stdout); err != nil {
		fmt.Fprintf(stderr, "xla-check: %v\n", err)
		return exitFailure
	}
	return exitOK
}
