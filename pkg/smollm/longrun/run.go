package longrun

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/posenc/course/internal/machine"
)

// Run runs every cell of c that store lacks, writing each when it is done,
// then records the run in runs.json and rebuilds the summaries. Cells run
// grouped by method, so the engine builds each model once. Progress goes
// to progress, a line per cell.
func Run(c Config, store Store, e Engine, tok Tokenizer, prov Provenance, progress io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	start := time.Now()
	rec := RunRecord{Provenance: prov, Config: c}
	// The run is on record from its start, and its record is brought up
	// to date after each cell: a sitting that is interrupted still counts.
	index, err := store.startRun(rec)
	if err != nil {
		return err
	}
	update := func() error {
		rec.WallSeconds = time.Since(start).Seconds()
		rec.LoadAfter, rec.PeakRSSMiB = machine.LoadAverage(), machine.PeakRSSMiB()
		return store.putRun(index, rec)
	}
	say := func(format string, args ...any) {
		fmt.Fprintf(progress, "[%6.0fs] ", time.Since(start).Seconds())
		fmt.Fprintf(progress, format+"\n", args...)
	}
	methods := Methods(c.Factor, c.OriginalLen)
	texts := map[string][]int32{}
	for _, name := range c.Texts {
		t, err := LoadText(name)
		if err != nil {
			return err
		}
		ids := tok.Encode(t.Body)
		if len(ids) < c.Window {
			return fmt.Errorf("longrun: text %s has %d tokens, fewer than the window (%d)", name, len(ids), c.Window)
		}
		w := make([]int32, c.Window)
		for i := range w {
			w[i] = int32(ids[i])
		}
		texts[name] = w
	}
	left := c.workLeft(store)
	say("%.0f k tokens and %.2g attention pairs left to run: about %s at the speed of the committed make model-bench run on 2 idle cores (BenchCost; %s for the whole grid; a loaded machine is slower)",
		left.Tokens/1000, left.Pairs, left.Duration(BenchCost).Round(time.Minute), c.Work().Duration(BenchCost).Round(time.Minute))
	for _, m := range methods {
		// The engine replaces its model for each method: collect the last
		// one's buffers now (see collect).
		collect()
		for _, name := range c.Texts {
			path := store.nllPath(name, m.Name)
			if has(path) {
				rec.CellsKept++
				continue
			}
			t0, p := time.Now(), prov.now()
			nll, err := e.NLL(texts[name], m.Scaling)
			if err != nil {
				return fmt.Errorf("longrun: %s under %s: %w", name, m.Name, err)
			}
			cell := NLLCell{Text: name, Method: m.Name, Scaling: fmt.Sprintf("%+v", m.Scaling), Tokens: c.Window,
				NLL: round4(nll), Mean: mean32(nll), Seconds: time.Since(t0).Seconds(), Provenance: p}
			if err := writeJSON(path, cell); err != nil {
				return err
			}
			rec.CellsRun++
			if err := update(); err != nil {
				return err
			}
			say("nll %-24s %-13s %d tokens: %.4f nats/token, %.0f s", name, m.Name, c.Window, cell.Mean, cell.Seconds)
		}
	}
	for _, name := range []string{"none", "yarn"} {
		collect()
		m, err := method(methods, name)
		if err != nil {
			return err
		}
		for _, n := range c.PasskeyLengths {
			if !contains(c.passkeyMethods(n), name) {
				continue
			}
			for _, d := range c.PasskeyDepths {
				// The trials of a length and depth differ from the needle
				// on: an engine that can runs what comes before it once.
				shared := false
				for trial := range c.trials(n) {
					path := store.passkeyPath(name, n, d, trial)
					if has(path) {
						rec.CellsKept++
						continue
					}
					// The key depends on length, depth and trial, not on
					// the method: both methods answer the same prompts.
					seed := uint64(n)<<32 | uint64(d*1000)<<16 | uint64(trial)
					prompt, err := NewPasskeyPrompt(tok, n, d, seed)
					if err != nil {
						return err
					}
					if sharer, ok := e.(PrefixSharer); ok && !shared {
						t0, p := time.Now(), prov.now()
						ran, err := sharer.SharePrefix(prompt.IDs[:prompt.NeedleAt], n, m.Scaling)
						if err != nil {
							return fmt.Errorf("longrun: passkey %d tokens, depth %g: the prefix under %s: %w", n, d, name, err)
						}
						shared = true
						pr := PrefixRun{Method: name, Length: n, Depth: d, NeedleAt: prompt.NeedleAt, Tokens: ran,
							Seconds: time.Since(t0).Seconds(), Provenance: p}
						if err := writeJSON(store.prefixPath(name, n, d), pr); err != nil {
							return err
						}
						say("passkey %-5s %5d tokens depth %.2f: %d of the %d tokens before the needle run once for the trials, %.0f s", name, n, d, ran, prompt.NeedleAt, pr.Seconds)
					}
					t0, p := time.Now(), prov.now()
					o, err := ScorePasskey(e, prompt, m)
					if err != nil {
						return fmt.Errorf("longrun: passkey %d tokens, depth %g, trial %d under %s: %w", n, d, trial, name, err)
					}
					tr := PasskeyTrial{Method: name, Length: n, Tokens: len(prompt.IDs), Depth: d, Trial: trial, Key: prompt.Key,
						NeedleAt: prompt.NeedleAt, Pass: o.Pass, Correct: o.Correct, Answer: o.Tokens, Greedy: o.Greedy,
						AnswerNLL: o.NLL, Seconds: time.Since(t0).Seconds(), Provenance: p}
					if err := writeJSON(path, tr); err != nil {
						return err
					}
					rec.CellsRun++
					if err := update(); err != nil {
						return err
					}
					say("passkey %-5s %5d tokens depth %.2f trial %d: key %d, pass %t (%d/%d), %.0f s",
						name, n, d, trial, prompt.Key, o.Pass, o.Correct, o.Tokens, tr.Seconds)
				}
				if sharer, ok := e.(PrefixSharer); ok && shared {
					if _, err := sharer.SharePrefix(nil, 0, m.Scaling); err != nil {
						return err
					}
					collect() // the prefix's cache
				}
			}
		}
	}
	if err := update(); err != nil {
		return err
	}
	say("%d cells run, %d found done; summaries in %s", rec.CellsRun, rec.CellsKept, store.Dir)
	return WriteSummary(store, c)
}

// workLeft is the work of the cells of c that store lacks, as Config.Work
// counts it.
func (c Config) workLeft(store Store) Work {
	var w Work
	for _, m := range Methods(c.Factor, c.OriginalLen) {
		for _, name := range c.Texts {
			if !has(store.nllPath(name, m.Name)) {
				w = w.Add(c.nllWork())
			}
		}
	}
	for _, n := range c.PasskeyLengths {
		for _, name := range c.passkeyMethods(n) {
			for _, d := range c.PasskeyDepths {
				shared := false
				for trial := range c.trials(n) {
					if has(store.passkeyPath(name, n, d, trial)) {
						continue
					}
					if !shared {
						w, shared = w.Add(forwardWork(0, needle(n, d), c.ChunkSize)), true
					}
					w = w.Add(forwardWork(needle(n, d), n, c.ChunkSize))
				}
			}
		}
	}
	return w
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func mean32(xs []float32) float64 {
	s := 0.0
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

// collect runs Go's garbage collector, which frees the backend buffers of
// models and caches no longer used (their finalizers free them). The run
// allocates little on Go's heap, so Go would otherwise collect rarely while
// gigabytes wait on the backend: without this the resident memory of a run
// at 16k grew by about a gigabyte a cell.
func collect() { runtime.GC() }
