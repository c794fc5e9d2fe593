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
	if len(c.tasks) != 5 || len(c.goTasks) != 2 || strings.Join(c.sides, ",") != "xla,torch,go" || c.rounds != 5 || c.repeat != 3 ||
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
// those minima, that the paired ratios pair each round's processes, and
// that the goal is judged on the prefill rows of the sizes only.
func TestFinish(t *testing.T) {
	c, err := parseFlags([]string{"--tasks", "prefill:512,decode:10@100,prefill:100", "--go-tasks", "prefill:100"})
	if err != nil {
		t.Fatal(err)
	}
	one := func(s float64) *float64 { return &s }
	tr := func(name string, peak float64, s ...float64) taskResult {
		return taskResult{Task: name, Seconds: s, WarmupSeconds: one(9), PeakRSSMiB: peak, PeakIsTask: true}
	}
	// Two rounds. The 100-token prefill is slower than PyTorch in both:
	// outside the goal's sizes, it leaves the goal alone.
	byRound := map[string][]sideResult{
		sideXLA: {
			{Round: 0, Description: "xla", Tasks: []taskResult{tr("prefill:512", 900, 2, 1.5), tr("decode:10@100", 950, 1, 2), tr("prefill:100", 900, 2)}},
			{Round: 1, Description: "xla", Tasks: []taskResult{tr("prefill:512", 1000, 1.25, 3), tr("decode:10@100", 900, 0.5, 4), tr("prefill:100", 900, 2)}},
		},
		sideTorch: {
			{Round: 0, Description: "torch", Tasks: []taskResult{tr("prefill:512", 700, 4, 5), tr("decode:10@100", 700, 2, 2), tr("prefill:100", 700, 1)}},
			{Round: 0, Description: "torch passive", OMPWaitPolicy: "PASSIVE", Tasks: []taskResult{tr("prefill:512", 700, 2.5), tr("decode:10@100", 700, 1), tr("prefill:100", 700, 1.5)}},
			{Round: 1, Description: "torch", Tasks: []taskResult{tr("prefill:512", 700, 3), tr("decode:10@100", 700, 2), tr("prefill:100", 700, 1)}},
			{Round: 1, Description: "torch passive", OMPWaitPolicy: "PASSIVE", Tasks: []taskResult{tr("prefill:512", 700, 3.75), tr("decode:10@100", 700, 3), tr("prefill:100", 700, 1)}},
		},
		sideGo: {{Description: "go", Tasks: []taskResult{tr("prefill:100", 800, 20, 25)}}},
	}
	r := newResults(c, "/x/model.gguf")
	r.finish(c, byRound)
	if len(r.Rows) != 3 || r.Rows[0].Task != "prefill:512" || r.Rows[1].Task != "decode:10@100" || r.Rows[2].Task != "prefill:100" {
		t.Fatalf("rows %+v", r.Rows)
	}
	p, d, short := r.Rows[0], r.Rows[1], r.Rows[2]
	near := func(got, want float64, what string) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %g; want %g", what, got, want)
		}
	}
	near(p.Cells[sideXLA].MinSeconds, 1.25, "XLA's prefill minimum")
	near(p.Cells[sideXLA].TokensPerSecond, 512/1.25, "XLA's prefill tokens/s")
	near(p.Cells[sideXLA].PeakRSSMiB, 1000, "XLA's peak (the larger)")
	near(p.Cells[sideTorch].MinSeconds, 2.5, "PyTorch's prefill minimum (PASSIVE's)")
	near(p.Cells[sideTorch].ByOMPWaitPolicy["default"], 3, "PyTorch's default-policy minimum")
	near(p.XLAOverTorch, 2, "XLA / torch at prefill")
	near(short.GoOverTorch, 1.0/20, "Go / torch at the short prefill")
	near(d.Cells[sideXLA].TokensPerSecond, 20, "XLA's decode tokens/s (10 tokens in 0.5 s)")
	near(d.XLAOverTorch, 2, "XLA / torch at decode")
	// Paired: round 0, 1.5 s against PyTorch's better 2.5 s; round 1, 1.25
	// s against 3 s.
	if got := p.XLAOverTorchByRound; len(got) != 2 {
		t.Fatalf("paired ratios %v; want one per round", got)
	}
	near(p.XLAOverTorchByRound[0], 2.5/1.5, "round 0's paired ratio")
	near(p.XLAOverTorchByRound[1], 3/1.25, "round 1's paired ratio")
	near(d.XLAOverTorchByRound[0], 1, "decode, round 0 (1 s each)")
	near(d.XLAOverTorchByRound[1], 4, "decode, round 1 (0.5 s against 2)")
	if d.Cells[sideGo] != nil || d.GoOverTorch != 0 {
		t.Errorf("decode has a Go cell %+v, ratio %g; the Go side did not run it", d.Cells[sideGo], d.GoOverTorch)
	}
	if len(p.Cells[sideXLA].WarmupSeconds) != 2 || len(p.Cells[sideXLA].Seconds) != 4 {
		t.Errorf("XLA's prefill cell %+v; want both processes' runs and warm-ups", p.Cells[sideXLA])
	}
	if r.GoalMet == nil || !*r.GoalMet {
		t.Errorf("goal %v; want met (XLA 2× torch at 512, the 100-token row outside the goal)", r.GoalMet)
	}
	var out bytes.Buffer
	printTable(&out, r)
	for _, want := range []string{"prefill 512", "409.6", "204.8", "2.00×", "2.03× (1.67–2.40×), ahead in 2 of 2",
		"0.50× (0.50–0.50×), ahead in 0 of 2", "0.05×", "decode 10 after 100", "1000 / 700 / –", "goal"} {
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
	if len(r.Rows) != 1 || r.Rows[0].XLAOverTorch != 0 || r.Rows[0].XLAOverTorchByRound != nil || r.GoalMet != nil {
		t.Errorf("memory only, without the Go side: rows %+v, goal %v; want one row, no ratio, no goal", r.Rows, r.GoalMet)
	}

	// The goal's prefill slower than PyTorch on minima: not met.
	slow := func(round int, s float64) {
		byRound[sideXLA][round].Tasks[0] = tr("prefill:512", 900, s)
	}
	slow(0, 3)
	slow(1, 3)
	r = newResults(c, "/x/model.gguf")
	r.finish(c, byRound)
	if r.GoalMet == nil || *r.GoalMet {
		t.Errorf("goal %v; want not met (XLA 3 s, torch 2.5 s)", r.GoalMet)
	}
	// Ahead on minima (XLA's 1 s in round 0 against PyTorch's 2.5 s) but
	// behind in the median of the rounds (2.5 s / 1 s, 3 / 6.5 and
	// 3.5 / 4: 0.875): not met.
	slow(0, 1)
	slow(1, 6.5)
	byRound[sideXLA] = append(byRound[sideXLA], sideResult{Round: 2, Tasks: []taskResult{tr("prefill:512", 900, 4)}})
	byRound[sideTorch] = append(byRound[sideTorch], sideResult{Round: 2, Tasks: []taskResult{tr("prefill:512", 700, 3.5)}})
	r = newResults(c, "/x/model.gguf")
	r.finish(c, byRound)
	if got := r.Rows[0].XLAOverTorchByRound; len(got) != 3 || median(got) >= 1 || r.Rows[0].XLAOverTorch < 1 {
		t.Fatalf("rows %+v; want ahead on minima, behind in the median of 3 rounds", r.Rows[0])
	}
	if r.GoalMet == nil || *r.GoalMet {
		t.Errorf("goal %v; want not met (the median of the paired ratios below 1)", r.GoalMet)
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
