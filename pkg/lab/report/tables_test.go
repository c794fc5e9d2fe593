package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/lab"
)

func TestSpreadText(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name     string
		multiple int
		want     string
	}{
		{"rope", 1, "2.100 [2.000–2.200]"}, // the mean, then the range over seeds
		{"rope", 4, "2.900 [2.800–3.000]"},
		{"learned", 1, "2.100 [2.000–2.200]"},
		{"learned", 2, "—"}, // undefined
		{"alibi", 1, "?"},   // missing
		{"rope", 8, "?"},
	} {
		if got := SpreadText(r, c.name, c.multiple); got != c.want {
			t.Errorf("SpreadText(%s, %d) = %q; want %q", c.name, c.multiple, got, c.want)
		}
	}
	// One seed: the number alone.
	r.Runs = slices.DeleteFunc(r.Runs, func(run lab.Run) bool { return run.Seed == 2 })
	if got, want := SpreadText(r, "rope", 2), "2.400"; got != want {
		t.Errorf("one seed: SpreadText(rope, 2) = %q; want %q", got, want)
	}
}

func TestRecallPooled(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name        string
		multiple    int
		correct, n  int
		defined     bool
		text, error string
	}{
		{"rope", 1, 38, 40, true, "0.95", ""}, // depth 0: 10 + 8, depth 1: 10 + 10, of 4 × 10
		{"rope", 4, 30, 40, true, "0.75", ""},
		{"learned", 1, 36, 40, true, "0.90", ""},
		{"learned", 2, 0, 0, false, "—", ""},
		{"alibi", 1, 0, 0, false, "?", `no run "alibi"`},
		{"rope", 8, 0, 0, false, "?", "no recall at 8×L"},
	} {
		k, n, ok, err := RecallPooled(r, c.name, c.multiple)
		if c.error != "" {
			if err == nil || !strings.Contains(err.Error(), c.error) {
				t.Errorf("RecallPooled(%s, %d) error = %v; want %q", c.name, c.multiple, err, c.error)
			}
		} else if err != nil || k != c.correct || n != c.n || ok != c.defined {
			t.Errorf("RecallPooled(%s, %d) = %d, %d, %t, %v; want %d, %d, %t", c.name, c.multiple, k, n, ok, err, c.correct, c.n, c.defined)
		}
		if got := RecallPooledText(r, c.name, c.multiple); got != c.text {
			t.Errorf("RecallPooledText(%s, %d) = %q; want %q", c.name, c.multiple, got, c.text)
		}
	}
}

func TestRecallOver(t *testing.T) {
	r := handResults()
	for _, c := range []struct {
		name       string
		multiple   int
		depths     []float64
		correct, n int
		defined    bool
		error      string
	}{
		{"rope", 1, []float64{0}, 18, 20, true, ""}, // depth 0: 10 + 8 of 2 × 10
		{"rope", 1, []float64{1}, 20, 20, true, ""},
		{"rope", 1, []float64{0, 1}, 38, 40, true, ""},
		{"rope", 1, nil, 38, 40, true, ""}, // no depths: every depth, as RecallPooled
		{"learned", 2, []float64{0}, 0, 0, false, ""},
		{"rope", 1, []float64{0.5}, 0, 0, false, "depth 0.5"},
		{"alibi", 1, nil, 0, 0, false, `no run "alibi"`},
	} {
		s, err := RecallOver(r, c.name, c.multiple, c.depths...)
		if c.error != "" {
			if err == nil || !strings.Contains(err.Error(), c.error) {
				t.Errorf("RecallOver(%s, %d, %v) error = %v; want %q", c.name, c.multiple, c.depths, err, c.error)
			}
			continue
		}
		if err != nil || s.Correct != c.correct || s.N != c.n || s.Defined != c.defined {
			t.Errorf("RecallOver(%s, %d, %v) = %+v, %v; want %d of %d, defined %t", c.name, c.multiple, c.depths, s, err, c.correct, c.n, c.defined)
			continue
		}
		if !c.defined {
			continue
		}
		lo, hi := lab.Wilson(c.correct, c.n)
		if rate := float64(c.correct) / float64(c.n); s.Rate != rate || s.Lo != lo || s.Hi != hi {
			t.Errorf("RecallOver(%s, %d, %v): rate %g [%g–%g]; want %g [%g–%g]", c.name, c.multiple, c.depths, s.Rate, s.Lo, s.Hi, rate, lo, hi)
		}
	}
}

func TestSummary(t *testing.T) {
	s := Summary(handResults())
	lines := strings.Split(s, "\n")
	row := func(name string) string {
		for _, l := range lines {
			if f := strings.Fields(l); len(f) > 0 && f[0] == name {
				return l
			}
		}
		t.Fatalf("no row %q in\n%s", name, s)
		return ""
	}
	if h := lines[0]; !strings.Contains(h, "loss 1×L") || !strings.Contains(h, "loss 4×L") || !strings.Contains(h, "recall 4×L") {
		t.Errorf("header %q; want a loss and a recall column per length", h)
	}
	for _, c := range []struct {
		name string
		want []string
	}{
		{"rope", []string{"2.100 [2.000–2.200]", "2.500 [2.400–2.600]", "2.900 [2.800–3.000]", "0.95", "0.75"}},
		{"learned", []string{"2.100 [2.000–2.200]", "—", "0.90"}},
		{"rope+pi", []string{"0.95", "0.50", "0.10"}},
		{"rope+pi-finetune", []string{"0.90"}},
		{"rope-finetune", []string{"2.100 [2.100–2.100]"}},
	} {
		l := row(c.name)
		for _, w := range c.want {
			if !strings.Contains(l, w) {
				t.Errorf("row %q lacks %q", l, w)
			}
		}
	}
	if got := strings.Count(row("learned"), "—"); got != 4 {
		t.Errorf("learned's row %q has %d dashes; want 4: loss and recall at 2L and 4L", row("learned"), got)
	}
	for _, want := range []string{
		"L = 16; 2 seeds", "chance 0.038", "unigram 3.000, bigram 2.500", "42 s on a CPU (2 cores", "backend go, go1.26.8",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if names := len(handResults().Names()); len(lines) < names+4 {
		t.Errorf("%d lines; want a header, %d rows and the notes:\n%s", len(lines), names, s)
	}
}
