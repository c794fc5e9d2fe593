package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// testEvent is one line of `go test -json` (cmd/test2json), including the
// build events of Go ≥ 1.24.
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

// testResult is what `go test -json` said about one top-level test.
type testResult struct {
	Name      string
	Ran       bool   // a "run" event was seen
	Action    string // "pass", "fail", "skip", or "" when it never finished
	SubPassed int
	SubTotal  int
	Messages  []string // the test's and its subtests' output, without go test's framing
}

// testRun is a whole `go test -json` run of the exercises package.
type testRun struct {
	Tests       map[string]*testResult
	BuildFailed bool
	BuildOutput string // compiler errors, when BuildFailed
	Stray       string // output outside any test (a crash's stack, for instance)
}

// goTest runs `go test -json` on ./exercises in root, with overlay (a
// -overlay JSON file) when not empty, and parses its events. It returns an
// error only when go could not be run at all.
func goTest(root, overlay string) (*testRun, error) {
	args := []string{"test", "-json", "-count=1", "-timeout=5m"}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	args = append(args, "./exercises")
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return nil, fmt.Errorf("running go test: %w", err)
	}
	run := parseEvents(stdout.Bytes())
	if s := strings.TrimSpace(stderr.String()); s != "" {
		// Older toolchains print build errors on stderr, not as events.
		if len(run.Tests) == 0 {
			run.BuildFailed = true
		}
		run.BuildOutput = strings.TrimSpace(run.BuildOutput + "\n" + s)
	}
	if err != nil && len(run.Tests) == 0 && !run.BuildFailed {
		return nil, fmt.Errorf("go test failed without running a test: %s", strings.TrimSpace(stderr.String()+stdout.String()))
	}
	return run, nil
}

// goCommand returns the go command that runs this program's toolchain.
func goCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// parseEvents reads `go test -json` output. Lines that are not JSON events
// (a toolchain that prints build errors as text) count as build output.
func parseEvents(data []byte) *testRun {
	run := &testRun{Tests: map[string]*testResult{}}
	var build, stray strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var ev testEvent
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			build.Write(line)
			build.WriteByte('\n')
			continue
		}
		switch {
		case ev.Action == "build-output":
			build.WriteString(ev.Output)
		case ev.Action == "build-fail":
			run.BuildFailed = true
		case ev.Test == "":
			if ev.FailedBuild != "" {
				run.BuildFailed = true
			}
			if ev.Action == "output" && !isFraming(ev.Output) {
				stray.WriteString(ev.Output)
			}
		default:
			run.add(ev)
		}
	}
	run.BuildOutput = strings.TrimSpace(build.String())
	run.Stray = strings.TrimSpace(stray.String())
	if run.BuildFailed && run.BuildOutput == "" {
		run.BuildOutput = run.Stray
	}
	return run
}

// add records one event of a test or subtest.
func (run *testRun) add(ev testEvent) {
	top, sub, isSub := strings.Cut(ev.Test, "/")
	r := run.Tests[top]
	if r == nil {
		r = &testResult{Name: top}
		run.Tests[top] = r
	}
	switch ev.Action {
	case "run":
		if !isSub {
			r.Ran = true
		}
	case "pass", "fail", "skip":
		if !isSub {
			r.Action = ev.Action
		} else if !strings.Contains(sub, "/") && ev.Action != "skip" {
			r.SubTotal++
			if ev.Action == "pass" {
				r.SubPassed++
			}
		}
	case "output":
		if m := message(ev.Output); m != "" {
			r.Messages = append(r.Messages, m)
		}
	}
}

// framing matches the lines go test prints around tests.
var framing = regexp.MustCompile(`^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|FAIL|SKIP)|PASS$|FAIL$|ok\s|FAIL\s|coverage:)`)

func isFraming(line string) bool { return framing.MatchString(strings.TrimRight(line, "\n")) }

// location matches the "file_test.go:12: " prefix of t.Error output.
var location = regexp.MustCompile(`^\S+\.go:\d+: `)

// message returns one output line without go test's framing and location
// prefix, or "" for framing.
func message(line string) string {
	if isFraming(line) {
		return ""
	}
	return location.ReplaceAllString(strings.TrimSpace(line), "")
}
