package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
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

// --train-len moves the passkey distances with L: L−2 stays L−2, 8L−2 stays
// 8L−2.
func TestScaleDistances(t *testing.T) {
	d := lab.DefaultConfig().PasskeyDistances // L = 64: 4 … 62 (L−2) … 510 (8L−2)
	for _, c := range []struct {
		to   int
		want []int
	}{
		{64, d},
		{32, []int{1, 3, 7, 15, 23, 30, 47, 62, 95, 126, 191, 254}},
		{16, []int{1, 3, 7, 11, 14, 23, 30, 47, 62, 95, 126}}, // 4 and 8 both become 1
		{128, []int{10, 18, 34, 66, 98, 126, 194, 254, 386, 510, 770, 1022}},
	} {
		if got := scaleDistances(d, 64, c.to); !slices.Equal(got, c.want) {
			t.Errorf("scaleDistances(L 64 → %d) = %v; want %v", c.to, got, c.want)
		}
	}
}

// A --train-len below the config's trains: the passkey distances and T5's
// buckets follow it.
func TestShortTrainLen(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	t.Setenv("GOMLX_BACKEND", "go")
	var stdout, stderr bytes.Buffer
	// The quick config's L 16 and 16 buckets: at L 8, 8 exact buckets would leave T5 none.
	err := run([]string{"--quick", "--train-len", "8", "--encodings", "t5", "--steps", "2", "--out", ""}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "d=62") || strings.Contains(stdout.String(), "d=126") {
		t.Errorf("want passkey distances up to 8L−2 = 62:\n%s", stdout.String())
	}
}
