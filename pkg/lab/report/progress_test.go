package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
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

func TestTotalSteps(t *testing.T) {
	c := DefaultConfig()
	if got, want := c.TotalSteps(), 6*800+200; got != want {
		t.Errorf("DefaultConfig: %d; want %d (six models and the fine-tune)", got, want)
	}
	c.Encodings = []Encoding{ALiBi, T5}
	if got, want := c.TotalSteps(), 2*800; got != want {
		t.Errorf("without rope: %d; want %d (no fine-tune)", got, want)
	}
}

func TestMultiplesText(t *testing.T) {
	for _, c := range []struct {
		multiples []int
		want      string
	}{{[]int{1, 2, 4, 8}, "1×, 2×, 4×, 8× L"}, {[]int{1, 3}, "1×, 3× L"}} {
		if got := multiplesText(c.multiples); got != c.want {
			t.Errorf("multiplesText(%v) = %q; want %q", c.multiples, got, c.want)
		}
	}
}
