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

// goBenchRegexp selects the benchmarks of pkg/posenc that the table uses.
const goBenchRegexp = "^Benchmark(Sinusoidal|SinusoidalTable|RoPE|ALiBi|Copy|GraphRoPE|GoMLXPosRoPE|GraphSinusoidal)$"

// goSample is one benchmark's result in one round.
type goSample struct {
	N       int     `json:"n"`
	NsPerOp float64 `json:"ns_per_op"`
	MBPerS  float64 `json:"mb_per_s,omitempty"`
}

// buildTestBinary compiles pkg/posenc's tests once, into dir.
func buildTestBinary(c config, dir string, log io.Writer) (string, error) {
	bin := filepath.Join(dir, "posenc.test")
	cmd := exec.Command(c.goCmd, "test", "-c", "-o", bin, "./pkg/posenc")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building ./pkg/posenc's test binary: %v", err)
	}
	return bin, nil
}

// runGoBenchmarks runs the benchmarks once and returns their results by
// name (without the -GOMAXPROCS suffix).
func runGoBenchmarks(c config, bin string) (map[string]goSample, error) {
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", goBenchRegexp,
		"-test.benchtime", c.benchtime, "-test.count", "1")
	cmd.Env = append(os.Environ(), "GOMLX_BACKEND=go")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("running the Go benchmarks: %v\n%s", err, out.String())
	}
	samples := parseGoBench(&out)
	if len(samples) == 0 {
		return nil, fmt.Errorf("the Go benchmarks printed no results:\n%s", out.String())
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
