package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/posenc/course/pkg/lab"
)

// The bar's ETA: the current model's steps left, and the whole lab's, at
// the current model's time per step.
func TestProgressETA(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 300) // three models of 100 steps
	p.Begin("a", 1)
	p.Step(lab.Step{Step: 10, Steps: 100, Loss: 4, TokensPerSecond: 1000, Elapsed: 10 * time.Second}) // 1 s a step
	p.Step(lab.Step{Step: 100, Steps: 100, Loss: 3, TokensPerSecond: 1000, Elapsed: 100 * time.Second})
	p.Begin("b", 1)
	p.Step(lab.Step{Step: 50, Steps: 100, Loss: 3, TokensPerSecond: 1000, Elapsed: 100 * time.Second}) // 2 s a step
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	for i, want := range []string{
		"ETA 1:30, lab 4:50", // 90 steps of a, then b's and c's 200, at 1 s
		"ETA 0:00, lab 3:20", // b's and c's 200 at 1 s
		"ETA 1:40, lab 5:00", // 50 of b, then c's 100, at 2 s
	} {
		if i >= len(lines) || !strings.HasSuffix(lines[i], want) {
			t.Errorf("line %d of\n%s\ndoes not end with %q", i+1, buf.String(), want)
		}
	}
	// Without a total, only the model's ETA.
	buf.Reset()
	p = NewProgress(&buf, 0)
	p.Begin("a", 1)
	p.Step(lab.Step{Step: 10, Steps: 100, Loss: 4, TokensPerSecond: 1000, Elapsed: 10 * time.Second})
	if got := strings.TrimSpace(buf.String()); !strings.HasSuffix(got, "ETA 1:30") {
		t.Errorf("without a total: %q; want it to end with \"ETA 1:30\"", got)
	}
}

// Off a terminal the bar prints a line every tenth of the steps, and the
// last step's.
func TestProgressTenths(t *testing.T) {
	for _, steps := range []int{100, 7, 25} {
		var buf bytes.Buffer
		p := NewProgress(&buf, 0)
		p.Begin("rope", 2)
		for s := 1; s <= steps; s++ {
			p.Step(lab.Step{Step: s, Steps: steps, Loss: 3, TokensPerSecond: 1000, Elapsed: time.Duration(s) * time.Second})
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		tenths := map[int]bool{}
		for s := 1; s <= steps; s++ {
			tenths[10*s/steps] = true
		}
		if len(lines) != len(tenths) {
			t.Errorf("%d steps: %d lines; want %d, one per tenth:\n%s", steps, len(lines), len(tenths), buf.String())
		}
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, "rope s2 ") || !strings.Contains(last, "████████████████████") ||
			!strings.Contains(last, fmt.Sprintf("%d/%d", steps, steps)) || !strings.Contains(last, "loss 3.000") || !strings.Contains(last, "1.0k tok/s") {
			t.Errorf("%d steps: last line %q; want the model and seed, a full bar, the step, the loss and the rate", steps, last)
		}
	}
}

func TestProgressDone(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 0)
	p.Done(&lab.Run{Name: "learned", Seed: 3, EvalSeconds: 4, Lengths: []lab.Length{
		{Multiple: 1, Defined: true, Mean: 2.34567}, {Multiple: 2}}})
	p.Note("wrote %d figures", 9)
	want := "learned s3             loss 1×L 2.346 2×L — (4 s to evaluate)\nwrote 9 figures\n"
	if got := buf.String(); got != want {
		t.Errorf("Done and Note wrote\n%q\nwant\n%q", got, want)
	}
	// A nil bar, or one on no writer, draws nothing and does not panic.
	for _, p := range []*Progress{nil, NewProgress(nil, 10)} {
		p.Begin("rope", 1)
		p.Step(lab.Step{Step: 1, Steps: 1})
		p.Done(&lab.Run{Name: "rope"})
		p.Note("nothing")
	}
}
