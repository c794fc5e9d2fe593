package lab

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/posenc/course/pkg/posgraph"
)

// TestTrainingNeverHangs trains a model large enough for the Go backend to
// run several matrix multiplications in parallel, several times, each on a
// fresh backend from posgraph.NewBackend (the one every program and notebook
// of the course gets), and fails with every goroutine's stack if one run
// does not finish in time. With the Go backend's default worker limit this
// hung about one run in four on 2 cores (see posgraph's unlimitGoWorkers).
func TestTrainingNeverHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test (about 20 s)")
	}
	runs, steps, timeout := 6, 8, 90*time.Second
	text := LoadText()
	m := Model{Encoding: ALiBi, Layers: 2, Dim: 64, Heads: 4, TrainLen: 64}
	tr := Training{SeqLen: 64, Batch: 32, Steps: steps, LearningRate: 1e-3, PasskeyFraction: 0.25, Seed: 1}
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
