package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
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
	records, rerr := check.ReadReport(report)
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
		return Result{Status: catalog.StatusTimeout, Summary: fmt.Sprintf("%s did not finish within %v and was stopped", check.During(lastCall, e), exerciseTimeout)}
	}
	if err == nil && len(records) == 0 {
		return Result{Status: catalog.StatusNotGraded, Summary: "the test " + e.Test + " did not run"}
	}
	return Result{Status: catalog.StatusCrash, Summary: check.CrashMessage(out.String(), err, check.During(lastCall, e)), Messages: strings.TrimSpace(out.String())}
}
