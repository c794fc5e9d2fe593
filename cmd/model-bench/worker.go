package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
)

// sideResult is what one side's process measured, as it prints it (the
// GoMLX worker here, scripts/model/model_bench_torch.py alike).
type sideResult struct {
	Side        string       `json:"side"`
	Description string       `json:"description"`
	LoadSeconds float64      `json:"load_seconds"`
	Tasks       []taskResult `json:"tasks"`
	// OMPWaitPolicy is the OMP_WAIT_POLICY PyTorch ran with ("": its
	// default), set by the parent.
	OMPWaitPolicy string `json:"-"`
	// Round is the round the process ran in, from 0, set by the parent.
	Round int `json:"-"`
}

// taskResult is one task's timings in one process.
type taskResult struct {
	Task          string    `json:"task"`
	Seconds       []float64 `json:"seconds"`
	WarmupSeconds *float64  `json:"warmup_seconds"` // the untimed first run (GoMLX: compiling included); nil for memory
	PeakRSSMiB    float64   `json:"peak_rss_mib"`
	PeakIsTask    bool      `json:"peak_is_task"` // the peak was reset before the task (else: since the process started)
}

// runWorker is the GoMLX side, in a process of its own (GOMLX_BACKEND
// chooses the backend): it loads the weights, then runs each task once
// untimed (compiling its graphs) and repeat times timed, and prints a
// sideResult on stdout.
func runWorker(model, idsPath, tasks string, repeat, chunk, keyBlock int, stdout, stderr io.Writer) error {
	ts, err := parseTasks(tasks)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(idsPath)
	if err != nil {
		return err
	}
	var ids []int32
	if err := json.Unmarshal(data, &ids); err != nil {
		return fmt.Errorf("%s: %v", idsPath, err)
	}
	start := time.Now()
	w, err := smollm.Load(model)
	if err != nil {
		return err
	}
	backend, err := posgraph.NewBackend()
	if err != nil {
		return err
	}
	m, err := smollm.New(backend, w, posenc.Scaling{})
	if err != nil {
		return err
	}
	m.KeyBlockSize = keyBlock
	res := sideResult{Side: backend.Name(), LoadSeconds: time.Since(start).Seconds(),
		Description: fmt.Sprintf("GoMLX %s, %s, float32, chunks of up to %d, attention: %s, GOMAXPROCS %s", backend.Name(), backend.Description(),
			chunk, m.Attention(), os.Getenv("GOMAXPROCS"))}
	fmt.Fprintf(stderr, "%s: loaded in %.1f s\n", backend.Name(), res.LoadSeconds)
	for _, t := range ts {
		if t.tokens() > len(ids) {
			return fmt.Errorf("task %s needs %d ids, %s has %d", t, t.tokens(), idsPath, len(ids))
		}
		// Chunks of at most chunk, and no longer than the prompt: a
		// prompt of 128 runs as one chunk of 128, not padded to 512.
		m.ChunkSize = min(chunk, t.Prompt)
		run := func() (float64, error) { return runTask(m, t, ids) }
		r := taskResult{Task: t.String(), PeakIsTask: resetPeakRSS()}
		if t.Kind != "memory" {
			s, err := run()
			if err != nil {
				return err
			}
			r.WarmupSeconds = &s
		}
		n := repeat
		if t.Kind == "memory" {
			n = 1
		}
		for range n {
			s, err := run()
			if err != nil {
				return err
			}
			r.Seconds = append(r.Seconds, s)
		}
		r.PeakRSSMiB = peakRSSMiB()
		fmt.Fprintf(stderr, "%s: %-14s %s s\n", backend.Name(), t, formatSeconds(r.Seconds))
		res.Tasks = append(res.Tasks, r)
	}
	return json.NewEncoder(stdout).Encode(res)
}

// runTask runs t once on the first ids and returns the seconds of its
// timed part.
func runTask(m *smollm.Model, t task, ids []int32) (float64, error) {
	pos := make([]int32, t.tokens())
	for i := range pos {
		pos[i] = int32(i)
	}
	start := time.Now()
	cache, err := m.NewCache(t.tokens())
	if err != nil {
		return 0, err
	}
	if _, _, err := m.Forward(cache, ids[:t.Prompt], pos[:t.Prompt], []int{t.Prompt - 1}, nil); err != nil {
		return 0, err
	}
	if t.Kind != "decode" {
		return time.Since(start).Seconds(), nil
	}
	start = time.Now()
	for i := t.Prompt; i < t.tokens(); i++ {
		if _, _, err := m.Forward(cache, ids[i:i+1], pos[i:i+1], []int{0}, nil); err != nil {
			return 0, err
		}
	}
	return time.Since(start).Seconds(), nil
}

// resetPeakRSS sets the process's peak resident memory (VmHWM) back to
// its current size, so that peakRSSMiB then reads the peak of what
// follows; false where Linux does not allow it (the peak is then since
// the process started).
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSSMiB returns VmHWM from /proc/self/status in MiB (0 where there is
// none).
func peakRSSMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}

func formatSeconds(s []float64) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strings.Join(parts, " ")
}
