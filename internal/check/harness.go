// Package check holds the machinery behind the exercise tests: every
// exercise's case table (inputs and expected values, computed in float64
// from pkg/posenc or the papers' formulas), the checks that run its rows,
// the diagnoses that recognise a classic mistake in a wrong answer and the
// hints that name it; and the harness that runs the learner's code so that
// a panic or an endless loop fails one check only, and words every failure
// the way a tutor would. It is also the exercises' registry: the grader
// (cmd/grade) and the generator (exercises/internal/gen) read the list of
// exercises here.
//
// Each exercise test in exercises/ is generated: one line that runs the
// checks of the case table printed below it, for example
//
//	func TestSinusoidal(t *testing.T) { check.Sinusoidal(Sinusoidal, exercise03).Run(t) }
//
// Each row runs in a subtest of its name. Each exercise has two files here:
// exNN_slug.go registers its catalog entry, its README hints and its case
// table (registry.go), and turns the rows into checks; exNN_slug_test.go
// holds its learner-style wrong implementations, each of which must fail
// with the hint that names its mistake (the feedback's own tests,
// feedback_test.go).
package check

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
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

// Check is one named check of an exercise. Run calls the learner's code and
// returns nil when it passes. Call says what is called first, for the
// messages about panics and timeouts. When the learner's code panics, the
// hint is PanicDiag's answer for the panic message, if it has one, else
// PanicHint, else a generic one.
type Check struct {
	Name      string
	Call      string
	Run       func() *Failure
	PanicHint *Hint
	PanicDiag func(msg string) *Hint
	Traits    []string // what the row's input has, for the summary of the rows that fail ("a subnormal")
}

// Exercise is an exercise's checks, one for each row of its case table, run
// by its test.
type Exercise struct {
	Info   catalog.Exercise
	Checks []Check
}

// newExercise returns exercise num with its checks.
func newExercise(num int, cases []Check) *Exercise {
	e, ok := ByNum(num)
	if !ok {
		panic(fmt.Sprintf("check: exercise %d is not registered", num))
	}
	return &Exercise{Info: e, Checks: cases}
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
	Waits        // it reached the stub of another exercise, or another exercise's code failed
	Crash        // the learner's code ended the process (found by crashProbe)
)

// Result is the outcome of one check.
type Result struct {
	Check   Check
	Kind    Kind
	Failure *Failure // Fail, Panic and Timeout
	Stub    stubHit  // Todo and Waits

	evidence *evidence // what the row says about each named mistake
}

// stubHit says which stub a check reached, or which other exercise's
// function failed, and from where.
type stubHit struct {
	exercise catalog.Exercise // whose stub or function
	fn       string           // the function, e.g. "Sinusoidal"
	caller   string           // the learner's function that called it, "" when the check did
	broken   bool             // cmd/grade's stand-in for a file that does not compile
	failure  string           // what went wrong in a function that is written ("panicked: …")
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
	switch {
	case s.broken:
		state, todo = "which does not compile", "fix"
	case s.failure != "":
		state, todo = "which "+s.failure, "fix"
	}
	who := s.caller
	if who == "" {
		who = "this check"
	}
	return fmt.Sprintf("%s calls your %s (exercise %d), %s: %s exercise %d first (%s).",
		who, s.fn, s.exercise.Num, state, todo, s.exercise.Num, s.exercise.Path())
}

// hint returns the hint r carries, if any: none when r waits for another
// exercise, whose failure is the news.
func (r Result) hint() *Hint {
	if r.Failure != nil && r.Kind != Waits {
		return r.Failure.Hint
	}
	return nil
}

// guard runs c with a deadline and a recover.
func guard(c Check) Result {
	done := make(chan Result, 1) // buffered: a late answer must not block a leaked goroutine
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- panicResult(c, v)
			}
		}()
		if f := c.Run(); f != nil {
			done <- Result{Check: c, Kind: Fail, Failure: f}
			return
		}
		done <- Result{Check: c, Kind: Pass}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		// The goroutine cannot be stopped; it runs until the test binary
		// exits, which is why the exercise stops at its first timeout.
		return Result{Check: c, Kind: Timeout, Failure: fail(hintLoop,
			fmt.Sprintf("%s did not return within %v. The other checks of this exercise were not run.", c.Call, timeout))}
	}
}

// panicResult words a recovered panic: a stub reached, or a crash in the
// learner's code, pointing at the learner's line. A panic inside another
// exercise's function also says whose (Stub.failure), so that runCheck can
// tell the learner to fix that exercise first.
func panicResult(c Check, v any) Result {
	frames := learnerFrames()
	if s, ok := v.(string); ok && strings.HasPrefix(s, catalog.NotImplemented) {
		if hit, ok := findStub(s, frames); ok {
			return Result{Check: c, Kind: Todo, Stub: hit}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s panicked: %v", c.Call, v)
	site := ""
	if len(frames) > 0 {
		f := frames[0]
		site = fmt.Sprintf("%s/%s:%d", catalog.Dir, filepath.Base(f.File), f.Line)
		fmt.Fprintf(&b, "\n    at %s in %s", site, funcName(f.Function))
	}
	h := orElse(orElse(panicDiag(c, fmt.Sprint(v)), c.PanicHint), hintPanic)
	r := Result{Check: c, Kind: Panic, Failure: fail(h, b.String())}
	if hit, ok := exerciseFunction(frames); ok {
		hit.failure = fmt.Sprintf("panicked: %v (at %s)", v, site)
		r.Stub = hit
	}
	return r
}

// panicDiag is c.PanicDiag's hint for a panic message, nil when it has
// none or panics itself (a diagnosis may call the learner's code again).
func panicDiag(c Check, msg string) (h *Hint) {
	if c.PanicDiag == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			h = nil
		}
	}()
	return c.PanicDiag(msg)
}

// exerciseFunction returns the outermost frame of a panicking stack that is
// another exercise's own function (one of its Funcs, in its file) than the
// one the check called (the outermost frame), and the learner's function
// that called into it: the panic belongs to that other exercise.
func exerciseFunction(frames []runtime.Frame) (stubHit, bool) {
	if len(frames) < 2 {
		return stubHit{}, false
	}
	outer := frames[len(frames)-1]
	called, _ := ByFile(filepath.Base(outer.File))
	for i := len(frames) - 2; i >= 0; i-- {
		e, ok := ByFile(filepath.Base(frames[i].File))
		if fn := funcName(frames[i].Function); ok && e.Num != called.Num && slices.Contains(e.Funcs, fn) {
			return stubHit{exercise: e, fn: fn, caller: funcName(outer.Function)}, true
		}
	}
	return stubHit{}, false
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

// runCheck runs one check, telling the grader first what it calls, and
// turns a stub reached into Todo (this exercise's) or Waits (another's).
func (ex *Exercise) runCheck(c Check) Result {
	record(catalog.Record{Event: catalog.EventCall, Exercise: ex.Info.Num, Check: c.Name, Call: c.Call})
	startEvidence()
	r := guard(c)
	r.evidence = stopEvidence()
	switch {
	case r.Kind == Todo && r.Stub.exercise.Num != ex.Info.Num:
		r.Kind = Waits
	case r.Kind == Panic && r.Stub.failure != "" && r.Stub.exercise.Num != ex.Info.Num:
		r.Kind = Waits // another exercise's function panicked: fix it first
	}
	return r
}

// results runs every check in order, stopping after a timeout: what the
// feedback tests look at.
func (ex *Exercise) results() []Result {
	out := make([]Result, 0, len(ex.Checks))
	for _, c := range ex.Checks {
		r := ex.runCheck(c)
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
	case o.passed == len(ex.Checks):
		o.status = catalog.StatusPass
		return o
	case kinds[Todo] == len(results):
		o.status = catalog.StatusTodo
		o.summary = ex.todoMessage(ex.Info.FuncList())
		return o
	case kinds[Crash] > 0:
		o.status = catalog.StatusCrash
	case kinds[Timeout] > 0:
		o.status = catalog.StatusTimeout
	case kinds[Fail]+kinds[Panic] == 0 && kinds[Waits] > 0:
		o.status = catalog.StatusWaits
	default:
		o.status = catalog.StatusFail
	}
	for _, r := range results { // the hint that explains every row, or the first failure's first line
		if r.Kind == Pass || (o.status == catalog.StatusFail && r.Kind == Waits) {
			continue
		}
		if h := chooseHint(r, results); h != nil {
			o.summary = h.String()
		} else {
			o.summary, _, _ = strings.Cut(r.Message(ex.Info), "\n")
		}
		break
	}
	return o
}

// todoMessage is what go test says of a stub of this exercise reached for
// the first time. cmd/grade words an untouched stub its own way (report.go),
// under a row whose result already reads "not implemented".
func (ex *Exercise) todoMessage(fn string) string {
	return fmt.Sprintf("%s: open %s and write %s (%s). Hints: exercises/README.md",
		catalog.NotImplemented, ex.Info.Path(), fn, ex.Info.Where())
}

// Run is every exercise test's body: each check runs in a subtest of its
// own name, so that go test -run 'Test/name' runs that check's call of the
// learner's code and no other. A stub reached fails the first check that
// reaches it, with the whole message; the later checks that reach it too
// are skipped, so that an untouched exercise says so once. After a timeout
// the remaining checks are skipped: the looping call still holds a
// goroutine.
func (ex *Exercise) Run(t *testing.T) {
	t.Helper()
	if probing(ex.Info.Test) {
		t.SkipNow() // a child of another exercise's crashProbe
	}
	var results []Result
	reported := map[string]bool{} // stubs already reported, by function
	timedOut := ""
	probed, crashed := false, (*crash)(nil)
	defer func() {
		if len(results) > 0 {
			ex.report(results, ex.summarize(results))
		}
	}()
	for _, c := range ex.Checks {
		t.Run(c.Name, func(t *testing.T) {
			t.Helper()
			if !probed {
				probed, crashed = true, ex.crashProbe()
			}
			if crashed != nil {
				results = append(results, crashed.result(c, ex.Info))
				if len(results) > 1 {
					t.Skip("not run: the test process would die, as above")
				}
				t.Error(results[0].Message(ex.Info))
				return
			}
			if timedOut != "" {
				t.Skipf("not run: check %s timed out, and its call still runs", timedOut)
			}
			r := ex.runCheck(c)
			results = append(results, r)
			switch r.Kind {
			case Pass:
			case Todo, Waits:
				if reported[r.Stub.fn] {
					again := catalog.NotImplemented
					if r.Kind == Waits {
						again = fmt.Sprintf("waits for exercise %d", r.Stub.exercise.Num)
					}
					t.Skipf("%s: %s (as above)", c.Call, again)
				}
				reported[r.Stub.fn] = true
				if r.Kind == Todo {
					t.Errorf("%s: %s", c.Call, ex.todoMessage(r.Stub.fn))
				} else {
					t.Error(r.Message(ex.Info))
				}
			case Timeout:
				timedOut = c.Name
				t.Error(r.Message(ex.Info))
			default:
				t.Error(r.Message(ex.Info))
			}
		})
	}
}

// report sends the exercise's outcome to cmd/grade, when it is listening.
func (ex *Exercise) report(results []Result, o outcome) {
	var msgs []string
	for _, r := range results {
		if m := r.Message(ex.Info); m != "" {
			msgs = append(msgs, r.Check.Name+": "+m)
		}
	}
	record(catalog.Record{Event: catalog.EventResult, Exercise: ex.Info.Num, Status: o.status,
		Checks: len(ex.Checks), Passed: o.passed, Summary: o.summary, Messages: strings.Join(msgs, "\n")})
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
