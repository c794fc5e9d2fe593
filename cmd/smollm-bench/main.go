// Command smollm-bench times SmolLM2-135M in GoMLX (pkg/smollm) on the
// backend posgraph chooses: prefill tokens/s at each -prefill length (the
// whole sequence in query chunks of -chunk, logits of the last row only),
// and greedy decoding tokens/s with the key/value cache after a prompt of
// 512. Each figure is the best of -runs after one untimed run that
// compiles the graphs. scripts/model/bench.sh runs it beside transformers +
// torch on the same tokens (make bench).
//
//	go run ./cmd/smollm-bench -ids ids.txt -json out.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
	"github.com/posenc/course/pkg/smollm"
)

// result is one timed figure.
type result struct {
	What       string  `json:"what"` // "prefill" or "decode"
	Tokens     int     `json:"tokens"`
	Seconds    float64 `json:"seconds"` // best run
	TokensPerS float64 `json:"tokens_per_s"`
}

func main() {
	ids := flag.String("ids", "", "file of whitespace-separated token ids (required)")
	prefill := flag.String("prefill", "512,2048", "comma-separated prefill lengths")
	decode := flag.Int("decode", 32, "tokens to decode after a prompt of 512 (0: none)")
	runs := flag.Int("runs", 3, "timed runs; the best counts")
	chunk := flag.Int("chunk", 512, "query chunk size")
	out := flag.String("json", "", "also write the results to this file")
	flag.Parse()
	if err := run(*ids, *prefill, *decode, *runs, *chunk, *out); err != nil {
		fmt.Fprintf(os.Stderr, "smollm-bench: %v\n", err)
		os.Exit(1)
	}
}

func run(idsPath, prefill string, decode, runs, chunk int, out string) error {
	if idsPath == "" || runs < 1 || chunk < 1 {
		return fmt.Errorf("-ids is required, -runs and -chunk must be positive")
	}
	data, err := os.ReadFile(idsPath)
	if err != nil {
		return err
	}
	var ids []int32
	for _, s := range strings.Fields(string(data)) {
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%s: %q is not a token id", idsPath, s)
		}
		ids = append(ids, int32(v))
	}
	path, err := smollm.Find()
	if err != nil {
		return err
	}
	w, err := smollm.Load(path)
	if err != nil {
		return err
	}
	m, err := smollm.New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		return err
	}
	m.ChunkSize = chunk
	fmt.Fprintf(os.Stderr, "%s; GOMAXPROCS %d\n", posgraph.BackendSummary(), runtime.GOMAXPROCS(0))
	var results []result
	// best runs f once untimed (compiling), then runs times, and records the
	// least seconds f reports.
	best := func(what string, tokens int, f func() (time.Duration, error)) error {
		if _, err := f(); err != nil {
			return err
		}
		b := time.Duration(0)
		for i := range runs {
			d, err := f()
			if err != nil {
				return err
			}
			if i == 0 || d < b {
				b = d
			}
		}
		r := result{what, tokens, b.Seconds(), float64(tokens) / b.Seconds()}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%s %d tokens: %.2f s, %.1f tokens/s\n", what, tokens, r.Seconds, r.TokensPerS)
		return nil
	}
	positions := func(n int) []int32 {
		pos := make([]int32, n)
		for i := range pos {
			pos[i] = int32(i)
		}
		return pos
	}
	for _, s := range strings.Split(prefill, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > len(ids) {
			return fmt.Errorf("-prefill %q: want lengths from 1 to %d (the ids given)", s, len(ids))
		}
		err = best("prefill", n, func() (time.Duration, error) {
			cache, err := m.NewCache(n)
			if err != nil {
				return 0, err
			}
			start := time.Now()
			_, _, err = m.Forward(cache, ids[:n], positions(n), []int{n - 1}, nil)
			return time.Since(start), err
		})
		if err != nil {
			return err
		}
	}
	if decode > 0 {
		prompt := ids[:min(512, len(ids))]
		err := best("decode", decode, func() (time.Duration, error) {
			cache, err := m.NewCache(len(prompt) + decode)
			if err != nil {
				return 0, err
			}
			logits, _, err := m.Forward(cache, prompt, positions(len(prompt)), []int{len(prompt) - 1}, nil)
			if err != nil {
				return 0, err
			}
			start := time.Now() // the decode steps alone
			for range decode {
				next := int32(smollm.Argmax(logits[0]))
				if logits, _, err = m.Forward(cache, []int32{next}, []int32{int32(cache.Len)}, []int{0}, nil); err != nil {
					return 0, err
				}
			}
			return time.Since(start), nil
		})
		if err != nil {
			return err
		}
	}
	if out != "" {
		b, _ := json.MarshalIndent(map[string]any{"backend": posgraph.BackendSummary(), "gomaxprocs": runtime.GOMAXPROCS(0), "results": results}, "", "  ")
		return os.WriteFile(out, append(b, '\n'), 0o644)
	}
	return nil
}
