// Package parallel runs posenc's host kernels on the calling goroutine and a
// small pool of long-lived worker goroutines, allocating nothing per call.
//
// A kernel splits its output into units (rows, or blocks of rows) and
// implements [Kernel]. Run(k, units, unitWork, j) must leave the output
// exactly as the plain loop
//
//	k.RunRows(0, units)
//
// leaves it, for any order in which the units are computed: each unit is
// written by exactly one goroutine and depends on no other unit's output.
//
// The pool exists so that a call with dst allocates nothing: a `go`
// statement with a closure, or a WaitGroup shared with another goroutine,
// would escape to the heap on every call. Instead each kernel is a pooled
// struct (see [Pool]) embedding its own [Job], and work items travel by value
// over a channel.
//
// Units are handed out in chunks from an atomic counter rather than split
// evenly up front: on a machine shared with other work one core is often
// slower than the other, and a goroutine that finishes early takes the next
// chunk instead of waiting.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Kernel computes the units [lo, hi) of its output.
type Kernel interface {
	RunRows(lo, hi int)
}

// Job is the shared state of one parallel call; each pooled kernel struct
// embeds one, so that taking its address allocates nothing.
type Job struct {
	wg          sync.WaitGroup
	next        atomic.Int64 // index of the next chunk to hand out
	units, size int          // number of units, units per chunk
}

type workItem struct {
	k Kernel
	j *Job
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
func (j *Job) drain(k Kernel) {
	for {
		lo := int(j.next.Add(1)-1) * j.size
		if lo >= j.units {
			return
		}
		k.RunRows(lo, min(lo+j.size, j.units))
	}
}

// MinWork is the amount of work (in output elements) below which splitting
// over goroutines costs more than it saves.
const MinWork = 1 << 15

// chunksPerWorker is how many chunks each goroutine gets on average: enough
// for a fast goroutine to make up for a slow one, few enough that the
// per-chunk cost (an atomic add, and for some kernels a fresh start such as
// the sinusoidal table's exact anchor) stays negligible.
const chunksPerWorker = 8

// Run runs k over units [0, units), each unit costing about unitWork
// elements of output, with j (embedded in k) as its shared state. Small
// jobs run on the calling goroutine.
func Run(k Kernel, units, unitWork int, j *Job) {
	if units <= 0 {
		return
	}
	workers.once.Do(startWorkers)
	total := units * unitWork
	if unitWork > 0 && total/unitWork != units {
		total = int(^uint(0) >> 1) // overflow: plenty of work
	}
	if total < 2*MinWork || units < 2 || workers.n < 2 {
		k.RunRows(0, units)
		return
	}
	chunks := min(units, total/MinWork, chunksPerWorker*workers.n)
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
