package lab

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posgraph"
)

// recorder is an Observer that counts what RunLab reports.
type recorder struct {
	begun []string // "name s<seed>"
	steps int
	done  int
	bad   string // the first step out of order
	last  Step
}

func (r *recorder) Begin(name string, seed int64) {
	r.begun = append(r.begun, fmt.Sprintf("%s s%d", name, seed))
	r.last = Step{}
}

func (r *recorder) Step(s Step) {
	if r.bad == "" && (s.Step != r.last.Step+1 || s.Steps < s.Step || !(s.Loss > 0)) {
		r.bad = fmt.Sprintf("%+v after %+v", s, r.last)
	}
	r.steps++
	r.last = s
}

func (r *recorder) Done(*Run) { r.done++ }

// quickRuns are the runs of Quick(DefaultConfig()), for every seed.
var quickRuns = []string{
	"none", "sinusoidal", "learned", "rope", "alibi", "t5", "rope-hd8",
	"rope+pi", "rope+ntk", "rope+dynamic", "rope+ntk-eff", "rope+yarn", "rope+yarn-notemp",
	"rope+pi-finetune", "rope-finetune",
	"sinusoidal-scaled", "sinusoidal-text", "learned-text", "rope-text", "alibi-text", "sinusoidal-long", "learned-long",
}

// cellDistance is the distance a recall cell of c should record.
func cellDistance(c Config, cell RecallCell) int {
	if cell.Kind == ProbeFirst {
		return ProbeDistance(cell.Length, 0)
	}
	return ProbeDistance(cell.Length, ProbeOffsetFrom(cell.Length, cell.Depth, c.FirstOffset))
}

// recallCells is the number of recall cells per length of c: the depth
// probes, the first token, and for a trained model (not a scaled
// evaluation or a fine-tune) the single pairs and the distractor sweep.
func recallCells(c Config, r Run) int {
	n := len(c.Depths)
	if c.FirstOffset > 0 {
		n++
	}
	if r.Scaling == "" && !strings.HasSuffix(r.Name, "finetune") {
		n += len(c.Distractors)
		if c.SinglePair {
			n += len(c.Depths)
		}
	}
	return n
}

// extraRun reports whether r ran the extra probes (recallCells).
func extraRun(r Run) bool { return r.Scaling == "" && !strings.HasSuffix(r.Name, "finetune") }

// sameNumbers reports whether a and b measured the same, their times
// aside.
func sameNumbers(a, b Run) bool {
	a.EvalSeconds, b.EvalSeconds = 0, 0
	if a.Train != nil && b.Train != nil {
		at, bt := *a.Train, *b.Train
		at.Seconds, bt.Seconds, at.TokensPerSecond, bt.TokensPerSecond = 0, 0, 0, 0
		a.Train, b.Train = &at, &bt
	}
	return reflect.DeepEqual(a, b)
}

// The quick lab end to end on the pure-Go backend: every model, scaling
// and fine-tune for both seeds, what each measured, results.json, the
// checkpoints, and the same numbers when run again.
func TestQuickLab(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 14 models and 4 fine-tunes")
	}
	backend := posgraph.GoBackend()
	dir := t.TempDir()
	c := Quick(DefaultConfig())
	c.SaveCheckpoints = true
	obs := &recorder{}
	finished := 0
	res, err := RunLab(c, Options{Backend: backend, OutDir: dir, Observer: obs,
		Provenance: Provenance{Command: "test", Backend: "go"},
		Finish:     func(p *Provenance) { finished++; p.PeakRSSMiB = float64(finished) }})
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, name string, seed int64) Run {
		t.Helper()
		runs, err := res.Seeds(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.Seed == seed {
				return *r
			}
		}
		t.Fatalf("no run %s with seed %d", name, seed)
		return Run{}
	}

	t.Run("runs", func(t *testing.T) {
		if got := res.Names(); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(quickRuns))) {
			t.Errorf("runs %v; want %v", got, quickRuns)
		}
		want := 0
		for _, name := range quickRuns {
			want += len(c.VariantSeedsOf(name))
		}
		if len(res.Runs) != want {
			t.Errorf("%d runs; want %d, every name for its seeds", len(res.Runs), want)
		}
		for _, name := range quickRuns {
			runs, err := res.Seeds(name)
			if err != nil {
				t.Error(err)
				continue
			}
			var seeds []int64
			for _, r := range runs {
				seeds = append(seeds, r.Seed)
			}
			if !slices.Equal(seeds, c.VariantSeedsOf(name)) {
				t.Errorf("%s: seeds %v; want %v", name, seeds, c.VariantSeedsOf(name))
			}
		}
		// Each seed's models start from their own weights and data.
		if a, b := run(t, "rope", 1), run(t, "rope", 2); a.Lengths[0].Mean == b.Lengths[0].Mean {
			t.Errorf("rope: seeds 1 and 2 have the same loss at L, %g", a.Lengths[0].Mean)
		}
	})

	t.Run("observer and provenance", func(t *testing.T) {
		if got, want := obs.steps, c.TotalSteps(); got != want {
			t.Errorf("%d steps reported; want TotalSteps() = %d", got, want)
		}
		if got, want := len(obs.begun), (7+2)*len(c.Seeds)+len(Controls()); got != want {
			t.Errorf("%d trainings begun (%v); want %d", got, obs.begun, want)
		}
		if obs.done != len(res.Runs) || obs.bad != "" {
			t.Errorf("%d runs done, %d in the results; steps out of order: %q", obs.done, len(res.Runs), obs.bad)
		}
		p := res.Provenance
		if p.Command != "test" || p.Backend != "go" || p.Started == "" || p.PeakRSSMiB != float64(finished) || finished < 7*len(c.Seeds)+len(Controls()) {
			t.Errorf("provenance %+v after %d calls of Finish; want the command and backend given, a start, Finish's last value, at least once a cell", p, finished)
		}
	})

	t.Run("lengths", func(t *testing.T) {
		for _, r := range res.Runs {
			lengths := len(c.Multiples)
			if slices.ContainsFunc(Controls(), func(v Variant) bool { return v.Name == r.Name }) {
				lengths = 1 // a control is evaluated at L only
			}
			if len(r.Lengths) != lengths || len(r.Recall) != lengths*recallCells(c, r) {
				t.Errorf("%s s%d: %d lengths and %d recall cells; want %d and %d", r.Name, r.Seed, len(r.Lengths), len(r.Recall), lengths, lengths*recallCells(c, r))
				continue
			}
			learned := r.Encoding == Learned
			for i, l := range r.Lengths {
				want := !learned || l.Multiple == 1 // a learned table has no rows past L
				if l.Multiple != c.Multiples[i] || l.Length != l.Multiple*c.TrainLen || l.Defined != want {
					t.Errorf("%s s%d: length %+v; want %d×L, defined %t", r.Name, r.Seed, l, c.Multiples[i], want)
				}
				if l.Defined && (!(l.Mean > 0 && l.Mean < math.Log(VocabSize)+1) || len(l.PerPosition) != l.Length) {
					t.Errorf("%s s%d at %d×L: loss %g over %d positions; want a loss of a model that learned something, at every position", r.Name, r.Seed, l.Multiple, l.Mean, len(l.PerPosition))
				}
			}
			kinds := map[string]int{}
			for _, cell := range r.Recall {
				kinds[cell.Kind]++
				want := !learned || cell.Multiple == 1
				if cell.Defined != want || cell.N != c.Probes || cell.Correct < 0 || cell.Correct > cell.N || cell.Distance != cellDistance(c, cell) {
					t.Errorf("%s s%d: recall %+v; want defined %t, %d probes, distance %d", r.Name, r.Seed, cell, want, c.Probes, cellDistance(c, cell))
				}
				hits := 0
				for _, ok := range cell.Outcomes.Bools(cell.N) {
					if ok {
						hits++
					}
				}
				if cell.Defined && (hits != cell.Correct || len(cell.Outcomes) != (cell.N+7)/8) {
					t.Errorf("%s s%d: recall %+v: %d outcomes answered; want the %d correct, %d bytes", r.Name, r.Seed, cell, hits, cell.Correct, (cell.N+7)/8)
				}
				wantPairs := c.ProbePairs
				switch cell.Kind {
				case ProbeSingle:
					wantPairs = 1
				case ProbeDistractors:
					wantPairs = cell.Pairs // checked below
				}
				if cell.Pairs != wantPairs {
					t.Errorf("%s s%d: recall %+v; want %d pairs", r.Name, r.Seed, cell, wantPairs)
				}
			}
			k, x := lengths, 0
			if extraRun(r) {
				x = 1
			}
			if kinds[ProbeDepth] != k*len(c.Depths) || kinds[ProbeFirst] != k || kinds[ProbeSingle] != x*k*len(c.Depths) || kinds[ProbeDistractors] != x*k*len(c.Distractors) {
				t.Errorf("%s s%d: recall cells by kind %v", r.Name, r.Seed, kinds)
			}
			// The sweep's 3 distractors are the depth probes at its depth,
			// and its none the pair alone: the same outcomes.
			for _, cell := range r.Recall {
				if cell.Kind != ProbeDistractors || !cell.Defined {
					continue
				}
				for _, same := range r.Recall {
					if same.Multiple == cell.Multiple && same.Depth == cell.Depth && same.Pairs == cell.Pairs &&
						(same.Kind == ProbeDepth || same.Kind == ProbeSingle) && !slices.Equal(same.Outcomes, cell.Outcomes) {
						t.Errorf("%s s%d: %+v and %+v are the same probes with other outcomes", r.Name, r.Seed, cell, same)
					}
				}
			}
		}
	})

	t.Run("scaling", func(t *testing.T) {
		for _, seed := range c.Seeds {
			rope := run(t, "rope", seed)
			for _, m := range c.Methods {
				r := run(t, "rope+"+m, seed)
				if r.Train != nil || r.Scaling != m || r.Encoding != RoPE {
					t.Errorf("rope+%s s%d: train %v, scaling %q, encoding %s; want an evaluation of rope with %s", m, seed, r.Train, r.Scaling, r.Encoding, m)
				}
				// At L every method is the identity: the numbers of rope.
				if !reflect.DeepEqual(r.Lengths[0], rope.Lengths[0]) || !reflect.DeepEqual(r.Recall[:len(c.Depths)], rope.Recall[:len(c.Depths)]) {
					t.Errorf("rope+%s s%d at L: %+v\n%+v\nwant rope's %+v\n%+v", m, seed, r.Lengths[0], r.Recall[:len(c.Depths)], rope.Lengths[0], rope.Recall[:len(c.Depths)])
				}
				for _, l := range r.Lengths[1:] {
					if want := MethodScaling(m, l.Length, c.TrainLen, c.DynamicNTKFactor).Factor; l.Factor != want {
						t.Errorf("rope+%s s%d at %d×L: factor %g; want %g", m, seed, l.Multiple, l.Factor, want)
					}
				}
			}
			// Past L a scaling changes what the model computes.
			if pi := run(t, "rope+pi", seed); pi.Lengths[len(c.Multiples)-1].Mean == rope.Lengths[len(c.Multiples)-1].Mean {
				t.Errorf("s%d: rope+pi's loss at the longest length equals rope's, %g: no scaling applied", seed, rope.Lengths[len(c.Multiples)-1].Mean)
			}
			// ntk-eff is dynamic NTK's control: the same frequencies at each
			// length, so the same numbers.
			dyn, eff := run(t, "rope+dynamic", seed), run(t, "rope+ntk-eff", seed)
			for i := range dyn.Lengths {
				d, e := dyn.Lengths[i], eff.Lengths[i]
				if d.Mean != e.Mean || !slices.Equal(d.PerPosition, e.PerPosition) {
					t.Errorf("s%d at %d×L: rope+dynamic's loss %g, rope+ntk-eff's %g; want equal", seed, d.Multiple, d.Mean, e.Mean)
				}
			}
			if !reflect.DeepEqual(dyn.Recall, eff.Recall) {
				t.Errorf("s%d: rope+dynamic's recall %+v, rope+ntk-eff's %+v; want equal", seed, dyn.Recall, eff.Recall)
			}
		}
	})

	t.Run("fine-tunes", func(t *testing.T) {
		for _, seed := range c.Seeds {
			rope := run(t, "rope", seed)
			for _, c2 := range []struct{ name, scaling string }{{"rope+pi-finetune", "pi×4"}, {"rope-finetune", ""}} {
				r := run(t, c2.name, seed)
				if r.Train == nil || r.Train.Steps != c.FinetuneSteps || r.Scaling != c2.scaling || len(r.Train.Curve) != 0 {
					t.Errorf("%s s%d: train %+v, scaling %q; want %d steps, no curve, scaling %q", c2.name, seed, r.Train, r.Scaling, c.FinetuneSteps, c2.scaling)
				}
				if r.Lengths[0].Mean == rope.Lengths[0].Mean {
					t.Errorf("%s s%d: the loss at L of the model it started from, %g: not trained", c2.name, seed, rope.Lengths[0].Mean)
				}
			}
			if pi, plain := run(t, "rope+pi-finetune", seed), run(t, "rope-finetune", seed); pi.Lengths[0].Mean == plain.Lengths[0].Mean {
				t.Errorf("s%d: the fine-tunes with and without PI have the same loss at L", seed)
			}
		}
	})

	t.Run("learning curves", func(t *testing.T) {
		for _, r := range res.Runs {
			if r.Train == nil || strings.HasSuffix(r.Name, "finetune") {
				continue
			}
			steps := c.Steps
			if strings.HasSuffix(r.Name, "-long") {
				steps = 2 * c.Steps
			}
			var want []int
			for s := c.ValidEvery; s <= steps; s += c.ValidEvery {
				want = append(want, s)
			}
			var at []int
			for _, p := range r.Train.Curve {
				at = append(at, p.Step)
				if !(p.Train > 0) || !(p.Valid > 0) || math.IsInf(p.Train, 0) || math.IsInf(p.Valid, 0) {
					t.Errorf("%s s%d: curve point %+v", r.Name, r.Seed, p)
				}
			}
			if !slices.Equal(at, want) {
				t.Errorf("%s s%d: curve at steps %v; want %v", r.Name, r.Seed, at, want)
			}
			if r.Train.Steps != steps || !(r.Train.FinalLoss > 0) {
				t.Errorf("%s s%d: %+v", r.Name, r.Seed, *r.Train)
			}
		}
	})

	// Each control trains another model than the one it controls for.
	t.Run("controls", func(t *testing.T) {
		for control, base := range map[string]string{
			"sinusoidal-scaled": "sinusoidal", "sinusoidal-text": "sinusoidal", "learned-text": "learned",
			"rope-text": "rope", "alibi-text": "alibi", "sinusoidal-long": "sinusoidal", "learned-long": "learned",
		} {
			a, b := run(t, control, 1), run(t, base, 1)
			if a.Encoding != b.Encoding || a.Lengths[0].Mean == b.Lengths[0].Mean {
				t.Errorf("%s: encoding %s, loss at L %g; want %s's encoding and another loss than its %g", control, a.Encoding, a.Lengths[0].Mean, base, b.Lengths[0].Mean)
			}
		}
	})

	t.Run("baselines", func(t *testing.T) {
		b := res.Baselines
		if !(b.Bigram > 0 && b.Bigram < b.Unigram && b.Unigram < math.Log(VocabSize)) {
			t.Errorf("baselines %+v; want 0 < bigram < unigram < ln %d", b, VocabSize)
		}
	})

	t.Run("results.json", func(t *testing.T) {
		back, err := ReadResults(filepath.Join(dir, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, res) {
			t.Error("results.json read back differs from the results RunLab returned")
		}
	})

	t.Run("checkpoints", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(dir, "checkpoints", "*.gob"))
		var got []string
		for _, f := range files {
			got = append(got, strings.TrimSuffix(filepath.Base(f), ".gob"))
		}
		want := slices.DeleteFunc(slices.Clone(quickRuns), func(n string) bool { return strings.HasPrefix(n, "rope+") && !strings.HasSuffix(n, "finetune") })
		if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
			t.Errorf("checkpoints %v; want one per trained model and fine-tune, %v", got, want)
		}
		// The first seed's RoPE model, loaded, measures what its run did.
		store, err := LoadCheckpoint(filepath.Join(dir, "checkpoints", "rope.gob"))
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEvaluator(backend, store, c.Model(RoPE))
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWindows(LoadText().Valid, c.EvalWindows, c.TrainLen*c.Multiples[len(c.Multiples)-1])
		if err != nil {
			t.Fatal(err)
		}
		loss, err := e.MeanLoss(w.Batch(LoadText().Valid, c.TrainLen), 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := run(t, "rope", c.Seeds[0]).Lengths[0].Mean; math.Abs(loss-want) > 1e-4 {
			t.Errorf("the loaded checkpoint's loss at L = %.5f; want the run's %.4f", loss, want)
		}
	})

	// The same numbers again, the seeds in the other order: a model's
	// results depend on its seed only, not on what ran before it.
	t.Run("deterministic", func(t *testing.T) {
		again := c
		again.Seeds, again.SaveCheckpoints = []int64{2, 1}, false
		// The controls (one seed, the first) train as the models do: left out.
		again.Variants = slices.DeleteFunc(slices.Clone(c.Variants), func(v Variant) bool { return v.Seeds > 0 })
		res2, err := RunLab(again, Options{Backend: backend})
		if err != nil {
			t.Fatal(err)
		}
		if res2.Baselines != res.Baselines {
			t.Errorf("baselines %+v, then %+v", res.Baselines, res2.Baselines)
		}
		if want := len(res.Runs) - len(Controls()); len(res2.Runs) != want {
			t.Errorf("%d runs without the controls, then %d", want, len(res2.Runs))
		}
		for _, r2 := range res2.Runs {
			if r := run(t, r2.Name, r2.Seed); !sameNumbers(r, r2) {
				t.Errorf("%s s%d differs when run again:\n%+v\n%+v", r2.Name, r2.Seed, r, r2)
			}
		}
	})
	// A run stopped and started again reads the cells it finished instead
	// of training them again, and returns the same results.
	t.Run("resume", func(t *testing.T) {
		cells, _ := filepath.Glob(filepath.Join(dir, "cells", "*.json"))
		if want := 7*len(c.Seeds) + len(Controls()); len(cells) != want {
			t.Errorf("%d cell files; want %d, one per trained model and seed", len(cells), want)
		}
		if err := os.Remove(filepath.Join(dir, "cells", "alibi-seed2.json")); err != nil {
			t.Fatal(err)
		}
		again := &recorder{}
		res2, err := RunLab(c, Options{Backend: backend, OutDir: dir, Observer: again, Provenance: Provenance{Command: "test", Backend: "go"}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.begun, []string{"alibi s2"}) {
			t.Errorf("trained again %v; want only the missing cell, alibi s2", again.begun)
		}
		if len(res2.Runs) != len(res.Runs) {
			t.Fatalf("%d runs after resuming; want %d", len(res2.Runs), len(res.Runs))
		}
		for i := range res.Runs {
			if !sameNumbers(res.Runs[i], res2.Runs[i]) {
				t.Errorf("run %d (%s s%d) differs after resuming", i, res.Runs[i].Name, res.Runs[i].Seed)
			}
		}
		// Another config, or uncommitted code, trains everything again.
		other := c
		other.Steps++
		if _, ok := readCell(cellPath(dir, "alibi", 1), other, Provenance{}, nil); ok {
			t.Error("a cell of another config was read back")
		}
		if _, ok := readCell(cellPath(dir, "alibi", 1), c, Provenance{Dirty: true}, nil); ok {
			t.Error("a cell was read back by a run of uncommitted code")
		}
		if _, ok := readCell(cellPath(dir, "alibi", 1), c, Provenance{Commit: "abc"}, nil); ok {
			t.Error("a cell of another commit was read back")
		}
		// Made at commit "" (no git here); another commit reads it only
		// where SameCode accepts the cell's commit, and "" it never does.
		if _, ok := readCell(cellPath(dir, "alibi", 1), c, Provenance{Commit: "abc"}, func(string) bool { return true }); ok {
			t.Error("a cell of no commit was read back by a run at a commit")
		}
	})

}

// Lesson 9's layer patterns, quick and with one seed: full RoPE, NoPE, and
// the two variants.
func TestQuickLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 4 models")
	}
	c := Quick(LayersConfig())
	c.Seeds = []int64{1}
	dir := t.TempDir()
	res, err := RunLab(c, Options{Backend: posgraph.GoBackend(), OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := slices.Sorted(slices.Values(res.Names())), []string{"none", "p-rope", "rope", "rope-nope-3:1"}; !slices.Equal(got, want) {
		t.Fatalf("runs %v; want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints")); err == nil {
		t.Error("LayersConfig saves no checkpoints, but a checkpoints folder was made")
	}
	losses := map[float64]string{}
	for _, r := range res.Runs {
		if r.Train == nil || len(r.Train.Curve) == 0 || len(r.Lengths) != len(c.Multiples) {
			t.Errorf("%s: %+v", r.Name, r)
			continue
		}
		for _, l := range r.Lengths {
			if !l.Defined || !(l.Mean > 0) {
				t.Errorf("%s at %d×L: %+v", r.Name, l.Multiple, l)
			}
		}
		// Four different models: four different losses.
		if other, ok := losses[r.Lengths[0].Mean]; ok {
			t.Errorf("%s and %s have the same loss at L, %g: the same model?", r.Name, other, r.Lengths[0].Mean)
		}
		losses[r.Lengths[0].Mean] = r.Name
	}
}
