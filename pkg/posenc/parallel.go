package posenc

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Host kernels split their output into units (rows, or blocks of rows) and
// run them on the calling goroutine and a small pool of long-lived worker
// goroutines. The pool exists so that a call with dst allocates nothing: a
// `go` statement with a closure, or a WaitGroup shared with another
// goroutine, would escape to the heap on every call. Instead each kernel is
// a pooled struct (see kernelPool) embedding its own parallelJob, and work
// items travel by value over a channel.
//
// Units are handed out in chunks from an atomic counter rather than split
// evenly up front: on a machine shared with other work one core is often
// slower than the other, and a goroutine that finishes early takes the next
// chunk instead of waiting.

// rowKernel computes the units [lo, hi) of its output.
type rowKernel interface {
	runRows(lo, hi int)
}

// parallelJob is the shared state of one parallel call; each pooled kernel
// struct embeds one, so that taking its address allocates nothing.
type parallelJob struct {
	wg          sync.WaitGroup
	next        atomic.Int64 // index of the next chunk to hand out
	units, size int          // number of units, units per chunk
}

type workItem struct {
	k rowKernel
	j *parallelJob
}

var workers struct {
	once sync.Once
	n    int
	ch   chan workItem
}

func startWorkers() {
	workers.n = runtime.GOMAXPROCS(0)
	workers.ch = make(chan workItem, 4*workers.n)
	for i := 0; i < workers.n-1; i++ {
		go func() {
			for w := range workers.ch {
				w.j.drain(w.k)
				w.j.wg.Done()
			}
		}()
	}
}

// drain runs chunks of k until none is left.
func (j *parallelJob) drain(k rowKernel) {
	for {
		lo := int(j.next.Add(1)-1) * j.size
		if lo >= j.units {
			return
		}
		k.runRows(lo, min(lo+j.size, j.units))
	}
}

// parallelMinWork is the amount of work (in output elements) below which
// splitting over goroutines costs more than it saves.
const parallelMinWork = 1 << 15

// chunksPerWorker is how many chunks each goroutine gets on average: enough
// for a fast goroutine to make up for a slow one, few enough that the
// per-chunk cost (an atomic add, and for some kernels a fresh start such as
// the sinusoidal table's exact anchor) stays negligible.
const chunksPerWorker = 8

// parallelUnits runs k over units [0, units), each unit costing about
// unitWork elements of output. Small jobs run on the calling goroutine.
func parallelUnits(k rowKernel, units, unitWork int, j *parallelJob) {
	if units <= 0 {
		return
	}
	workers.once.Do(startWorkers)
	total := units * unitWork
	if unitWork > 0 && total/unitWork != units {
		total = int(^uint(0) >> 1) // overflow: plenty of work
	}
	if total < 2*parallelMinWork || units < 2 || workers.n < 2 {
		k.runRows(0, units)
		return
	}
	chunks := min(units, total/parallelMinWork, chunksPerWorker*workers.n)
	j.units, j.size = units, (units+chunks-1)/chunks
	chunks = (units + j.size - 1) / j.size
	j.next.Store(0)
	helpers := min(workers.n-1, chunks-1)
	j.wg.Add(helpers)
	for range helpers {
		workers.ch <- workItem{k: k, j: j}
	}
	j.drain(k)
	j.wg.Wait()
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
