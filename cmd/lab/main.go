// Command lab trains small decoder-only Transformers with each positional
// encoding, with several seeds, evaluates them past their training length
// on loss and on recall, and writes the results (results.json), the first
// seed's checkpoints and figures.
//
//	go run ./cmd/lab                   # lesson 8's lab (make lab-results; its time is in README; resumes from <out>/cells)
//	go run ./cmd/lab --suite layers    # lesson 9's layer patterns, into lab/results/layers
//	go run ./cmd/lab --quick --out /tmp/lab   # a small run for CI (seconds)
//	go run ./cmd/lab --encodings rope,alibi --seeds 1 --steps 500 --out /tmp/lab
//	go run ./cmd/lab --bench           # training tokens/s: GoMLX and PyTorch side by side (make bench)
//	go run ./cmd/lab --redraw          # redraw the figures of lab/results
//
// The backend is the course's (posgraph.NewBackend: GOMLX_BACKEND, else XLA
// when installed, else the pure-Go backend); training is deterministic on
// each.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/lab/report"
	"github.com/posenc/course/pkg/posgraph"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(exitCode(err))
}

// exitCode is the exit status after run returned err: 0 for none and for
// -help, 2 for a usage error, 1 for any other.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		return 2
	}
	return 1
}

// usageError is a bad flag or argument: exit status 2, like the flag
// package's own.
type usageError struct{ error }

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	suite := fs.String("suite", "lab", "what to run: lab (lesson 8) or layers (lesson 9's layer patterns)")
	quick := fs.Bool("quick", false, "a small, fast version of the suite (CI): few steps, short lengths")
	encodings := fs.String("encodings", "", "comma-separated encodings to train (default the suite's: none,sinusoidal,learned,rope,alibi,t5 for lab)")
	variants := fs.Bool("variants", true, "also train the suite's variants (rope-hd8 and the controls for the gaps at L; rope-nope-3:1 and p-rope)")
	seeds := fs.String("seeds", "", "comma-separated seeds (default the suite's: 1,2,3,4,5; the controls take the first three)")
	steps := fs.Int("steps", 0, "training steps per model (0: the suite's)")
	finetune := fs.Int("finetune-steps", -1, "steps of each 4L fine-tune, with and without PI (-1: the suite's, 0: none)")
	bench := fs.Bool("bench", false, "instead: measure training tokens/s of GoMLX (Go backend, XLA CPU when installed) and PyTorch side by side (make bench)")
	benchRounds := fs.Int("bench-rounds", 3, "with --bench: interleaved rounds")
	benchSteps := fs.Int("bench-steps", 60, "with --bench: timed training steps per side and round")
	benchJSON := fs.String("bench-json", "lab/results/throughput.json", "with --bench: write the numbers here (\"\": nowhere)")
	redraw := fs.Bool("redraw", false, "instead: redraw the figures of <out>/results.json")
	out := fs.String("out", "", "folder for results.json, checkpoints/ and figures/ (default lab/results, lab/results/layers for --suite layers; \"-\": write nothing)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("lab: unexpected argument %q (flags only; see -help)", fs.Arg(0))}
	}
	var c lab.Config
	switch *suite {
	case "lab":
		c = lab.DefaultConfig()
	case "layers":
		c = lab.LayersConfig()
	default:
		return usageError{fmt.Errorf("lab: --suite must be lab or layers, got %q", *suite)}
	}
	if *out == "" {
		*out = "lab/results"
		if *suite == "layers" {
			*out = "lab/results/layers"
		}
	}
	if *out == "-" {
		*out = ""
	}
	if *bench {
		if *benchRounds < 1 || *benchSteps < 1 {
			return usageError{fmt.Errorf("lab: --bench-rounds and --bench-steps must be positive, got %d and %d", *benchRounds, *benchSteps)}
		}
		return runBench(*benchRounds, *benchSteps, *benchJSON, stdout, stderr)
	}
	if *redraw {
		res, err := lab.ReadResults(filepath.Join(*out, "results.json"))
		if err != nil {
			return err
		}
		return writeFigures(res, *out, stdout)
	}
	if *quick {
		c = lab.Quick(c)
	}
	if *encodings != "" {
		c.Encodings = nil
		for _, name := range strings.Split(*encodings, ",") {
			e, err := lab.ParseEncoding(strings.TrimSpace(name))
			if err != nil {
				return usageError{err}
			}
			if slices.Contains(c.Encodings, e) {
				return usageError{fmt.Errorf("lab: --encodings names %s twice", e)}
			}
			c.Encodings = append(c.Encodings, e)
		}
	}
	if !*variants {
		c.Variants = nil
	}
	if *seeds != "" {
		c.Seeds = nil
		for _, s := range strings.Split(*seeds, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return usageError{fmt.Errorf("lab: --seeds must be integers separated by commas, got %q", *seeds)}
			}
			if slices.Contains(c.Seeds, v) {
				return usageError{fmt.Errorf("lab: --seeds names %d twice", v)}
			}
			c.Seeds = append(c.Seeds, v)
		}
	}
	switch {
	case *steps < 0:
		return usageError{fmt.Errorf("lab: --steps must not be negative, got %d", *steps)}
	case *steps > 0:
		c.Steps = *steps
	}
	switch {
	case *finetune < -1:
		return usageError{fmt.Errorf("lab: --finetune-steps must be -1 (the suite's) or more, got %d", *finetune)}
	case *finetune >= 0:
		c.FinetuneSteps = *finetune
	}
	if err := c.Validate(); err != nil {
		return usageError{err}
	}

	backend, err := posgraph.NewBackend()
	if err != nil {
		return err
	}
	config, reason := posgraph.ChooseBackend()
	fmt.Fprintf(stderr, "backend %s (%s)\n", backend.Name(), reason)
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return err
		}
	}
	command := strings.TrimSpace("go run ./cmd/lab " + strings.Join(args, " "))
	res, err := lab.RunLab(c, lab.Options{
		Backend:    backend,
		OutDir:     *out,
		Observer:   report.NewProgress(stderr, c.TotalSteps()),
		Provenance: report.NewProvenance(command, ".", config+" ("+backend.Description()+")"),
		Finish:     report.Finish,
		SameCode:   report.SameCode("."),
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, report.Summary(res))
	if *out == "" {
		return nil
	}
	return writeFigures(res, *out, stdout)
}

// writeFigures draws the lab's figures into out/figures.
func writeFigures(res *lab.Results, out string, stdout io.Writer) error {
	dir := filepath.Join(out, "figures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths, err := report.WriteFigures(res, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %d figures in %s\n", filepath.Join(out, "results.json"), len(paths), dir)
	return nil
}
