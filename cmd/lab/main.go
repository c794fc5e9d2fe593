// Command lab trains small decoder-only Transformers with each positional
// encoding, evaluates them past their training length, and writes the
// results (results.json), small checkpoints and figures.
//
//	go run ./cmd/lab                 # the full lab (about 15 minutes on 2 cores)
//	go run ./cmd/lab --quick         # a small run for CI (about a minute)
//	go run ./cmd/lab --encodings rope,alibi --steps 500 --out /tmp/lab
//	go run ./cmd/lab --bench         # training tokens/s: GoMLX and PyTorch side by side (make bench)
//
// The backend is the course's (posgraph.NewBackend: GOMLX_BACKEND, else XLA
// when installed, else the pure-Go backend). On XLA the default model is
// larger (lab.XLAConfig).
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/posenc/course/pkg/lab"
	"github.com/posenc/course/pkg/posgraph"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lab", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a small, fast run (CI): few steps, short lengths")
	encodings := fs.String("encodings", "", "comma-separated encodings to train (default all: none,sinusoidal,learned,rope,alibi,t5)")
	steps := fs.Int("steps", 0, "training steps per model (0: the config's)")
	trainLen := fs.Int("train-len", 0, "training length L (0: the config's); the passkey distances scale with L, keeping their place\n"+
		"(the config's L−2 becomes the new L−2, its 8L−2 the new 8L−2), and T5's last bucket begins near L\n"+
		"(with L buckets where the config's leave none past the exact ones)")
	layers := fs.Int("layers", 0, "Transformer layers (0: the config's)")
	dim := fs.Int("dim", 0, "model width d_model (0: the config's)")
	heads := fs.Int("heads", 0, "attention heads (0: the config's)")
	batch := fs.Int("batch", 0, "sequences per training step (0: the config's)")
	finetune := fs.Int("finetune-steps", -1, "PI fine-tune steps (-1: the config's, 0: none)")
	bench := fs.Bool("bench", false, "instead: measure training tokens/s of GoMLX (plain and GOEXPERIMENT=simd builds) and PyTorch side by side (make bench)")
	benchRounds := fs.Int("bench-rounds", 3, "with --bench: interleaved rounds")
	benchSteps := fs.Int("bench-steps", 60, "with --bench: timed training steps per side and round")
	benchJSON := fs.String("bench-json", "lab/results/throughput.json", "with --bench: write the numbers here (\"\": nowhere)")
	redraw := fs.Bool("redraw", false, "instead: redraw the figures of <out>/results.json")
	out := fs.String("out", "lab/results", "folder for results.json, checkpoints/ and figures/ (\"\": write nothing)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("lab: unexpected argument %q (flags only; see --help)", fs.Arg(0))
	}
	if *bench {
		return runBench(*benchRounds, *benchSteps, *benchJSON, stdout, stderr)
	}
	if *redraw {
		res, err := lab.ReadResults(filepath.Join(*out, "results.json"))
		if err != nil {
			return err
		}
		return writeFigures(res, *out, stdout)
	}

	backend, err := posgraph.NewBackend()
	if err != nil {
		return err
	}
	config, reason := posgraph.ChooseBackend()
	fmt.Fprintf(stderr, "backend %s (%s)\n", backend.Name(), reason)

	c := lab.DefaultConfig()
	if strings.HasPrefix(config, "xla") {
		c = lab.XLAConfig()
	}
	if *quick {
		c = lab.QuickConfig()
	}
	configLen := c.TrainLen
	if *encodings != "" {
		c.Encodings = nil
		for _, name := range strings.Split(*encodings, ",") {
			e, err := lab.ParseEncoding(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			c.Encodings = append(c.Encodings, e)
		}
	}
	for _, o := range []struct {
		flag string
		v    int
		dst  *int
	}{{"steps", *steps, &c.Steps}, {"train-len", *trainLen, &c.TrainLen}, {"layers", *layers, &c.Layers},
		{"dim", *dim, &c.Dim}, {"heads", *heads, &c.Heads}, {"batch", *batch, &c.Batch}} {
		if o.v < 0 {
			return fmt.Errorf("lab: --%s must not be negative, got %d", o.flag, o.v)
		}
		if o.v > 0 {
			*o.dst = o.v
		}
	}
	if *trainLen > 0 {
		c.PasskeyDistances = scaleDistances(c.PasskeyDistances, configLen, *trainLen)
		// A causal T5 has buckets/2 exact ones; its last must begin past them.
		c.T5MaxLen = *trainLen
		if c.T5Buckets/2 >= *trainLen {
			c.T5Buckets = *trainLen
		}
	}
	switch {
	case *finetune < -1:
		return fmt.Errorf("lab: --finetune-steps must be -1 (the config's) or more, got %d", *finetune)
	case *finetune >= 0:
		c.FinetuneSteps = *finetune
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if *out != "" {
		if err := os.MkdirAll(filepath.Join(*out, "figures"), 0o755); err != nil {
			return err
		}
	}
	res, err := lab.RunLab(c, lab.Options{
		Backend:       backend,
		BackendConfig: config + " (" + backend.Description() + ")",
		OutDir:        *out,
		Progress:      lab.NewProgress(stderr, c.TotalSteps()),
		Command:       strings.TrimSpace("go run ./cmd/lab " + strings.Join(args, " ")),
		Code:          lab.CurrentCode("."),
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, lab.Summary(res))
	if *out == "" {
		return nil
	}
	return writeFigures(res, *out, stdout)
}

// scaleDistances returns the passkey distances of a config trained on
// length from, for training on length to: each keeps its place relative to
// L, the sequence length it needs (d+2: key, value d before the query, and
// the query) scaled by to/from and rounded, so that L−2, 2L−2, … 8L−2 map to
// the new L−2, 2L−2, … 8L−2. Distances are at least 1; ones that round to
// the same distance appear once.
func scaleDistances(distances []int, from, to int) []int {
	var out []int
	for _, d := range distances {
		n := max(int(math.Round(float64((d+2)*to)/float64(from)))-2, 1)
		if len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return out
}

// writeFigures draws the lab's figures into out/figures.
func writeFigures(res *lab.Results, out string, stdout io.Writer) error {
	dir := filepath.Join(out, "figures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths, err := lab.WriteFigures(res, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %d figures in %s\n", filepath.Join(out, "results.json"), len(paths), dir)
	return nil
}
