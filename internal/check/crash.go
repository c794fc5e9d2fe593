package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/posenc/course/internal/catalog"
)

// A learner's code can end the test process (os.Exit, log.Fatal, a panic in
// a goroutine of its own, a stack overflow), which no recover catches. The
// grader runs each exercise in a process of its own and words such a crash
// with CrashMessage. An exercise that calls the learner's earlier exercises
// goes further, in go test as in the grader: before running its checks it
// runs them in a child process (crashProbe); if that child dies, a second
// child runs the exercises it calls, and the one that dies there is named
// as the one at fault, which this exercise waits for. Either way the
// checks are not run in the test's own process, which survives.

// probeEnv names, in a child process of crashProbe, the exercise tests the
// child runs: the others skip at once.
const probeEnv = "POSENC_EXERCISE_PROBE"

// childTimeout bounds one child process. Each check stops after timeout,
// so only code that blocks the test itself runs this long.
const childTimeout = 60 * time.Second

// crash is what crashProbe found: the call that was running when the
// process died, what happened, and the exercise at fault.
type crash struct {
	call    string
	message string
	culprit catalog.Exercise // this exercise, or one it calls
	fn      string           // the culprit's function that was running
}

// crashProbe runs ex's test in a child process, with the parent's -run and
// -skip, and returns nil when it does not crash. Otherwise it runs the
// tests of the exercises ex uses, and names the first that crashes as the
// culprit, or ex itself when none does.
func (ex *Exercise) crashProbe() *crash {
	if os.Getenv(probeEnv) != "" || len(ex.Info.Uses) == 0 {
		return nil
	}
	records, out, exit, err := runChild([]string{ex.Info.Test}, flagValue("test.run"), flagValue("test.skip"))
	if err != nil {
		return nil // no child: run the checks here, as without a probe
	}
	died, call := diedDuring(records, ex.Info.Num)
	if !died {
		return nil
	}
	c := &crash{call: call, message: CrashMessage(out, exit, During(call, ex.Info)), culprit: ex.Info, fn: ex.Info.FuncList()}
	var deps []string
	for _, u := range ex.Info.Uses {
		if e, ok := ByNum(u); ok {
			deps = append(deps, e.Test)
		}
	}
	depRecords, depOut, depExit, err := runChild(deps, "^("+strings.Join(deps, "|")+")$", "")
	if err != nil {
		return c
	}
	for _, u := range ex.Info.Uses {
		if died, call := diedDuring(depRecords, u); died {
			e, _ := ByNum(u)
			fn, _, _ := strings.Cut(call, "(")
			return &crash{call: call, message: CrashMessage(depOut, depExit, During(call, e)), culprit: e, fn: fn}
		}
	}
	return c
}

// result is the outcome crashProbe's finding gives check c of exercise
// ex, which is not run: it waits for the culprit, or it crashed itself.
func (c *crash) result(check Check, ex catalog.Exercise) Result {
	if c.culprit.Num == ex.Num {
		return Result{Check: check, Kind: Crash, Failure: fail(nil, c.message)}
	}
	return Result{Check: check, Kind: Waits, Stub: stubHit{exercise: c.culprit, fn: c.fn, caller: ex.FuncList(),
		failure: fmt.Sprintf("ends the test process on exercise %d's own checks: %s", c.culprit.Num, c.message)}}
}

// runChild runs the exercise tests named in tests in a child process of
// the test binary, with the -run and -skip patterns given, and returns the
// records they wrote, the child's output, and its exit error (nil when it
// exited 0); err says why the child could not be run.
func runChild(tests []string, run, skip string) (records []catalog.Record, out string, exit, err error) {
	dir, err := os.MkdirTemp("", "exercise-probe-")
	if err != nil {
		return nil, "", nil, err
	}
	defer os.RemoveAll(dir)
	report := filepath.Join(dir, "report.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	args := []string{"-test.count=1", fmt.Sprintf("-test.timeout=%v", childTimeout-5*time.Second)}
	if run != "" {
		args = append(args, "-test.run="+run)
	}
	if skip != "" {
		args = append(args, "-test.skip="+skip)
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), probeEnv+"="+strings.Join(tests, ","), catalog.ReportEnv+"="+report)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	exit = cmd.Run()
	var exitErr *exec.ExitError
	if exit != nil && !errors.As(exit, &exitErr) {
		return nil, "", nil, exit
	}
	records, err = ReadReport(report)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, "", nil, err
	}
	return records, buf.String(), exit, nil
}

// diedDuring reports whether the records show exercise num's test started
// (a call) and never finished (no result), and the last call it made.
func diedDuring(records []catalog.Record, num int) (bool, string) {
	started, finished, call := false, false, ""
	for _, r := range records {
		if r.Exercise != num {
			continue
		}
		switch r.Event {
		case catalog.EventCall:
			started, call = true, r.Call
		case catalog.EventResult:
			finished = true
		}
	}
	return started && !finished, call
}

// probing reports whether this process is a child of crashProbe that is
// not meant to run test, and so skips it.
func probing(test string) bool {
	p := os.Getenv(probeEnv)
	return p != "" && !slices.Contains(strings.Split(p, ","), test)
}

// flagValue returns the value of the testing flag name, "" without one.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// ReadReport reads the records an exercise test wrote to a report file.
func ReadReport(path string) ([]catalog.Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []catalog.Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r catalog.Record
		if json.Unmarshal(sc.Bytes(), &r) == nil { // a line cut short by a crash is skipped
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// During names the call that was running, for a crash message: call, or
// the test of e's functions when no call had started.
func During(call string, e catalog.Exercise) string {
	if call == "" {
		return "the test of " + e.FuncList()
	}
	return call
}

// Patterns in the output of a test binary that died.
var (
	panicLine = regexp.MustCompile(`(?m)^panic: (.*)$`)
	fatalLine = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
	siteLine  = regexp.MustCompile(`(?m)^\s+(\S*exercises/\d\d_\w+\.go):(\d+)`)
)

// CrashMessage says, in a learner's words, why the process of an exercise
// test died while running call: out is its output and err its exit error.
func CrashMessage(out string, err error, call string) string {
	site := ""
	if m := siteLine.FindStringSubmatch(out); m != nil {
		site = fmt.Sprintf(" (at %s/%s:%s)", catalog.Dir, filepath.Base(m[1]), m[2])
	}
	switch {
	case strings.Contains(out, "unexpected call to os.Exit(0) during test"):
		return fmt.Sprintf("your code called os.Exit(0) while running %s%s: return a value instead of ending the program", call, site)
	case strings.Contains(out, "goroutine stack exceeds") || strings.Contains(out, "fatal error: stack overflow"):
		return fmt.Sprintf("your code ran out of stack while running %s%s: a function that calls itself without end?", call, site)
	case strings.Contains(out, "all goroutines are asleep - deadlock"):
		return fmt.Sprintf("your code blocked forever while running %s%s (every goroutine waits: a deadlock)", call, site)
	case strings.Contains(out, "out of memory"):
		return fmt.Sprintf("your code ran out of memory while running %s%s", call, site)
	case panicLine.MatchString(out):
		m := panicLine.FindStringSubmatch(out)
		return fmt.Sprintf("your code panicked in a goroutine of its own while running %s: %s%s; the checks can only catch panics in "+
			"the goroutine that calls your function", call, strings.TrimSuffix(m[1], " [recovered]"), site)
	case fatalLine.MatchString(out):
		return fmt.Sprintf("the Go runtime stopped your code while running %s: %s%s", call, fatalLine.FindStringSubmatch(out)[1], site)
	}
	code := -1
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	}
	msg := fmt.Sprintf("your code called os.Exit(%d) (or log.Fatal, which calls it) while running %s: return a value, or an error, instead of ending the program", code, call)
	if last := lastLine(out); last != "" {
		msg += fmt.Sprintf("; its last words: %q", last)
	}
	return msg
}

// lastLine returns the last line of out that is not go test's own.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- ") && l != "PASS" && l != "FAIL" {
			return l
		}
	}
	return ""
}
