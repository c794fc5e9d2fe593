package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/smollm"
)

func TestParseTask(t *testing.T) {
	for _, c := range []struct {
		in   string
		want task
		ok   bool
	}{
		{"prefill:512", task{Kind: "prefill", Prompt: 512}, true},
		{"decode:64@512", task{Kind: "decode", Prompt: 512, Decoded: 64}, true},
		{"memory:16384", task{Kind: "memory", Prompt: 16384}, true},
		{"prefill:0", task{}, false},
		{"prefill:-3", task{}, false},
		{"prefill:012", task{}, false},
		{"prefill", task{}, false},
		{"decode:64", task{}, false},
		{"decode:@512", task{}, false},
		{"train:5", task{}, false},
	} {
		got, err := parseTask(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseTask(%q) = %+v, %v; want %+v, ok %t", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != c.in {
			t.Errorf("parseTask(%q).String() = %q", c.in, got.String())
		}
	}
	d := task{Kind: "decode", Prompt: 2048, Decoded: 64}
	if d.label() != "decode 64 after 2,048" || d.tokens() != 2112 || d.timed() != 64 {
		t.Errorf("decode:64@2048: label %q, tokens %d, timed %d", d.label(), d.tokens(), d.timed())
	}
}

func TestParseFlags(t *testing.T) {
	c, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.tasks) != 5 || len(c.goTasks) != 2 || strings.Join(c.sides, ",") != "xla,torch,go" || c.rounds != 2 || c.repeat != 3 ||
		c.chunk != smollm.DefaultChunkSize || c.keyBlock != smollm.DefaultKeyBlockSize {
		t.Errorf("defaults: %+v", c)
	}
	c, err = parseFlags([]string{"--chunk", "256", "--key-block", "2048"})
	if err != nil || c.chunk != 256 || c.keyBlock != 2048 {
		t.Errorf("--chunk 256 --key-block 2048: chunk %d, key block %d, %v", c.chunk, c.keyBlock, err)
	}
	c, err = parseFlags([]string{"--long"})
	if err != nil || c.tasks[len(c.tasks)-1] != (task{Kind: "memory", Prompt: longTokens}) {
		t.Errorf("--long: tasks %v, %v; want memory:%d last", c.tasks, err, longTokens)
	}
	for _, args := range [][]string{
		{"--rounds", "0"}, {"--repeat", "-1"}, {"--threads", "0"}, {"--threads", "100000"},
		{"--chunk", "0"}, {"--key-block", "-512"},
		{"--tasks", "prefill:x"}, {"--go-tasks", "decode:1"}, {"--sides", "xla,cuda"}, {"--sides", "go,go"}, {"extra"}, {"--nosuch"},
	} {
		if _, err := parseFlags(args); err == nil || !strings.HasPrefix(err.Error(), "model-bench: ") {
			t.Errorf("parseFlags(%q) = %v; want an error naming model-bench", args, err)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--rounds", "0"}, &out, &errOut); code != exitUsage || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("bad flag: exit %d, stderr %q; want %d and one line", code, errOut.String(), exitUsage)
	}
}

// TestFinish checks that a side's figure is its minimum over every run of
// every process, PyTorch's over both wait policies, that ratios are of
// those minima, and that the goal is judged on every prefill row.
func TestFinish(t *testing.T) {
	c, err := parseFlags([]string{"--tasks", "prefill:100,decode:10@100", "--go-tasks", "prefill:100"})
	if err != nil {
		t.Fatal(err)
	}
	one := func(s float64) *float64 { return &s }
	tr := func(name string, peak float64, s ...float64) taskResult {
		return taskResult{Task: name, Seconds: s, WarmupSeconds: one(9), PeakRSSMiB: peak, PeakIsTask: true}
	}
	byRound := map[string][]sideResult{
		sideXLA: {
			{Description: "xla", Tasks: []taskResult{tr("prefill:100", 900, 2, 1.5), tr("decode:10@100", 950, 1, 2)}},
			{Description: "xla", Tasks: []taskResult{tr("prefill:100", 1000, 1.25, 3), tr("decode:10@100", 900, 0.5, 4)}},
		},
		sideTorch: {
			{Description: "torch", Tasks: []taskResult{tr("prefill:100", 700, 4, 5), tr("decode:10@100", 700, 2, 2)}},
			{Description: "torch passive", OMPWaitPolicy: "PASSIVE", Tasks: []taskResult{tr("prefill:100", 700, 2.5), tr("decode:10@100", 700, 1)}},
		},
		sideGo: {{Description: "go", Tasks: []taskResult{tr("prefill:100", 800, 20, 25)}}},
	}
	r := newResults(c, "/x/model.gguf")
	r.finish(c, byRound)
	if len(r.Rows) != 2 || r.Rows[0].Task != "prefill:100" || r.Rows[1].Task != "decode:10@100" {
		t.Fatalf("rows %+v", r.Rows)
	}
	p, d := r.Rows[0], r.Rows[1]
	near := func(got, want float64, what string) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %g; want %g", what, got, want)
		}
	}
	near(p.Cells[sideXLA].MinSeconds, 1.25, "XLA's prefill minimum")
	near(p.Cells[sideXLA].TokensPerSecond, 80, "XLA's prefill tokens/s")
	near(p.Cells[sideXLA].PeakRSSMiB, 1000, "XLA's peak (the larger)")
	near(p.Cells[sideTorch].MinSeconds, 2.5, "PyTorch's prefill minimum (PASSIVE's)")
	near(p.Cells[sideTorch].ByOMPWaitPolicy["default"], 4, "PyTorch's default-policy minimum")
	near(p.XLAOverTorch, 2, "XLA / torch at prefill")
	near(p.GoOverTorch, 0.125, "Go / torch at prefill")
	near(d.Cells[sideXLA].TokensPerSecond, 20, "XLA's decode tokens/s (10 tokens in 0.5 s)")
	near(d.XLAOverTorch, 2, "XLA / torch at decode")
	if d.Cells[sideGo] != nil || d.GoOverTorch != 0 {
		t.Errorf("decode has a Go cell %+v, ratio %g; the Go side did not run it", d.Cells[sideGo], d.GoOverTorch)
	}
	if len(p.Cells[sideXLA].WarmupSeconds) != 2 || len(p.Cells[sideXLA].Seconds) != 4 {
		t.Errorf("XLA's prefill cell %+v; want both processes' runs and warm-ups", p.Cells[sideXLA])
	}
	if r.GoalMet == nil || !*r.GoalMet {
		t.Errorf("goal %v; want met (XLA 2× torch on the one prefill)", r.GoalMet)
	}
	var out bytes.Buffer
	printTable(&out, r)
	for _, want := range []string{"prefill 100", "80.0", "40.0", "2.00×", "0.12×", "decode 10 after 100", "1000 / 700 / 800", "goal"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}

	// A side left out leaves no row of its own; a memory row has no ratio.
	c2, _ := parseFlags([]string{"--sides", "xla,torch", "--tasks", "memory:100"})
	r = newResults(c2, "/x/model.gguf")
	r.finish(c2, map[string][]sideResult{
		sideXLA:   {{Tasks: []taskResult{tr("memory:100", 900, 5)}}},
		sideTorch: {{Tasks: []taskResult{tr("memory:100", 700, 1)}}},
	})
	if len(r.Rows) != 1 || r.Rows[0].XLAOverTorch != 0 || r.GoalMet != nil {
		t.Errorf("memory only, without the Go side: rows %+v, goal %v; want one row, no ratio, no goal", r.Rows, r.GoalMet)
	}

	// One prefill slower than PyTorch: the goal is not met.
	byRound[sideXLA][1].Tasks[0] = tr("prefill:100", 900, 3)
	byRound[sideXLA][0].Tasks[0] = tr("prefill:100", 900, 3)
	r = newResults(c, "/x/model.gguf")
	r.finish(c, byRound)
	if r.GoalMet == nil || *r.GoalMet {
		t.Errorf("goal %v; want not met (XLA 3 s, torch 2.5 s)", r.GoalMet)
	}
}

// A memory task runs in each side's first process only: the later ones
// get the list without it.
func TestWithoutMemory(t *testing.T) {
	ts, err := parseTasks("prefill:8,memory:16384,decode:2@8")
	if err != nil {
		t.Fatal(err)
	}
	got := withoutMemory(ts)
	if len(got) != 2 || got[0].String() != "prefill:8" || got[1].String() != "decode:2@8" || len(withoutMemory(ts[1:2])) != 0 {
		t.Errorf("withoutMemory(%v) = %v; want the prefill and decode tasks", ts, got)
	}
}
