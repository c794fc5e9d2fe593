package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseGoBench(t *testing.T) {
	out := `goos: linux
goarch: amd64
BenchmarkSinusoidal/8192x1024-2         	     200	   2758008 ns/op	12166.18 MB/s
BenchmarkRoPE/half-inplace/4x32x4096x128-2   	      10	  51685605 ns/op	10387.24 MB/s	       3.000 extra/op
BenchmarkGraphRoPE/4x32x4096x128           	       3	 594280000 ns/op
PASS
`
	got := parseGoBench(strings.NewReader(out))
	want := map[string]goSample{
		"BenchmarkSinusoidal/8192x1024":            {N: 200, NsPerOp: 2758008, MBPerS: 12166.18},
		"BenchmarkRoPE/half-inplace/4x32x4096x128": {N: 10, NsPerOp: 51685605, MBPerS: 10387.24},
		"BenchmarkGraphRoPE/4x32x4096x128":         {N: 3, NsPerOp: 594280000},
	}
	if len(got) != len(want) {
		t.Fatalf("parsed %d benchmarks (%v); want %d", len(got), got, len(want))
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s = %+v (found %v); want %+v", name, g, ok, w)
		}
	}
}

// TestComputeRows checks that each side is its minimum over rounds, that
// ratios are ratios of minima, and that the targets are judged on them.
func TestComputeRows(t *testing.T) {
	round := func(sinMs, copyMBs, ropeMBs, graphMs, gomlxMs float64) map[string]goSample {
		return map[string]goSample{
			"BenchmarkSinusoidal/8192x1024":           {NsPerOp: sinMs * 1e6, MBPerS: 10000 * 2 / sinMs},
			parCopyRoPE:                               {NsPerOp: 1e12 / copyMBs, MBPerS: copyMBs},
			"BenchmarkRoPE/interleaved/4x32x4096x128": {NsPerOp: 1e12 / ropeMBs, MBPerS: ropeMBs},
			"BenchmarkGraphRoPE/4x32x4096x128":        {NsPerOp: graphMs * 1e6},
			"BenchmarkGoMLXPosRoPE/4x32x4096x128":     {NsPerOp: gomlxMs * 1e6},
		}
	}
	goRounds := []map[string]goSample{
		round(2, 10000, 9000, 300, 700),
		round(4, 20000, 9500, 400, 600),
		round(3, 10000, 8500, 350, 650),
	}
	numpyRounds := []map[string][]float64{
		{"sinusoidal": {0.020}, "rope_interleaved": {0.400}},
		{"sinusoidal": {0.011}, "rope_interleaved": {0.300, 0.500, 0.320}},
		{"sinusoidal": {0.030}, "rope_interleaved": {0.350}},
	}
	rows := computeRows(goRounds, numpyRounds)
	byBench := map[string]row{}
	for _, r := range rows {
		byBench[r.Bench] = r
	}
	sin := byBench["BenchmarkSinusoidal/8192x1024"]
	// min numpy 11 ms / min Go 2 ms = 5.5: met (≥5).
	if sin.Ms != 2 || sin.NumpyMs != 11 || sin.VsNumpy != 5.5 || sin.Met == nil || !*sin.Met {
		t.Errorf("sinusoidal: %v ms, numpy %v ms, ×numpy %v, met %v; want 2, 11, 5.5 and met", sin.Ms, sin.NumpyMs, sin.VsNumpy, sin.Met)
	}
	rope := byBench["BenchmarkRoPE/interleaved/4x32x4096x128"]
	// Best RoPE 9500 MB/s against the best copy, 20000 MB/s: 47.5%, not met.
	if rope.CopyShare != 0.475 || rope.Met == nil || *rope.Met {
		t.Errorf("RoPE copy share %v, met %v; want 0.475 (best against best) and not met", rope.CopyShare, rope.Met)
	}
	// min numpy 0.300 s / min Go 1e12/9500 ns.
	if want := 0.300 * 1e9 / (1e12 / 9500); rope.VsNumpy != want {
		t.Errorf("RoPE ×numpy %v; want %v", rope.VsNumpy, want)
	}
	graph := byBench["BenchmarkGraphRoPE/4x32x4096x128"]
	if graph.VsRef != 2 || graph.Met != nil {
		t.Errorf("graph RoPE ×GoMLX %v, met %v; want 600/300 = 2 and no target", graph.VsRef, graph.Met)
	}
	// Without numpy the numpy targets are unmeasured, hence not met.
	rows = computeRows(goRounds, nil)
	for _, r := range rows {
		if r.Bench == "BenchmarkSinusoidal/8192x1024" && (r.Met == nil || *r.Met || len(r.Unmeasured) != 1) {
			t.Errorf("sinusoidal without numpy: met %v, unmeasured %v; want not met, [numpy]", r.Met, r.Unmeasured)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rounds", "0"}, "--rounds must be >= 1, got 0"},
		{[]string{"--numpy-repeat", "-1"}, "--numpy-repeat must be >= 1, got -1"},
		{[]string{"--benchtime", "fast"}, `--benchtime must be a duration such as 1s or a count such as 10x, got "fast"`},
		{[]string{"--benchtime", "0x"}, "--benchtime must be"},
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		msg := errOut.String()
		if code != exitUsage || out.Len() != 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
			t.Errorf("bench %v: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q",
				tc.args, code, out.String(), msg, tc.want)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, &out, &errOut); code != exitOK || !strings.HasPrefix(out.String(), "usage: bench") {
		t.Errorf("bench --help: exit %d, stdout %q; want 0 and the usage", code, out.String())
	}
}

func TestValidBenchtime(t *testing.T) {
	for s, want := range map[string]bool{"1s": true, "500ms": true, "10x": true, "1x": true,
		"0x": false, "x": false, "-1s": false, "0s": false, "1.5x": false, "010x": false, "": false} {
		if got := validBenchtime(s); got != want {
			t.Errorf("validBenchtime(%q) = %v; want %v", s, got, want)
		}
	}
}
