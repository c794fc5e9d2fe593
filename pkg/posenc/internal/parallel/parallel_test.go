package parallel

import (
	"sync/atomic"
	"testing"
)

// countKernel writes f(u) = 3u+1 into unit u and counts how often each
// unit is written: its plain loop is RunRows(0, units).
type countKernel struct {
	Job
	out    []int
	writes []atomic.Int32
}

func (k *countKernel) RunRows(lo, hi int) {
	for u := lo; u < hi; u++ {
		k.out[u] = 3*u + 1
		k.writes[u].Add(1)
	}
}

// TestRunIsItsLoop checks that Run writes every unit exactly once, as the
// plain loop does, for jobs run on the calling goroutine (small) and split
// over the workers (large), and for the same kernel struct reused.
func TestRunIsItsLoop(t *testing.T) {
	k := &countKernel{}
	for _, tc := range []struct{ units, unitWork int }{
		{0, 1}, {1, 1 << 30}, {5, 1}, {2, MinWork}, {1000, 1024}, {4096, 128}, {3, int(^uint(0) >> 2)},
	} {
		for range 2 { // the second time, with the Job of the first call
			k.out = make([]int, tc.units)
			k.writes = make([]atomic.Int32, tc.units)
			Run(k, tc.units, tc.unitWork, &k.Job)
			for u := range tc.units {
				if k.out[u] != 3*u+1 || k.writes[u].Load() != 1 {
					t.Fatalf("Run(%d units of %d): unit %d = %d, written %d times; want %d, once",
						tc.units, tc.unitWork, u, k.out[u], k.writes[u].Load(), 3*u+1)
				}
			}
		}
	}
}

type k32 struct{ x float32 }
type k64 struct{ x float64 }

func TestTypedPool(t *testing.T) {
	var tp TypedPool[k32, k64]
	a := Get[k32](&tp)
	a.x = 1
	Put(&tp, a)
	if b := Get[k64](&tp); b == nil || b.x != 0 {
		t.Fatalf("Get[k64] = %v; want a fresh *k64", b)
	}
	// A type the pool does not hold: a new one each time, and Put ignores it.
	type other struct{ n int }
	o := Get[other](&tp)
	o.n = 5
	Put(&tp, o)
	if o2 := Get[other](&tp); o2 == o || o2.n != 0 {
		t.Fatalf("Get[other] = %p (n = %d); want a new value, not %p", o2, o2.n, o)
	}
}
