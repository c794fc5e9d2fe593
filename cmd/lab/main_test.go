package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestBadFlags(t *testing.T) {
	t.Setenv("GOMLX_BACKEND", "go")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `lab: unexpected argument "extra"`},
		{[]string{"--encodings", "rope,xpos"}, `lab: unknown encoding "xpos"`},
		{[]string{"--steps", "-3"}, "lab: --steps must not be negative, got -3"},
		{[]string{"--train-len", "-64"}, "lab: --train-len must not be negative, got -64"},
		{[]string{"--batch", "-1"}, "lab: --batch must not be negative, got -1"},
		{[]string{"--finetune-steps", "-7"}, "lab: --finetune-steps must be -1 (the config's) or more, got -7"},
		{[]string{"--dim", "30"}, "lab: dim must be a multiple of 2·heads"},
		{[]string{"--train-len", "2"}, "lab: training length must be at least 4, got 2"},
		{[]string{"--nosuch"}, "flag provided but not defined: -nosuch"},
		{[]string{"--bench", "--bench-rounds", "0"}, "lab: --bench-rounds and --bench-steps must be positive"},
		{[]string{"--redraw", "--out", t.TempDir()}, "results.json: no such file or directory"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), c.want) {
			t.Errorf("run(%q) = %v (stderr %q); want an error containing %q", c.args, err, stderr.String(), c.want)
		}
	}
}

// A tiny run end to end through the command: its summary and files.
func TestTinyRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two models")
	}
	t.Setenv("GOMLX_BACKEND", "go")
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run([]string{"--quick", "--encodings", "alibi,learned", "--steps", "3", "--out", dir}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"alibi", "learned", "—", "wrote " + dir} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "3/3") {
		t.Errorf("no progress bar on stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), ", lab ") {
		t.Errorf("no ETA of the whole lab on stderr:\n%s", stderr.String())
	}
}

// The bench's load averages read as /proc/loadavg writes them.
func TestLoadavg(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		t.Skip("no /proc/loadavg")
	}
	if got := loadavg(); !regexp.MustCompile(`^\d+\.\d\d \d+\.\d\d \d+\.\d\d$`).MatchString(got) {
		t.Errorf("loadavg() = %q; want three numbers with two decimals", got)
	}
}
