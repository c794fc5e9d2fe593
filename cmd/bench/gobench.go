package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// benchPackages are the packages whose benchmarks the table uses, with the
// benchmarks selected in each.
var benchPackages = []struct{ pkg, regexp string }{
	{"./pkg/posenc", "^Benchmark(Sinusoidal|SinusoidalTable|RoPE|ALiBi|Copy)$"},
	{"./pkg/posgraph", "^Benchmark(GraphRoPE|GoMLXPosRoPE|GraphSinusoidal)$"},
}

// goSample is one benchmark's result in one round.
type goSample struct {
	N       int     `json:"n"`
	NsPerOp float64 `json:"ns_per_op"`
	MBPerS  float64 `json:"mb_per_s,omitempty"`
}

// testBinary is one package's compiled tests and the benchmarks to run.
type testBinary struct{ path, regexp string }

// buildTestBinaries compiles the tests of benchPackages once, into dir.
func buildTestBinaries(c config, dir string, log io.Writer) ([]testBinary, error) {
	var bins []testBinary
	for _, p := range benchPackages {
		bin := filepath.Join(dir, filepath.Base(p.pkg)+".test")
		cmd := exec.Command(c.goCmd, "test", "-c", "-o", bin, p.pkg)
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("building %s's test binary: %v", p.pkg, err)
		}
		bins = append(bins, testBinary{bin, p.regexp})
	}
	return bins, nil
}

// runGoBenchmarks runs every binary's benchmarks once and returns their
// results by name (without the -GOMAXPROCS suffix).
func runGoBenchmarks(c config, bins []testBinary) (map[string]goSample, error) {
	samples := map[string]goSample{}
	for _, b := range bins {
		cmd := exec.Command(b.path, "-test.run", "^$", "-test.bench", b.regexp,
			"-test.benchtime", c.benchtime, "-test.count", "1")
		cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("running the Go benchmarks of %s: %v\n%s", filepath.Base(b.path), err, out.String())
		}
		got := parseGoBench(&out)
		if len(got) == 0 {
			return nil, fmt.Errorf("the Go benchmarks of %s printed no results:\n%s", filepath.Base(b.path), out.String())
		}
		for name, s := range got {
			samples[name] = s
		}
	}
	return samples, nil
}

var procsSuffix = regexp.MustCompile(`-\d+$`)

// parseGoBench reads `go test -bench` output: lines such as
//
//	BenchmarkRoPE/half/4x32x4096x128-2   10   51685605 ns/op   10387.24 MB/s
//
// and returns the samples by benchmark name, the GOMAXPROCS suffix removed.
func parseGoBench(r io.Reader) map[string]goSample {
	samples := map[string]goSample{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			continue
		}
		var s goSample
		s.N = n
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				break
			}
			switch fields[i+1] {
			case "ns/op":
				s.NsPerOp = v
			case "MB/s":
				s.MBPerS = v
			}
		}
		if s.NsPerOp > 0 {
			samples[procsSuffix.ReplaceAllString(fields[0], "")] = s
		}
	}
	return samples
}
