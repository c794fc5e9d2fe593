// Command mutate runs mutation testing on the exercises' tests (make
// mutation): gremlins (github.com/go-gremlins/gremlins, pinned in
// tools/gremlins/go.mod) mutates each worked solution, standing in for its
// stub in a scratch copy of the module, and runs the exercise tests on
// every mutant. A mutant the tests do not kill (LIVED), or one no test
// reaches (NOT COVERED), is a wrong answer a learner could hand in and pass.
// Every mutator is enabled, the optional ones included.
//
// It prints gremlins' summary, lists the mutants that lived or were not
// covered, and exits with status 1 unless the test efficacy and the mutant
// coverage are both 100%.
//
//	go run ./exercises/internal/mutate [-workers N] [-json out.json] [-run NN_,MM_]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/internal/check"
	"github.com/posenc/course/internal/cli"
)

func main() {
	workers := flag.Int("workers", runtime.NumCPU(), "mutants tested at once")
	jsonOut := flag.String("json", "", "also write gremlins' JSON report to `file`")
	only := flag.String("run", "", "mutate only the solutions whose file name contains one of the comma-separated `texts` (e.g. 03_,07_)")
	keep := flag.Bool("keep", false, "keep the scratch module and print its path")
	flag.Parse()
	if err := run(*workers, *jsonOut, *only, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(workers int, jsonOut, only string, keep bool) error {
	root, err := cli.FindRoot("")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "tools", "gremlins", "go.mod")); err != nil {
		return fmt.Errorf("gremlins is not pinned in this checkout: %w", err)
	}
	tmp, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("scratch module:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	start := time.Now()
	gremlins := filepath.Join(tmp, "bin", "gremlins")
	build := exec.Command("go", "build", "-o", gremlins, "github.com/go-gremlins/gremlins/cmd/gremlins")
	build.Dir = filepath.Join(root, "tools", "gremlins")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building gremlins: %w", err)
	}
	mod := filepath.Join(tmp, "module")
	if err := scratchModule(root, mod); err != nil {
		return err
	}
	report := filepath.Join(tmp, "gremlins.json")
	args := []string{"unleash",
		"--arithmetic-base", "--conditionals-boundary", "--conditionals-negation", "--increment-decrement",
		"--invert-negatives", "--invert-assignments", "--invert-bitwise", "--invert-bwassign",
		"--invert-logical", "--invert-loopctrl", "--remove-self-assignments",
		"--exclude-files", `^internal/`,
		"--timeout-coefficient", "10",
		"--workers", fmt.Sprint(workers),
		"--output", report,
	}
	for _, e := range check.Exercises() {
		if only != "" && !slices.ContainsFunc(strings.Split(only, ","), func(s string) bool { return strings.Contains(e.File(), s) }) {
			args = append(args, "--exclude-files", "^"+strings.ReplaceAll(e.File(), ".", `\.`)+"$")
		}
	}
	cmd := exec.Command(gremlins, args...)
	cmd.Dir = filepath.Join(mod, catalog.Dir)
	// A mutant that loops is stopped by the exercise tests' own timeout
	// (and so killed) long before gremlins' timeout would only mark it
	// timed out.
	cmd.Env = append(os.Environ(), catalog.TimeoutEnv+"=1s", "GOFLAGS=-mod=mod")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gremlins: %w", err)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return err
	}
	if jsonOut != "" {
		if err := os.WriteFile(jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	return summarize(data, time.Since(start))
}

// scratchModule copies what the exercise tests need into dir, with each
// solution in place of its stub: every package of this module that they
// import, as go list finds them (so that a package that moves or is added
// travels too), without its tests.
func scratchModule(root, dir string) error {
	for _, p := range []string{"go.mod", "go.sum"} {
		if err := cli.CopyFile(filepath.Join(dir, p), filepath.Join(root, p)); err != nil {
			return err
		}
	}
	list := exec.Command("go", "list", "-deps", "-test", "-f", "{{if .Module}}{{.Module.Path}} {{.Dir}}{{end}}", "./"+catalog.Dir)
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		return fmt.Errorf("go list the exercise tests' packages: %w", err)
	}
	exercises := filepath.Join(root, catalog.Dir)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		mod, pkgDir, _ := strings.Cut(line, " ")
		if mod != cli.ModulePath || pkgDir == exercises {
			continue
		}
		rel, err := filepath.Rel(root, pkgDir)
		if err != nil {
			return err
		}
		if err := copyPackage(filepath.Join(dir, rel), pkgDir); err != nil {
			return err
		}
	}
	for _, e := range check.Exercises() {
		if err := cli.CopyFile(filepath.Join(dir, catalog.Dir, e.File()), filepath.Join(root, "solutions", e.File())); err != nil {
			return err
		}
		if err := cli.CopyFile(filepath.Join(dir, catalog.Dir, e.TestFile()), filepath.Join(root, catalog.Dir, e.TestFile())); err != nil {
			return err
		}
	}
	return nil
}

// copyPackage copies the files of one package directory (its Go and
// assembly files and whatever they embed, not its tests or the packages
// below it): a subdirectory without Go files is data it may embed
// (pkg/posenc/modelconfigs/full), and is copied whole.
func copyPackage(dst, src string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if en.IsDir() {
			sub := filepath.Join(src, en.Name())
			if goFiles, _ := filepath.Glob(filepath.Join(sub, "*.go")); len(goFiles) == 0 {
				if err := copyPackage(filepath.Join(dst, en.Name()), sub); err != nil {
					return err
				}
			}
			continue
		}
		if strings.HasSuffix(en.Name(), "_test.go") {
			continue
		}
		if err := cli.CopyFile(filepath.Join(dst, en.Name()), filepath.Join(src, en.Name())); err != nil {
			return err
		}
	}
	return nil
}

// report is the part of gremlins' JSON output that matters here.
type report struct {
	Efficacy  float64 `json:"test_efficacy"`
	Coverage  float64 `json:"mutations_coverage"`
	Total     int     `json:"mutants_total"`
	Killed    int     `json:"mutants_killed"`
	Lived     int     `json:"mutants_lived"`
	NotViable int     `json:"mutants_not_viable"`
	NotCov    int     `json:"mutants_not_covered"`
	Elapsed   float64 `json:"elapsed_time"`
	Files     []struct {
		Name      string `json:"file_name"`
		Mutations []struct {
			Line   int    `json:"line"`
			Column int    `json:"column"`
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"mutations"`
	} `json:"files"`
}

// summarize prints the outcome and returns an error unless it is perfect.
func summarize(data []byte, took time.Duration) error {
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("reading gremlins' report: %w", err)
	}
	var bad []string
	timedOut := 0
	for _, f := range r.Files {
		for _, m := range f.Mutations {
			switch m.Status {
			case "LIVED", "NOT COVERED":
				bad = append(bad, fmt.Sprintf("%-11s %-22s solutions/%s:%d:%d", m.Status, m.Type, filepath.Base(f.Name), m.Line, m.Column))
			case "TIMED OUT":
				timedOut++
			}
		}
	}
	sort.Strings(bad)
	fmt.Printf("\nmutation testing of the solutions, every mutator enabled: %d mutants, %d killed, %d lived, %d not covered, "+
		"%d timed out, %d not viable\n", r.Total, r.Killed, r.Lived, r.NotCov, timedOut, r.NotViable)
	fmt.Printf("test efficacy %.2f%%, mutant coverage %.2f%% (gremlins %.0f s, %.0f s in all)\n", r.Efficacy, r.Coverage, r.Elapsed, took.Seconds())
	for _, b := range bad {
		fmt.Println("  " + b)
	}
	if r.Efficacy < 100 || r.Coverage < 100 || r.Killed == 0 {
		return fmt.Errorf("want 100%% efficacy and 100%% mutant coverage")
	}
	return nil
}
