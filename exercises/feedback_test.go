package exercises

// The tests of the feedback itself. For every exercise, a correct
// implementation written here (never the solution file) must pass all of its
// checks, and each learner-style wrong implementation (the mutants in
// mutants_test.go) must fail with the hint that names its misconception.
// Finally, every registered hint must be produced by some mutant: a hint no
// wrong answer can trigger is a test that cannot fail.
//
// They run with every `go test ./exercises` and pass whatever the stubs hold;
// go run ./cmd/grade ignores them.

import (
	"flag"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// feedbackSuite is one exercise's correct implementation and mutants.
type feedbackSuite struct {
	name    string
	correct []exCase
	mutants []feedbackMutant
}

// feedbackMutant is a wrong implementation and the hint it must get.
type feedbackMutant struct {
	name  string
	hint  string
	cases []exCase
}

func feedbackSuites() []feedbackSuite {
	return []feedbackSuite{
		mutAttentionSuite(),
		mutPermutationSuite(),
		mutSinusoidalSuite(),
		mutAddPositionsSuite(),
		mutShiftMatrixSuite(),
		mutLearnedSuite(),
		mutRoPESuite(),
		mutRoPEHalvesSuite(),
		mutNTKSuite(),
		mutYaRNSuite(),
		mutLlama3Suite(),
		mutALiBiSuite(),
		mutT5Suite(),
	}
}

func TestFeedback(t *testing.T) {
	t.Run("harness", testHarness)
	covered := map[string]bool{}
	for _, s := range feedbackSuites() {
		t.Run(s.name, func(t *testing.T) {
			t.Run("correct", func(t *testing.T) {
				for _, msg := range exMessages(s.correct) {
					t.Errorf("a correct implementation fails:\n%s", msg)
				}
			})
			for _, m := range s.mutants {
				t.Run(m.name, func(t *testing.T) {
					msgs := exMessages(m.cases)
					if len(msgs) == 0 {
						t.Fatalf("the wrong implementation passes every check; want a failure with hint %q", exHints[m.hint])
					}
					for _, msg := range msgs {
						if strings.Contains(msg, m.hint) {
							covered[m.hint] = true
							return
						}
					}
					t.Errorf("no failure names the misconception; want hint %q in one of:\n%s",
						exHints[m.hint], strings.Join(msgs, "\n---\n"))
				})
			}
		})
	}
	// Only a full run can tell whether a hint is never produced.
	if f := flag.Lookup("test.run"); f != nil && strings.Contains(f.Value.String(), "/") {
		return
	}
	for text, name := range exHints {
		if !covered[text] {
			t.Errorf("hint %q is never produced by a wrong implementation", name)
		}
	}
}

// testHarness checks that a panic, an endless loop and an untouched stub are
// each reported as such, and that a timeout stops the rest of the exercise.
func testHarness(t *testing.T) {
	old := exTimeout
	exTimeout = 50 * time.Millisecond
	defer func() { exTimeout = old }()
	var stop atomic.Bool
	defer stop.Store(true) // lets the looping goroutine end
	loop := exCase{name: "loop", call: "Loop()", run: func() string {
		for !stop.Load() {
		}
		return ""
	}}
	outOfRange := func() string {
		var s []int
		i := 3
		return strings.Repeat("x", s[i])
	}
	tests := []struct {
		name     string
		c        exCase
		kind     exKind
		contains []string
	}{
		{"endless_loop", loop, exTimeoutKind, []string{"Loop() did not return within 50ms", "Hint: look for a loop"}},
		{"panic", exCase{call: "Boom()", panicHint: "check the bounds", run: outOfRange}, exPanic,
			[]string{"Boom() panicked: runtime error: index out of range [3] with length 0", "Hint: check the bounds"}},
		{"stub", exCase{call: "Stub()", run: func() string { panic("not implemented yet: open exercises/99_x.go") }}, exNotImpl,
			[]string{"not implemented yet: open exercises/99_x.go"}},
		{"failure", exCase{call: "Bad()", run: func() string { return "Bad() = 1; want 2" }}, exFail, []string{"Bad() = 1; want 2"}},
		{"pass", exCase{call: "Good()", run: func() string { return "" }}, exPass, nil},
	}
	for _, tc := range tests {
		r := exGuard(tc.c)
		if r.kind != tc.kind {
			t.Errorf("%s: kind %d; want %d (message %q)", tc.name, r.kind, tc.kind, r.msg)
		}
		for _, want := range tc.contains {
			if !strings.Contains(r.msg, want) {
				t.Errorf("%s: message %q lacks %q", tc.name, r.msg, want)
			}
		}
	}
	pass := exCase{name: "pass", call: "Good()", run: func() string { return "" }}
	if got := exRunAll([]exCase{pass, loop, pass}); len(got) != 2 {
		t.Errorf("exRunAll ran %d cases; want 2 (it stops after a timeout)", len(got))
	}
}
