package posenc

import (
	"runtime"
	"sync"
)

// Host kernels split their output by rows over a small pool of long-lived
// worker goroutines. The pool exists so that a call with dst allocates
// nothing: a `go` statement with a closure, or a WaitGroup shared with
// another goroutine, would escape to the heap on every call. Instead each
// kernel is a pooled struct (see kernelPool) holding its own WaitGroup, and
// work items travel by value over a channel.

// rowKernel computes the rows [lo, hi) of its output.
type rowKernel interface {
	runRows(lo, hi int)
}

type workItem struct {
	k      rowKernel
	lo, hi int
	wg     *sync.WaitGroup
}

var workers struct {
	once sync.Once
	n    int
	ch   chan workItem
}

func startWorkers() {
	workers.n = runtime.GOMAXPROCS(0)
	workers.ch = make(chan workItem, 4*workers.n)
	for i := 0; i < workers.n; i++ {
		go func() {
			for w := range workers.ch {
				w.k.runRows(w.lo, w.hi)
				w.wg.Done()
			}
		}()
	}
}

// parallelMinWork is the amount of work (in output elements) below which
// splitting over goroutines costs more than it saves.
const parallelMinWork = 1 << 15

// parallelRows runs k over rows [0, rows), each row costing about rowWork
// elements of output. Small jobs run on the calling goroutine. wg must be
// owned by k's pooled struct (so that taking its address does not allocate).
func parallelRows(k rowKernel, rows, rowWork int, wg *sync.WaitGroup) {
	if rows <= 0 {
		return
	}
	workers.once.Do(startWorkers)
	total := rows * rowWork
	chunks := workers.n
	if total < 2*parallelMinWork || rows < 2 || chunks < 2 {
		k.runRows(0, rows)
		return
	}
	if maxChunks := total / parallelMinWork; chunks > maxChunks {
		chunks = maxChunks
	}
	if chunks > rows {
		chunks = rows
	}
	// The calling goroutine computes the first chunk itself.
	wg.Add(chunks - 1)
	for c := 1; c < chunks; c++ {
		workers.ch <- workItem{k: k, lo: rows * c / chunks, hi: rows * (c + 1) / chunks, wg: wg}
	}
	k.runRows(0, rows/chunks)
	wg.Wait()
}

// kernelPool recycles kernel structs so that hot paths allocate nothing.
type kernelPool[K any] struct{ p sync.Pool }

func (kp *kernelPool[K]) get() *K {
	if v := kp.p.Get(); v != nil {
		return v.(*K)
	}
	return new(K)
}

func (kp *kernelPool[K]) put(k *K) { kp.p.Put(k) }

// typedPool holds one kernelPool per element type, so that generic host
// functions can recycle their kernel structs: K32 and K64 are the float32 and
// float64 instantiations of the same kernel type.
type typedPool[K32, K64 any] struct {
	f32 kernelPool[K32]
	f64 kernelPool[K64]
}

// getKernel returns a recycled *K from tp when K is one of tp's two types,
// and a new one otherwise (element types such as `type F float32`).
func getKernel[K, K32, K64 any](tp *typedPool[K32, K64]) *K {
	switch any((*K)(nil)).(type) {
	case *K32:
		return any(tp.f32.get()).(*K)
	case *K64:
		return any(tp.f64.get()).(*K)
	}
	return new(K)
}

func putKernel[K, K32, K64 any](tp *typedPool[K32, K64], k *K) {
	switch kk := any(k).(type) {
	case *K32:
		tp.f32.put(kk)
	case *K64:
		tp.f64.put(kk)
	}
}

// growFloat64 returns s resized to n, reusing its storage when it can.
func growFloat64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
