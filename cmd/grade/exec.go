package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/posenc/course/internal/catalog"
)

// exerciseTimeout bounds one exercise's process. The checks time out after
// 3 s each (the first one stops the exercise), so only code that blocks the
// test itself (a deadlock, an endless loop in a goroutine the checks wait
// for) runs this long.
const exerciseTimeout = 60 * time.Second

// runAll runs each exercise of list in a process of its own, a few at a
// time, and returns their results in order. Exercises in broken were
// replaced by a stand-in and are not run.
func runAll(binary, dir, tmp string, list []catalog.Exercise, broken map[int]string) []Result {
	results := make([]Result, len(list))
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, e := range list {
		if line, ok := broken[e.Num]; ok {
			results[i] = Result{Status: catalog.StatusNoCompile, Summary: line}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runOne(binary, dir, filepath.Join(tmp, fmt.Sprintf("report-%02d.jsonl", e.Num)), e)
		}()
	}
	wg.Wait()
	return results
}

// runOne runs exercise e's test and reads what it reported.
func runOne(binary, dir, report string, e catalog.Exercise) Result {
	ctx, cancel := context.WithTimeout(context.Background(), exerciseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "-test.run=^"+e.Test+"$", "-test.count=1",
		fmt.Sprintf("-test.timeout=%v", exerciseTimeout-5*time.Second))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), catalog.ReportEnv+"="+report)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && ctx.Err() == nil {
		return Result{Status: catalog.StatusNotGraded, Summary: "the exercise's test could not be started: " + err.Error()}
	}
	records, rerr := readReport(report)
	if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return Result{Status: catalog.StatusNotGraded, Summary: "the exercise's report could not be read: " + rerr.Error()}
	}
	var last *catalog.Record
	lastCall := ""
	for i := range records {
		switch records[i].Event {
		case catalog.EventCall:
			lastCall = records[i].Call
		case catalog.EventResult:
			last = &records[i]
		}
	}
	if last != nil {
		return Result{Status: last.Status, Checks: last.Checks, ChecksPassed: last.Passed, Summary: last.Summary, Messages: last.Messages}
	}
	if ctx.Err() != nil {
		return Result{Status: catalog.StatusTimeout, Summary: fmt.Sprintf("%s did not finish within %v and was stopped", during(lastCall, e), exerciseTimeout)}
	}
	if err == nil && len(records) == 0 {
		return Result{Status: catalog.StatusNotGraded, Summary: "the test " + e.Test + " did not run"}
	}
	return Result{Status: catalog.StatusCrash, Summary: crashMessage(out.String(), err, during(lastCall, e)), Messages: strings.TrimSpace(out.String())}
}

// during names the call that was running.
func during(call string, e catalog.Exercise) string {
	if call == "" {
		return "the test of " + e.FuncList()
	}
	return call
}

// readReport reads the records an exercise test wrote.
func readReport(path string) ([]catalog.Record, error) {
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

// Patterns in the output of a test binary that died.
var (
	panicLine = regexp.MustCompile(`(?m)^panic: (.*)$`)
	fatalLine = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
	siteLine  = regexp.MustCompile(`(?m)^\s+(\S*exercises/\d\d_\w+\.go):(\d+)`)
)

// crashMessage says, in a learner's words, why the process of an exercise
// died while running call.
func crashMessage(out string, err error, call string) string {
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
