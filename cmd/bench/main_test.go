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
posenc: backend go: no XLA PJRT plugin is installed
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

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v; want %v", tc.in, got, tc.want)
		}
	}
}

// TestComputeRows checks that ratios are taken within each round and that
// the targets are judged on the medians.
func TestComputeRows(t *testing.T) {
	round := func(sinMs, copyMBs, ropeMBs, graphMs, gomlxMs float64) map[string]goSample {
		return map[string]goSample{
			"BenchmarkSinusoidal/8192x1024":           {NsPerOp: sinMs * 1e6, MBPerS: 10000},
			parCopyRoPE:                               {NsPerOp: 50e6, MBPerS: copyMBs},
			"BenchmarkRoPE/interleaved/4x32x4096x128": {NsPerOp: 40e6, MBPerS: ropeMBs},
			"BenchmarkGraphRoPE/4x32x4096x128":        {NsPerOp: graphMs * 1e6},
			"BenchmarkGoMLXPosRoPE/4x32x4096x128":     {NsPerOp: gomlxMs * 1e6},
		}
	}
	goRounds := []map[string]goSample{
		round(2, 10000, 9000, 300, 700), // ×numpy 10, 90% copy, 2.33× GoMLX
		round(4, 20000, 9000, 400, 700), // ×numpy 5 (numpy slower this round too), 45%, 1.75×
		round(3, 10000, 8500, 300, 650), // ×numpy 6.67, 85%, 2.17×
	}
	numpyRounds := []map[string][]float64{
		{"sinusoidal": {0.020}, "rope_interleaved": {0.400}},
		{"sinusoidal": {0.020}, "rope_interleaved": {0.300, 0.500, 0.320}},
		{"sinusoidal": {0.020}, "rope_interleaved": {0.300}},
	}
	rows := computeRows(goRounds, numpyRounds)
	byBench := map[string]row{}
	for _, r := range rows {
		byBench[r.Bench] = r
	}
	sin := byBench["BenchmarkSinusoidal/8192x1024"]
	if sin.VsNumpy < 6.66 || sin.VsNumpy > 6.67 || sin.Met == nil || !*sin.Met {
		t.Errorf("sinusoidal: ×numpy %v, met %v; want the median 6.67 and met (≥5)", sin.VsNumpy, sin.Met)
	}
	rope := byBench["BenchmarkRoPE/interleaved/4x32x4096x128"]
	if rope.CopyShare != 0.85 {
		t.Errorf("RoPE copy share %v; want the median of 0.9, 0.45, 0.85 = 0.85", rope.CopyShare)
	}
	// ×numpy per round: 10, 8 (median numpy 0.32 s / 0.04 s), 7.5 → 8: met.
	if rope.VsNumpy != 8 || rope.Met == nil || !*rope.Met {
		t.Errorf("RoPE ×numpy %v, met %v; want 8 and met", rope.VsNumpy, rope.Met)
	}
	graph := byBench["BenchmarkGraphRoPE/4x32x4096x128"]
	if graph.VsRef < 2.16 || graph.VsRef > 2.17 || graph.Met == nil || !*graph.Met {
		t.Errorf("graph RoPE ×GoMLX %v, met %v; want 2.17 and met", graph.VsRef, graph.Met)
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
