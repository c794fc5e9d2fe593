// Package check holds the machinery behind the exercise tests: for every
// exercise, the checks its test runs (inputs, float64 references, the
// comparison), the diagnoses that recognise a classic mistake in a wrong
// answer, and the hints that name it; and the harness that runs the
// learner's code so that a panic or an endless loop fails one check only,
// and words every failure the way a tutor would.
//
// Each exercise test in exercises/ is one line, for example
//
//	func TestSinusoidal(t *testing.T) { check.Sinusoidal(Sinusoidal).Run(t) }
//
// Each exercise has two files here: exNN_slug.go registers its catalog
// entry, its README hints and its checks (registry.go), and
// exNN_slug_test.go holds its learner-style wrong implementations, each of
// which must fail with the hint that names its mistake (the feedback's own
// tests, feedback_test.go).
package check

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/posenc/course/internal/catalog"
)

func init() {
	// The learner's code never needs a deep stack: with this limit, a
	// function that calls itself without end stops the process in a fraction
	// of a second instead of growing to a gigabyte first.
	debug.SetMaxStack(64 << 20)
}

// timeout bounds each check of the learner's code. The solutions take
// microseconds; 3 s is generous on two busy cores yet keeps a run of
// looping answers short.
var timeout = timeoutFromEnv()

func timeoutFromEnv() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(catalog.TimeoutEnv)); err == nil && d > 0 {
		return d
	}
	return 3 * time.Second
}

// Case is one named check of an exercise. Run calls the learner's code and
// returns nil when it passes. Call says what is called first, for the
// messages about panics and timeouts. When the learner's code panics, the
// hint is PanicDiag's answer for the panic message, if it has one, else
// PanicHint, else a generic one.
type Case struct {
	Name      string
	Call      string
	Run       func() *Failure
	PanicHint *Hint
	PanicDiag func(msg string) *Hint
}

// Exercise is an exercise's checks, run by its test.
type Exercise struct {
	Info  catalog.Exercise
	Cases []Case
}

// newExercise returns exercise num with its cases.
func newExercise(num int, cases []Case) *Exercise {
	e, ok := ByNum(num)
	if !ok {
		panic(fmt.Sprintf("check: exercise %d is not registered", num))
	}
	return &Exercise{Info: e, Cases: cases}
}

// Kind is the outcome of one check.
type Kind int

// The outcomes of a check.
const (
	Pass    Kind = iota
	Fail         // a wrong answer
	Panic        // the learner's code panicked
	Timeout      // the learner's code did not return in time
	Todo         // it reached this exercise's own stub
	Waits        // it reached the stub of another exercise
)

// Result is the outcome of one check.
type Result struct {
	Case    Case
	Kind    Kind
	Failure *Failure // Fail, Panic and Timeout
	Stub    stubHit  // Todo and Waits
}

// stubHit says which stub a check reached, and from where.
type stubHit struct {
	exercise catalog.Exercise // whose stub
	fn       string           // the stub's function, e.g. "Sinusoidal"
	caller   string           // the learner's function that called it, "" when the check did
	broken   bool             // cmd/grade's stand-in for a file that does not compile
}

// Message returns what the learner is told about r ("" when it passed).
func (r Result) Message(ex catalog.Exercise) string {
	switch r.Kind {
	case Pass:
		return ""
	case Todo:
		return fmt.Sprintf("%s: %s", r.Stub.fn, catalog.NotImplemented)
	case Waits:
		return r.Stub.waitsMessage()
	}
	return r.Failure.String()
}

// waitsMessage says that the learner's code called another exercise's
// unwritten function.
func (s stubHit) waitsMessage() string {
	state, todo := "which is not written yet", "finish"
	if s.broken {
		state, todo = "which does not compile", "fix"
	}
	who := s.caller
	if who == "" {
		who = "this check"
	}
	return fmt.Sprintf("%s calls your %s (exercise %d), %s: %s exercise %d first (%s).",
		who, s.fn, s.exercise.Num, state, todo, s.exercise.Num, s.exercise.Path())
}

// hint returns the hint r carries, if any.
func (r Result) hint() *Hint {
	if r.Failure != nil {
		return r.Failure.Hint
	}
	return nil
}

// guard runs c with a deadline and a recover.
func guard(c Case) Result {
	done := make(chan Result, 1) // buffered: a late answer must not block a leaked goroutine
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- panicResult(c, v)
			}
		}()
		if f := c.Run(); f != nil {
			done <- Result{Case: c, Kind: Fail, Failure: f}
			return
		}
		done <- Result{Case: c, Kind: Pass}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		// The goroutine cannot be stopped; it runs until the test binary
		// exits, which is why the exercise stops at its first timeout.
		return Result{Case: c, Kind: Timeout, Failure: fail(hintLoop,
			fmt.Sprintf("%s did not return within %v. The other checks of this exercise were not run.", c.Call, timeout))}
	}
}

// panicResult words a recovered panic: a stub reached, or a crash in the
// learner's code, pointing at the learner's line.
func panicResult(c Case, v any) Result {
	frames := learnerFrames()
	if s, ok := v.(string); ok && strings.HasPrefix(s, catalog.NotImplemented) {
		if hit, ok := findStub(s, frames); ok {
			return Result{Case: c, Kind: Todo, Stub: hit}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s panicked: %v", c.Call, v)
	if len(frames) > 0 {
		f := frames[0]
		fmt.Fprintf(&b, "\n    at %s/%s:%d in %s", catalog.Dir, filepath.Base(f.File), f.Line, funcName(f.Function))
	}
	var h *Hint
	if c.PanicDiag != nil {
		h = c.PanicDiag(fmt.Sprint(v))
	}
	h = orElse(orElse(h, c.PanicHint), hintPanic)
	return Result{Case: c, Kind: Panic, Failure: fail(h, b.String())}
}

// learnerFrames returns the frames of the panicking stack that are in the
// exercises package's own files (the learner's code), innermost first.
func learnerFrames() []runtime.Frame {
	pcs := make([]uintptr, 128)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []runtime.Frame
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, catalog.Package+".") && !strings.HasSuffix(f.File, "_test.go") {
			out = append(out, f)
		}
		if !more {
			return out
		}
	}
}

// funcName returns "Sinusoidal" for "github.com/posenc/course/exercises.Sinusoidal"
// and for its closures ("….Sinusoidal.func1").
func funcName(full string) string {
	name := strings.TrimPrefix(full, catalog.Package+".")
	name, _, _ = strings.Cut(name, ".")
	return name
}

// findStub works out whose stub panicked with msg: the innermost learner
// frame is the stub, the outermost one the learner's function the check
// called.
func findStub(msg string, frames []runtime.Frame) (stubHit, bool) {
	var hit stubHit
	if len(frames) > 0 {
		e, ok := ByFile(filepath.Base(frames[0].File))
		if ok {
			hit.exercise, hit.fn = e, funcName(frames[0].Function)
		}
	}
	if hit.fn == "" { // no frame: read the file from the message instead
		_, file, ok := strings.Cut(msg, "open "+catalog.Dir+"/")
		if !ok {
			return stubHit{}, false
		}
		file, _, _ = strings.Cut(file, " ")
		e, ok := ByFile(file)
		if !ok {
			return stubHit{}, false
		}
		hit.exercise, hit.fn = e, e.FuncList()
	}
	// The outermost learner frame is the function the check called.
	if len(frames) > 1 {
		if name := funcName(frames[len(frames)-1].Function); name != hit.fn {
			hit.caller = name
		}
	}
	hit.broken = strings.HasSuffix(msg, catalog.NotCompiling)
	return hit, true
}

// results runs the cases in order, stopping after a timeout, and turns
// stubs reached into Todo (this exercise's) or Waits (another's).
func (ex *Exercise) results() []Result {
	out := make([]Result, 0, len(ex.Cases))
	for _, c := range ex.Cases {
		record(catalog.Record{Event: catalog.EventCall, Exercise: ex.Info.Num, Check: c.Name, Call: c.Call})
		r := guard(c)
		if r.Kind == Todo && r.Stub.exercise.Num != ex.Info.Num {
			r.Kind = Waits
		}
		out = append(out, r)
		if r.Kind == Timeout {
			break
		}
	}
	return out
}

// outcome is an exercise's status and the one line the grader shows.
type outcome struct {
	status  string
	summary string
	passed  int
}

// summarize turns results into an outcome.
func (ex *Exercise) summarize(results []Result) outcome {
	var o outcome
	kinds := map[Kind]int{}
	for _, r := range results {
		kinds[r.Kind]++
	}
	o.passed = kinds[Pass]
	switch {
	case o.passed == len(ex.Cases):
		o.status = catalog.StatusPass
		return o
	case kinds[Todo] == len(results):
		o.status = catalog.StatusTodo
		o.summary = ex.todoMessage()
		return o
	case kinds[Timeout] > 0:
		o.status = catalog.StatusTimeout
	case kinds[Fail]+kinds[Panic] == 0 && kinds[Waits] > 0:
		o.status = catalog.StatusWaits
	default:
		o.status = catalog.StatusFail
	}
	for _, r := range results { // the first failure's hint, or its first line
		if r.Kind == Pass || (o.status == catalog.StatusFail && r.Kind == Waits) {
			continue
		}
		if h := r.hint(); h != nil {
			o.summary = h.String()
		} else {
			o.summary, _, _ = strings.Cut(r.Message(ex.Info), "\n")
		}
		break
	}
	return o
}

// todoMessage is what go test says of an untouched stub, once for the whole
// exercise. cmd/grade words it its own way (report.go), under a row whose
// result already reads "not implemented".
func (ex *Exercise) todoMessage() string {
	return fmt.Sprintf("%s: open %s and write %s (%s). Hints: exercises/README.md",
		catalog.NotImplemented, ex.Info.Path(), ex.Info.FuncList(), ex.Info.Where())
}

// Run is every exercise test's body. An untouched stub gets one message for
// the whole exercise, and so does an exercise that only waits for another;
// otherwise each check is a named subtest.
func (ex *Exercise) Run(t *testing.T) {
	t.Helper()
	results := ex.results()
	o := ex.summarize(results)
	defer ex.report(results, o)
	switch o.status {
	case catalog.StatusTodo, catalog.StatusWaits:
		t.Fatal(o.summary)
	}
	todoSeen := map[string]bool{}
	for _, r := range results {
		t.Run(r.Case.Name, func(t *testing.T) {
			t.Helper()
			switch r.Kind {
			case Pass:
			case Todo:
				if todoSeen[r.Stub.fn] {
					t.Errorf("%s: %s (as above)", r.Case.Call, catalog.NotImplemented)
					return
				}
				todoSeen[r.Stub.fn] = true
				t.Errorf("%s: %s: open %s and write %s", r.Case.Call, catalog.NotImplemented, ex.Info.Path(), r.Stub.fn)
			default:
				t.Error(r.Message(ex.Info))
			}
		})
	}
	if skipped := len(ex.Cases) - len(results); skipped > 0 {
		t.Errorf("%d more checks were not run because one timed out", skipped)
	}
}

// report sends the exercise's outcome to cmd/grade, when it is listening.
func (ex *Exercise) report(results []Result, o outcome) {
	var msgs []string
	for _, r := range results {
		if m := r.Message(ex.Info); m != "" {
			msgs = append(msgs, r.Case.Name+": "+m)
		}
	}
	record(catalog.Record{Event: catalog.EventResult, Exercise: ex.Info.Num, Status: o.status,
		Checks: len(ex.Cases), Passed: o.passed, Summary: o.summary, Messages: strings.Join(msgs, "\n")})
}

// reportFile is the file named by catalog.ReportEnv, or nil.
var reportFile = openReport()

func openReport() *os.File {
	p := os.Getenv(catalog.ReportEnv)
	if p == "" {
		return nil
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "check: cannot write the grader's report: %v\n", err)
		return nil
	}
	return f
}

// record appends rec to the report file in one write, so that it is on
// disk even if the process dies right after.
func record(rec catalog.Record) {
	if reportFile == nil {
		return
	}
	data, err := json.Marshal(rec)
	if err != nil {
		panic(err)
	}
	if _, err := reportFile.Write(append(data, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "check: cannot write the grader's report: %v\n", err)
	}
}
