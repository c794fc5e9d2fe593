package main

import (
	"fmt"
	"strconv"
	"strings"
)

// task is one measurement, the same on every side (scripts/model/
// model_bench_torch.py reads the same names):
//
//	prefill:N    N tokens from position 0 into an empty cache, logits of
//	             the last row only; tokens/s = N / seconds
//	decode:D@P   after a prefill of P tokens (not timed), D more tokens one
//	             call each, reading and extending the cache; tokens/s = D /
//	             seconds
//	memory:N     prefill:N once, with no run before it (for GoMLX its time
//	             includes compiling): its time and the peak memory during it
type task struct {
	Kind    string // "prefill", "decode" or "memory"
	Prompt  int    // N, or P
	Decoded int    // D (decode only)
}

// parseTask reads a task's name, e.g. "prefill:512" or "decode:64@512".
func parseTask(s string) (task, error) {
	kind, arg, ok := strings.Cut(s, ":")
	bad := fmt.Errorf("task %q: want prefill:N, decode:D@P or memory:N with positive N, D, P", s)
	if !ok {
		return task{}, bad
	}
	positive := func(x string) (int, bool) {
		n, err := strconv.Atoi(x)
		return n, err == nil && n > 0 && strconv.Itoa(n) == x
	}
	switch kind {
	case "prefill", "memory":
		n, ok := positive(arg)
		if !ok {
			return task{}, bad
		}
		return task{Kind: kind, Prompt: n}, nil
	case "decode":
		ds, ps, ok := strings.Cut(arg, "@")
		d, okD := positive(ds)
		p, okP := positive(ps)
		if !ok || !okD || !okP {
			return task{}, bad
		}
		return task{Kind: kind, Prompt: p, Decoded: d}, nil
	}
	return task{}, bad
}

// parseTasks reads a comma-separated list of tasks ("" is none).
func parseTasks(s string) ([]task, error) {
	var out []task
	for _, f := range strings.Split(s, ",") {
		if f == "" {
			continue
		}
		t, err := parseTask(f)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (t task) String() string {
	if t.Kind == "decode" {
		return fmt.Sprintf("decode:%d@%d", t.Decoded, t.Prompt)
	}
	return fmt.Sprintf("%s:%d", t.Kind, t.Prompt)
}

// label is the task in the table.
func (t task) label() string {
	switch t.Kind {
	case "decode":
		return fmt.Sprintf("decode %s after %s", count(t.Decoded), count(t.Prompt))
	case "memory":
		return fmt.Sprintf("prefill %s, once (memory)", count(t.Prompt))
	}
	return fmt.Sprintf("prefill %s", count(t.Prompt))
}

// tokens is how many ids the task reads.
func (t task) tokens() int { return t.Prompt + t.Decoded }

// timed is how many tokens the timed part runs (tokens/s = timed / s).
func (t task) timed() int {
	if t.Kind == "decode" {
		return t.Decoded
	}
	return t.Prompt
}

// count writes n with thousands separators: 2,048.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
