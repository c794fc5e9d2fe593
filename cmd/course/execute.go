package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

//go:embed execute.py
var executePy []byte

// Executor runs notebooks through Jupyter with the gonb kernel.
type Executor struct {
	Root        string        // repository root; the kernel starts in Root/notebooks
	Python      string        // a Python with nbclient
	CellTimeout time.Duration // limit for one cell
	Backend     string        // GOMLX_BACKEND for the kernel; "" leaves the environment's
	KeepGoing   bool          // run the cells after a failing one too
}

// CellReport is the executor script's account of one code cell.
type CellReport struct {
	Index   int     `json:"index"`
	Seconds float64 `json:"seconds"`
	Status  string  `json:"status"` // ok, timeout, dead
}

// Report is the executor script's account of one notebook.
type Report struct {
	Cells          []CellReport `json:"cells"`
	StartupSeconds float64      `json:"startup_seconds"`
	Seconds        float64      `json:"seconds"`
	Error          string       `json:"error"`
	KernelLog      string       `json:"kernel_log"`
}

// errSetup marks errors that installing something fixes.
var errSetup = errors.New("setup")

// FindPython returns the first Python that can import nbclient: $COURSE_PYTHON,
// then Debian's /usr/bin/python3 (the python3 first on PATH may be a pyenv or
// virtualenv one without Jupyter), then python3 on PATH.
func FindPython() (string, error) {
	candidates := []string{"/usr/bin/python3", "python3"}
	if p := os.Getenv("COURSE_PYTHON"); p != "" {
		candidates = []string{p}
	}
	var tried []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			tried = append(tried, c+" (not found)")
			continue
		}
		if err := exec.Command(path, "-c", "import nbclient, nbformat, jupyter_client").Run(); err != nil {
			tried = append(tried, path+" (no nbclient)")
			continue
		}
		return path, nil
	}
	return "", fmt.Errorf("%w: no Python with Jupyter's nbclient: tried %s; run scripts/install.sh --apt", errSetup, strings.Join(tried, ", "))
}

// kernelEnv returns the environment for the executor and the kernel it
// starts: Go's bin folder first on PATH (the kernel spec puts GoNB's tools
// before it), GOMLX_BACKEND when e.Backend is set, and -ldflags=-s added to
// GOFLAGS unless it sets -ldflags already.
//
// GoNB builds and links a whole program for every cell; leaving out the
// symbol table and DWARF (which panics' stack traces do not use) makes a
// cell about 30% faster. Only headless runs get it: the notebooks' cells and
// outputs stay what a learner sees.
//
// JPY_SESSION_NAME, which JupyterLab gives its kernels (and so a notebook's
// shell escapes), is dropped: a live.Panel takes it for a page that can
// show controls, and a headless run has none.
func (e *Executor) kernelEnv() []string {
	var dirs []string
	if goroot, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		dirs = append(dirs, filepath.Join(strings.TrimSpace(string(goroot)), "bin"))
	}
	var env []string
	goflags := ""
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			dirs = append(dirs, strings.TrimPrefix(kv, "PATH="))
		case e.Backend != "" && strings.HasPrefix(kv, "GOMLX_BACKEND="):
		case strings.HasPrefix(kv, "JPY_SESSION_NAME="):
		case strings.HasPrefix(kv, "GOFLAGS="):
			goflags = strings.TrimPrefix(kv, "GOFLAGS=")
		case strings.HasPrefix(kv, "COURSE_GRADE_STATE="):
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+strings.Join(dirs, string(os.PathListSeparator)))
	if !strings.Contains(goflags, "-ldflags") {
		goflags = strings.TrimSpace(goflags + " -ldflags=-s")
	}
	env = append(env, "GOFLAGS="+goflags)
	// The grading cells' output must not depend on what the checkout's
	// grader last saw (it lists changed exercises first).
	env = append(env, "COURSE_GRADE_STATE=off")
	if e.Backend != "" {
		env = append(env, "GOMLX_BACKEND="+e.Backend)
	}
	return env
}

// Execute runs nb (generated from l) in a fresh gonb kernel and returns the
// executed notebook and the report. work is a scratch folder.
func (e *Executor) Execute(l *Lesson, nb Notebook, work string) (Notebook, *Report, error) {
	script := filepath.Join(work, "execute.py")
	in := filepath.Join(work, l.Slug+".in.ipynb")
	out := filepath.Join(work, l.Slug+".ipynb")
	rep := filepath.Join(work, l.Slug+".report.json")
	klog := filepath.Join(work, l.Slug+".kernel.log")
	data, err := nb.Encode()
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(script, executePy, 0o644); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		return nil, nil, err
	}
	args := []string{script, "--in", in, "--out", out, "--report", rep,
		"--cwd", filepath.Join(e.Root, "notebooks"), "--kernel-log", klog,
		"--timeout", fmt.Sprint(int(e.CellTimeout.Seconds()))}
	if e.KeepGoing {
		args = append(args, "--keep-going")
	}
	// The kernel's temporary files (GoNB's work folder, its named pipes) go
	// under work, removed at the end even when a timeout killed the kernel.
	tmp := filepath.Join(work, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(e.Python, args...)
	cmd.Dir = filepath.Join(e.Root, "notebooks")
	cmd.Env = append(e.kernelEnv(), "TMPDIR="+tmp)
	cmd.Stdout = os.Stderr
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			return nil, nil, fmt.Errorf("%w: %s", errSetup, msg)
		}
		return nil, nil, fmt.Errorf("running %s %s: %v\n%s", e.Python, script, err, msg)
	}
	var report Report
	rdata, err := os.ReadFile(rep)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(rdata, &report); err != nil {
		return nil, nil, fmt.Errorf("reading %s: %v", rep, err)
	}
	executed, err := ReadNotebook(out)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %v", out, err)
	}
	return executed, &report, nil
}

// tail returns the last n lines of a file, for showing a kernel's log.
func tail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return ansiEscape.ReplaceAllString(strings.Join(lines, "\n"), "")
}
