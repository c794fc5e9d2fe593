// Command modelresults runs the long run of SmolLM2-135M (make
// model-results): the NLL of three long texts by position range under six
// RoPE scalings, and passkey retrieval by length and depth, into
// model/results (package pkg/smollm/longrun). It is resumable: each cell
// is written when done, and a re-run skips the cells on disk.
//
//	go run ./cmd/modelresults            the committed run, into model/results
//	go run ./cmd/modelresults --quick    512-token windows, one trial, into build/model-results-quick
//
// The backend is the course's (posgraph: GOMLX_BACKEND, else XLA when
// installed, else the pure-Go backend, about 20 times slower);
// scripts/model-results.sh picks XLA's CPU plugin when make xla-test has
// installed it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/posenc/course/pkg/bpe"
	"github.com/posenc/course/pkg/gguf"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
	"github.com/posenc/course/pkg/smollm/longrun"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run returns the exit status: 0 done, 1 failed, 2 bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("modelresults", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "a small run (512-token windows, one passkey trial) into build/model-results-quick, to try the code")
	out := fs.String("out", "", "the results folder (default model/results, or build/model-results-quick with --quick)")
	only := fs.String("only", "", "summarize only: rebuild summary.json and summary.md from the cells on disk (value: summary)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "modelresults: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *only != "" && *only != "summary" {
		fmt.Fprintf(stderr, "modelresults: --only %q: the only value is summary\n", *only)
		return 2
	}
	cfg, dir := longrun.DefaultConfig(), "model/results"
	if *quick {
		cfg, dir = longrun.QuickConfig(), "build/model-results-quick"
	}
	if *out != "" {
		dir = *out
	}
	store := longrun.Store{Dir: dir}
	if *only == "summary" {
		if err := longrun.WriteSummary(store, cfg); err != nil {
			fmt.Fprintf(stderr, "modelresults: %v\n", err)
			return 1
		}
		return 0
	}
	path, err := smollm.Find()
	if err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	w, err := smollm.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	f, err := gguf.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	tok, err := bpe.FromGGUF(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	backend, err := posgraph.NewBackend()
	if err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	config, reason := posgraph.ChooseBackend()
	command := strings.TrimSpace("go run ./cmd/modelresults " + strings.Join(args, " "))
	prov := longrun.NewProvenance(command, ".", config+" ("+backend.Description()+"; "+reason+")")
	if prov.Dirty {
		fmt.Fprintln(stderr, "modelresults: warning: code that decides the numbers has uncommitted changes; the cells will say dirty")
	}
	fmt.Fprintf(stderr, "modelresults: %s on %s into %s\n", command, prov.Backend, dir)
	engine := &longrun.ModelEngine{Backend: backend, Weights: w, ChunkSize: cfg.ChunkSize}
	if err := longrun.Run(cfg, store, engine, tok, prov, stderr); err != nil {
		fmt.Fprintf(stderr, "modelresults: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "modelresults: tables in %s/summary.md\n", dir)
	return 0
}
