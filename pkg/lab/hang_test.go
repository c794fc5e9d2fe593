package lab

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	"github.com/posenc/course/pkg/posgraph"
)

// TestTrainingNeverHangs trains a model large enough for the Go backend to
// run several matrix multiplications in parallel, several times, each on a
// fresh backend from posgraph.NewBackend (the one every program and notebook
// of the course gets), and fails with every goroutine's stack if one run
// does not finish in time. With the Go backend's default worker limit, 20
// steps of such a model hung about one run in four on 2 cores (see
// posgraph's unlimitGoWorkers); these shorter runs catch it less often than
// TestParallelMatMulsNeverHang, which hangs on its first call with that
// limit (GOMLX_BACKEND=go:parallelism=4).
func TestTrainingNeverHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test (about 20 s)")
	}
	runs, steps, timeout := 6, 8, 90*time.Second
	text := LoadText()
	c := DefaultConfig() // 2 layers of width 64 on L = 64, batch 32
	m := c.Model(ALiBi)
	tr := c.training(1)
	tr.Steps, tr.Schedule.Steps, tr.Schedule.Warmup = steps, steps, 2
	tr.ValidEvery = 0 // no learning curve: no validation batch to give it
	for i := range runs {
		backend, err := posgraph.NewBackend()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		start := time.Now()
		go func() {
			_, err := Train(backend, NewStore(int64(i)), m, tr, text, nil)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("run %d: %d steps in %.1f s", i+1, steps, time.Since(start).Seconds())
		case <-time.After(timeout):
			buf := make([]byte, 1<<22)
			buf = buf[:runtime.Stack(buf, true)]
			config, _ := posgraph.ChooseBackend()
			t.Fatalf("run %d of %d: %d training steps did not finish in %s on backend %q (%s): a deadlock?\n%s",
				i+1, runs, steps, timeout, config, backend.Description(), workerStacks(string(buf)))
		}
		backend.Finalize()
	}
}

// workerStacks keeps the goroutines of a dump that are inside GoMLX's Go
// backend.
func workerStacks(dump string) string {
	var keep []string
	for _, g := range strings.Split(dump, "\n\n") {
		if strings.Contains(g, "gomlx/compute") {
			keep = append(keep, g)
		}
	}
	if len(keep) == 0 {
		return dump
	}
	return fmt.Sprintf("%d goroutines in the Go backend:\n\n%s", len(keep), strings.Join(keep, "\n\n"))
}

// TestParallelMatMulsNeverHang is the deadlock's mechanism on its own, which
// catches it far more often than training does: one graph of many
// independent matrix multiplications, all ready at once, so that the Go
// backend starts as many as it has workers and each of them asks for more
// workers. It runs the graph many times, each call with a timeout.
func TestParallelMatMulsNeverHang(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test (a few seconds)")
	}
	backend, err := posgraph.NewBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Finalize()
	const products, rows, width = 12, 2048, 64
	exec := graph.MustNewExec(backend, func(x *graph.Node) *graph.Node {
		g := x.Graph()
		var sum *graph.Node
		for i := range products {
			w := graph.Iota(g, shapes.Make(dtypes.Float32, width, width), i%2) // [width, width]
			p := graph.MatMul(x, graph.MulScalar(w, 1e-3*float64(i+1)))        // [rows, width]; distinct, so not merged
			if sum == nil {
				sum = p
			} else {
				sum = graph.Add(sum, p)
			}
		}
		return graph.ReduceAllSum(sum) // scalar
	})
	x := tensors.FromFlatDataAndDimensions(make([]float32, rows*width), rows, width)
	calls, timeout := 100, 30*time.Second
	for i := range calls {
		done := make(chan error, 1)
		go func() {
			_, err := exec.Exec(x)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(timeout):
			buf := make([]byte, 1<<22)
			buf = buf[:runtime.Stack(buf, true)]
			config, _ := posgraph.ChooseBackend()
			t.Fatalf("call %d of %d: %d independent matrix products did not finish in %s on backend %q (%s): a deadlock?\n%s",
				i+1, calls, products, timeout, config, backend.Description(), workerStacks(string(buf)))
		}
	}
}
