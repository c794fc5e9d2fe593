package check

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/posenc/course/internal/catalog"
)

// TestHarness checks that a panic, an endless loop and an untouched stub are
// each reported as such, and that a timeout stops the rest of the exercise.
func TestHarness(t *testing.T) {
	old := timeout
	timeout = 50 * time.Millisecond
	defer func() { timeout = old }()
	var stop atomic.Bool
	defer stop.Store(true) // lets the looping goroutine end
	loop := Check{Name: "loop", Call: "Loop()", Run: func() *Failure {
		for !stop.Load() {
		}
		return nil
	}}
	outOfRange := func() *Failure {
		var s []int
		i := 3
		return fail(nil, strings.Repeat("x", s[i]))
	}
	stub := catalog.StubPanic(Exercises()[2])
	tests := []struct {
		name     string
		c        Check
		kind     Kind
		contains []string
	}{
		{"endless_loop", loop, Timeout, []string{"Loop() did not return within 50ms", "Hint: look for a loop"}},
		{"panic", Check{Call: "Boom()", PanicHint: hintLearnedOffByOne, Run: outOfRange}, Panic,
			[]string{"Boom() panicked: runtime error: index out of range [3] with length 0", "Hint: rows are numbered"}},
		{"panic_diag", Check{Call: "Boom()", PanicHint: hintLearnedOffByOne,
			PanicDiag: func(msg string) *Hint { return hintLearnedNegative }, Run: outOfRange}, Panic,
			[]string{"Hint: a negative position"}},
		{"stub", Check{Call: "Stub()", Run: func() *Failure { panic(stub) }}, Todo, nil},
		{"failure", Check{Call: "Bad()", Run: func() *Failure { return fail(hintT5Clamp, "Bad() = 1; want 2") }}, Fail,
			[]string{"Bad() = 1; want 2", "Hint: distances beyond maxDistance"}},
		{"pass", Check{Call: "Good()", Run: func() *Failure { return nil }}, Pass, nil},
	}
	for _, tc := range tests {
		r := guard(tc.c)
		if r.Kind != tc.kind {
			t.Errorf("%s: kind %d; want %d (message %q)", tc.name, r.Kind, tc.kind, r.Message(Exercises()[0]))
		}
		for _, want := range tc.contains {
			if msg := r.Message(Exercises()[0]); !strings.Contains(msg, want) {
				t.Errorf("%s: message %q lacks %q", tc.name, msg, want)
			}
		}
	}
	pass := Check{Name: "pass", Call: "Good()", Run: func() *Failure { return nil }}
	ex := &Exercise{Info: Exercises()[0], Checks: []Check{pass, loop, pass}}
	results := ex.results()
	if len(results) != 2 {
		t.Errorf("results ran %d cases; want 2 (it stops after a timeout)", len(results))
	}
	if o := ex.summarize(results); o.status != catalog.StatusTimeout || o.passed != 1 {
		t.Errorf("summary %+v; want status %q with 1 passed", o, catalog.StatusTimeout)
	}
}

// TestFindStub checks how a stub reached from the learner's code is named.
func TestFindStub(t *testing.T) {
	frame := func(fn, file string) runtime.Frame {
		return runtime.Frame{Function: catalog.Package + "." + fn, File: "/home/x/course/exercises/" + file}
	}
	sinusoidal, _ := ByNum(3)
	tests := []struct {
		name   string
		msg    string
		frames []runtime.Frame
		want   string
	}{
		{"own_stub", catalog.StubPanic(sinusoidal), []runtime.Frame{frame("Sinusoidal", "03_sinusoidal.go")},
			"this check calls your Sinusoidal (exercise 3), which is not written yet"},
		{"from_another_exercise", catalog.StubPanic(sinusoidal),
			[]runtime.Frame{frame("Sinusoidal", "03_sinusoidal.go"), frame("pe", "04_add_positions.go"), frame("AddPositions.func1", "04_add_positions.go"), frame("AddPositions", "04_add_positions.go")},
			"AddPositions calls your Sinusoidal (exercise 3), which is not written yet: finish exercise 3 first (exercises/03_sinusoidal.go)."},
		{"stand_in_for_a_broken_file", catalog.StubPanic(sinusoidal) + catalog.NotCompiling,
			[]runtime.Frame{frame("Sinusoidal", "03_sinusoidal.go"), frame("AddPositions", "04_add_positions.go")},
			"AddPositions calls your Sinusoidal (exercise 3), which does not compile"},
		{"no_frames", catalog.StubPanic(sinusoidal), nil, "this check calls your Sinusoidal (exercise 3)"},
	}
	for _, tc := range tests {
		hit, ok := findStub(tc.msg, tc.frames)
		if !ok {
			t.Errorf("%s: not recognised as a stub", tc.name)
			continue
		}
		if got := hit.waitsMessage(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q; want it to contain %q", tc.name, got, tc.want)
		}
	}
	if _, ok := findStub("not implemented yet, said my own code", nil); ok {
		t.Error("a panic of the learner's own that starts like a stub's is taken for a stub")
	}
}

// TestSummaries checks the one line each outcome gets: the grader shows it,
// except for an untouched stub, which it words itself (cmd/grade's
// report.go); go test shows that one.
func TestSummaries(t *testing.T) {
	info := Exercises()[3] // 04 add positions
	sinusoidal, _ := ByNum(3)
	hit := stubHit{exercise: sinusoidal, fn: "Sinusoidal", caller: "AddPositions"}
	own := stubHit{exercise: info, fn: "AddPositions"}
	failure := Result{Kind: Fail, Failure: fail(hintAddNoScale, "AddPositions(…):", "got 1, want 2")}
	tests := []struct {
		name    string
		results []Result
		status  string
		summary string
	}{
		{"all_todo", []Result{{Kind: Todo, Stub: own}, {Kind: Todo, Stub: own}}, catalog.StatusTodo,
			"not implemented yet: open exercises/04_add_positions.go and write AddPositions (lesson 2, “Scaling embeddings by √d_model”)"},
		{"waits", []Result{{Kind: Waits, Stub: hit}, {Kind: Waits, Stub: hit}}, catalog.StatusWaits,
			"AddPositions calls your Sinusoidal (exercise 3), which is not written yet"},
		{"fail_beats_waits", []Result{{Kind: Waits, Stub: hit}, failure}, catalog.StatusFail, hintAddNoScale.String()},
		{"pass", []Result{{Kind: Pass}, {Kind: Pass}}, catalog.StatusPass, ""},
	}
	for _, tc := range tests {
		ex := &Exercise{Info: info, Checks: make([]Check, len(tc.results))}
		o := ex.summarize(tc.results)
		if o.status != tc.status || !strings.Contains(o.summary, tc.summary) {
			t.Errorf("%s: status %q, summary %q; want %q containing %q", tc.name, o.status, o.summary, tc.status, tc.summary)
		}
	}
}

// TestSectionsExist checks that every lesson section a hint or an exercise
// cites is a heading of that lesson, as the lesson shows it.
func TestSectionsExist(t *testing.T) {
	headings := map[int][]string{}
	paths, err := filepath.Glob("../../lessons/[0-9][0-9]-*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no lessons found: %v", err)
	}
	number := regexp.MustCompile(`^\d+\.\s+`)
	for _, p := range paths {
		var n int
		if _, err := lessonNumber(filepath.Base(p), &n); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if title, ok := strings.CutPrefix(line, "## "); ok {
				headings[n] = append(headings[n], plainHeading(number.ReplaceAllString(title, "")))
			} else if title, ok := strings.CutPrefix(line, "### "); ok {
				headings[n] = append(headings[n], plainHeading(number.ReplaceAllString(title, "")))
			}
		}
	}
	has := func(s Section) bool {
		for _, h := range headings[s.Lesson] {
			if h == s.Title {
				return true
			}
		}
		return false
	}
	for _, h := range registry {
		if h.Section.Lesson != 0 && !has(h.Section) {
			t.Errorf("hint %q cites %s, which is not a heading of lesson %d", h.Name, h.Section, h.Section.Lesson)
		}
	}
	for _, e := range Entries() {
		if !has(Section{e.Lesson, e.Section}) {
			t.Errorf("exercise %02d cites lesson %d, “%s”, which is not one of its headings", e.Num, e.Lesson, e.Section)
		}
		for _, s := range e.Hints.Read {
			if !has(s) {
				t.Errorf("exercise %02d's hints cite %s, which is not a heading of lesson %d", e.Num, s, s.Lesson)
			}
		}
	}
}

// plainHeading returns a heading as the hints quote it: without markdown
// code and math markup.
func plainHeading(h string) string {
	r := strings.NewReplacer("`", "", "$", "", `\sqrt{d_{model}}`, "√d_model", " - ", " − ")
	return strings.TrimSpace(r.Replace(h))
}

// TestCheckNames checks that every exercise's checks have unique names
// without spaces, and are built for the exercise they are registered as.
func TestCheckNames(t *testing.T) {
	for _, e := range Entries() {
		ex := e.Checks(e.Cases)
		if ex.Info.Num != e.Num {
			t.Errorf("exercise %02d: its Checks build exercise %d", e.Num, ex.Info.Num)
		}
		seen := map[string]bool{}
		for _, c := range ex.Checks {
			if seen[c.Name] || c.Name == "" || strings.ContainsAny(c.Name, " \t") {
				t.Errorf("exercise %02d: check name %q is empty, repeated or has spaces", e.Num, c.Name)
			}
			seen[c.Name] = true
		}
	}
}

// lessonNumber reads the lesson number from "0N-slug.md".
func lessonNumber(name string, n *int) (int, error) { return fmt.Sscanf(name, "%02d-", n) }

// TestCrashMessage checks how the death of a test process is worded.
func TestCrashMessage(t *testing.T) {
	exit3 := exec.Command("sh", "-c", "exit 3").Run()
	tests := []struct {
		out  string
		err  error
		want string
	}{
		{"=== RUN   TestLearnedLookup\n", exit3, "your code called os.Exit(3) (or log.Fatal, which calls it) while running F()"},
		{"2024/01/02 03:04:05 no such position\n", exit3, `its last words: "2024/01/02 03:04:05 no such position"`},
		{"panic: unexpected call to os.Exit(0) during test\n", exit3, "called os.Exit(0)"},
		{"runtime: goroutine stack exceeds 67108864-byte limit\nfatal error: stack overflow\n\n\t/x/exercises/13_t5_buckets.go:4 +0x1\n",
			exit3, "ran out of stack while running F() (at exercises/13_t5_buckets.go:4)"},
		{"fatal error: all goroutines are asleep - deadlock!\n", exit3, "blocked forever"},
		{"panic: runtime error: slice bounds out of range [:8] with capacity 0\n\ngoroutine 7 [running]:\n" +
			"github.com/posenc/course/exercises.Llama3InvFreq.func1()\n\t/home/x/course/exercises/11_llama3.go:5 +0x1d\n",
			exit3, "panicked in a goroutine of its own while running F(): runtime error: slice bounds out of range [:8] with capacity 0 (at exercises/11_llama3.go:5)"},
	}
	for _, tc := range tests {
		if got := CrashMessage(tc.out, tc.err, "F()"); !strings.Contains(got, tc.want) {
			t.Errorf("CrashMessage(%q) = %q; want it to contain %q", tc.out, got, tc.want)
		}
	}
}

// TestPanicInAnotherExercise checks that a panic inside another exercise's
// own function is blamed on that exercise, and one in a helper that merely
// lives in its file is not.
func TestPanicInAnotherExercise(t *testing.T) {
	frame := func(fn, file string) runtime.Frame {
		return runtime.Frame{Function: catalog.Package + "." + fn, File: "/home/x/course/exercises/" + file}
	}
	hit, ok := exerciseFunction([]runtime.Frame{frame("dot", "01_attention.go"), frame("Attention", "01_attention.go"),
		frame("SentenceAttention", "21_sentence_attention.go")})
	if !ok || hit.exercise.Num != 1 || hit.fn != "Attention" || hit.caller != "SentenceAttention" {
		t.Errorf("a panic in Attention called by SentenceAttention: %+v, %v; want exercise 1's Attention", hit, ok)
	}
	hit.failure = "panicked: boom (at exercises/01_attention.go:7)"
	if msg, want := hit.waitsMessage(), "SentenceAttention calls your Attention (exercise 1), which panicked: boom (at exercises/01_attention.go:7): fix exercise 1 first"; !strings.Contains(msg, want) {
		t.Errorf("waitsMessage = %q; want it to contain %q", msg, want)
	}
	if hit, ok := exerciseFunction([]runtime.Frame{frame("dot", "01_attention.go"), frame("SentenceAttention", "21_sentence_attention.go")}); ok && hit.exercise.Num != 21 {
		t.Errorf("a panic in a helper of 01_attention.go called by SentenceAttention is blamed on exercise %d", hit.exercise.Num)
	}
	c := Check{Name: "x", Call: "SentenceAttention(…)"}
	ex := &Exercise{Info: Exercises()[20], Checks: []Check{c}}
	r := Result{Check: c, Kind: Panic, Failure: fail(hintPanic, "boom"), Stub: stubHit{exercise: Exercises()[0], fn: "Attention", failure: "panicked: boom"}}
	if o := ex.summarize([]Result{{Check: c, Kind: Waits, Failure: r.Failure, Stub: r.Stub}}); o.status != catalog.StatusWaits || !strings.Contains(o.summary, "fix exercise 1 first") {
		t.Errorf("summary of a check waiting for a panicking exercise 1: %+v", o)
	}
}
