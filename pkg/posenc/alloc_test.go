package posenc

import (
	"testing"

	"github.com/posenc/course/pkg/posenc/internal/parallel"
)

// TestHostKernelsAllocateNothing checks the host layer's promise: given
// dst, the hot entry points allocate nothing once warm, on small inputs
// (run on the calling goroutine) and on inputs large enough to be split
// over the worker goroutines (512×1024 values and more).
func TestHostKernelsAllocateNothing(t *testing.T) {
	if raceDetector {
		t.Skip("under -race, sync.Pool drops items at random, so pooled kernels allocate")
	}
	for _, size := range []struct {
		name       string
		rows, dim  int // sinusoidal table
		heads, seq int // RoPE and ALiBi
		headDim    int
	}{
		{"small", 4, 16, 2, 4, 8},
		{"parallel", 512, 1024, 8, 512, 128},
	} {
		s := NewSinusoidal(size.dim)
		table32 := make([]float32, size.rows*size.dim)
		table64 := make([]float64, size.rows*size.dim)
		emb := make([]float32, size.rows*size.dim)
		r := NewRoPE(size.headDim).WithLayout(Halves)
		cache, err := NewRoPECache(r, size.seq+10)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float32, size.heads*size.seq*size.headDim)
		y := make([]float64, len(x))
		positions := make([]int, size.seq)
		for i := range positions {
			positions[i] = (7 * i) % cache.Len()
		}
		slopes, _ := ALiBiSlopes(size.heads)
		bias := make([]float32, size.heads*size.seq*size.seq)
		if size.name == "parallel" && len(table32) < 4*parallel.MinWork {
			t.Fatalf("the parallel case (%d values) would not be split", len(table32))
		}
		for _, tc := range []struct {
			name string
			call func() error
		}{
			{"SinusoidalTo float32", func() error { return SinusoidalTo(table32, s, 1000) }},
			{"SinusoidalTo float64", func() error { return SinusoidalTo(table64, s.WithTensor2Tensor(), 3) }},
			{"AddSinusoidalTo", func() error { return AddSinusoidalTo(emb, emb, s, 0, true) }},
			{"ApplyRoPETo float32", func() error { return ApplyRoPETo(x, x, cache, size.seq, 10) }},
			{"ApplyRoPETo float64", func() error { return ApplyRoPETo(y, y, cache, size.seq, 0) }},
			{"ApplyRoPEAtTo", func() error { return ApplyRoPEAtTo(x, x, cache, positions) }},
			{"ALiBiBiasTo", func() error { return ALiBiBiasTo(bias, slopes, size.seq, size.seq, true) }},
		} {
			if err := tc.call(); err != nil { // warm-up: kernel pools and workers
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(10, func() {
				if err := tc.call(); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s %s: %v allocations per call; want 0", size.name, tc.name, allocs)
			}
		}
	}
}
