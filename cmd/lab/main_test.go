package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

// Every bad flag or argument is a usage error (exit status 2) saying what
// is wrong, found before anything trains.
func TestBadFlags(t *testing.T) {
	t.Setenv("GOMLX_BACKEND", "go")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `lab: unexpected argument "extra"`},
		{[]string{"--quick", "extra"}, `unexpected argument "extra"`},
		{[]string{"--nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"--suite", "bogus"}, `lab: --suite must be lab or layers, got "bogus"`},
		{[]string{"--suite", ""}, `--suite must be lab or layers, got ""`},
		{[]string{"--seeds", "x"}, `lab: --seeds must be integers separated by commas, got "x"`},
		{[]string{"--seeds", "1,,2"}, `--seeds must be integers separated by commas, got "1,,2"`},
		{[]string{"--seeds", "1,2,1"}, "lab: --seeds names 1 twice"},
		{[]string{"--steps", "-1"}, "lab: --steps must not be negative, got -1"},
		{[]string{"--steps", "many"}, `invalid value "many" for flag -steps`},
		{[]string{"--finetune-steps", "-2"}, "lab: --finetune-steps must be -1 (the suite's) or more, got -2"},
		{[]string{"--encodings", "rope,xpos"}, `lab: unknown encoding "xpos"`},
		{[]string{"--encodings", "rope,alibi,rope"}, "lab: --encodings names rope twice"},
		{[]string{"--quick=maybe"}, `invalid boolean value "maybe" for -quick`},
		{[]string{"--bench", "--bench-rounds", "0"}, "lab: --bench-rounds and --bench-steps must be positive, got 0 and 60"},
		{[]string{"--bench", "--bench-steps", "-5"}, "got 3 and -5"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(c.args, &stdout, &stderr)
		if !errors.As(err, new(usageError)) || exitCode(err) != 2 {
			t.Errorf("run(%q) = %v (%T); want a usage error, exit status 2", c.args, err, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%q) = %v; want an error containing %q", c.args, err, c.want)
		}
		if stdout.Len() > 0 || strings.Contains(stderr.String(), "GOMLX_BACKEND is set") { // the line a run begins with
			t.Errorf("run(%q) began a run: stdout %q, stderr %q", c.args, stdout.String(), stderr.String())
		}
	}
	// The flag package prints what is wrong and the usage to stderr.
	var stderr bytes.Buffer
	if err := run([]string{"--nosuch"}, new(bytes.Buffer), &stderr); err == nil || !strings.Contains(stderr.String(), "-suite") {
		t.Errorf("--nosuch: stderr %q; want the usage", stderr.String())
	}
}

// -help prints the usage and is no error (exit status 0); a failure that
// is not the flags' exits with 1.
func TestExitCode(t *testing.T) {
	for _, args := range [][]string{{"-help"}, {"-h"}, {"--quick", "--help"}} {
		var stderr bytes.Buffer
		err := run(args, new(bytes.Buffer), &stderr)
		if !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 || !strings.Contains(stderr.String(), "-finetune-steps") {
			t.Errorf("run(%q) = %v, exit status %d, stderr %q; want flag.ErrHelp, 0 and the usage", args, err, exitCode(err), stderr.String())
		}
	}
	// --redraw of a folder without results.json: a failure, not a usage error.
	err := run([]string{"--redraw", "--out", t.TempDir()}, new(bytes.Buffer), new(bytes.Buffer))
	if err == nil || !errors.Is(err, os.ErrNotExist) || exitCode(err) != 1 {
		t.Errorf("--redraw without results: %v, exit status %d; want a missing results.json, 1", err, exitCode(err))
	}
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{flag.ErrHelp, 0},
		{fmt.Errorf("parsing: %w", flag.ErrHelp), 0},
		{usageError{errors.New("bad")}, 2},
		{fmt.Errorf("lab: %w", usageError{errors.New("bad")}), 2},
		{errors.New("training failed"), 1},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("exitCode(%v) = %d; want %d", c.err, got, c.want)
		}
	}
}

// A tiny run end to end through the command: its summary, progress,
// results and figures, then the figures redrawn from its results.
func TestTinyRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two models, two fine-tunes and the controls")
	}
	t.Setenv("GOMLX_BACKEND", "go")
	dir := t.TempDir()
	args := []string{"--quick", "--seeds", "1", "--encodings", "rope", "--steps", "3", "--out", dir}
	var stdout, stderr bytes.Buffer
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"rope-hd8", "rope+pi-finetune", "rope+yarn-notemp", "sinusoidal-scaled", "wrote " + filepath.Join(dir, "results.json") + " and 10 figures"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, want := range []string{"(GOMLX_BACKEND is set)", "3/3", ", lab "} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q (the backend, the progress bar, the lab's ETA):\n%s", want, stderr.String())
		}
	}
	res, err := lab.ReadResults(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := lab.Quick(lab.DefaultConfig())
	want.Seeds, want.Encodings, want.Steps = []int64{1}, []lab.Encoding{lab.RoPE}, 3
	if got := res.Config; got.Steps != 3 || !slices.Equal(got.Seeds, want.Seeds) || !slices.Equal(got.Encodings, want.Encodings) || got.TrainLen != want.TrainLen {
		t.Errorf("config %+v; want Quick(DefaultConfig()) with seed 1, rope, 3 steps", got)
	}
	if p := res.Provenance; p.Command != "go run ./cmd/lab "+strings.Join(args, " ") || !strings.HasPrefix(p.Backend, "go") {
		t.Errorf("provenance %+v; want the command and the Go backend", p)
	}
	if got := len(res.Runs); got != 2+len(lab.Methods)+2+len(lab.Controls()) {
		t.Errorf("%d runs; want rope, rope-hd8, rope's %d scalings, 2 fine-tunes and the %d controls", got, len(lab.Methods), len(lab.Controls()))
	}
	figures := filepath.Join(dir, "figures")
	pngs, _ := filepath.Glob(filepath.Join(figures, "*.png"))
	if len(pngs) != 10 {
		t.Errorf("figures %v; want 10", pngs)
	}
	// --redraw draws them again from results.json, training nothing.
	if err := os.RemoveAll(figures); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if err := run([]string{"--redraw", "--out", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("--redraw: %v\n%s", err, stderr.String())
	}
	if again, _ := filepath.Glob(filepath.Join(figures, "*.png")); !slices.Equal(again, pngs) || !strings.Contains(stdout.String(), "10 figures") {
		t.Errorf("--redraw drew %v (%q); want %v", again, stdout.String(), pngs)
	}
}
