package lab

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/posenc"
)

// Observer follows a lab run: a progress bar, a log. Every method may be
// called with a nil receiver's worth of work; RunLab calls them in order.
type Observer interface {
	Begin(name string, seed int64) // a model starts training
	Step(s Step)                   // after each training step
	Done(run *Run)                 // a model (or a scaled evaluation) is evaluated
}

// Options says where a lab run reports and writes.
type Options struct {
	Backend  compute.Backend
	OutDir   string   // results.json and checkpoints go here; "" writes nothing
	Observer Observer // nil: silent
	// Provenance is recorded with the results; Finish, when set, completes
	// it (the load after, the peak memory) before each write.
	Provenance Provenance
	Finish     func(*Provenance)
	// SameCode, when set, reports whether the code that decides the numbers
	// at commit is the code running now: a cell made at another commit is
	// then read back when nothing that decides its numbers changed since
	// (report.SameCode). Unset, a cell must come from Provenance.Commit.
	SameCode func(commit string) bool
}

// RunLab trains and evaluates every model of c, for every seed, and
// returns the results, writing them (after each model) and the first
// seed's checkpoints to o.OutDir when set.
//
// It resumes: each finished cell, a model and seed with the evaluations
// made from it (RoPE's scalings and fine-tunes), is written at once to
// OutDir/cells, and a later run of the same config from the same clean
// commit reads it instead of training again.
func RunLab(c Config, o Options) (*Results, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Results{Config: c, Provenance: o.Provenance}
	res.Provenance.Started = start.UTC().Format(time.RFC3339)
	text := LoadText()
	ev, err := newEvaluation(c, text)
	if err != nil {
		return nil, err
	}
	res.Baselines = ev.baselines(text.Train)
	write := func() error {
		res.Provenance.WallSeconds = math.Round(time.Since(start).Seconds())
		if o.Finish != nil {
			o.Finish(&res.Provenance)
		}
		if o.OutDir == "" {
			return nil
		}
		return res.Write(filepath.Join(o.OutDir, "results.json"))
	}
	type trained struct {
		name  string
		m     Model
		seeds []int64
		train func(seed int64) Training
		scope scope
	}
	var models []trained
	for _, e := range c.Encodings {
		models = append(models, trained{string(e), c.Model(e), c.Seeds, c.training, scope{extra: true}})
	}
	for _, v := range c.Variants {
		models = append(models, trained{v.Name, c.VariantModel(v), c.VariantSeeds(v),
			func(seed int64) Training { return c.VariantTraining(v, seed) }, scope{extra: true, lengths: v.Lengths}})
	}
	for _, seed := range c.Seeds {
		for _, tm := range models {
			if !slices.Contains(tm.seeds, seed) {
				continue
			}
			cell := cellPath(o.OutDir, tm.name, seed)
			if runs, ok := readCell(cell, c, o.Provenance, o.SameCode); ok {
				res.Runs = append(res.Runs, runs...)
				if o.Observer != nil {
					for i := range runs {
						o.Observer.Done(&runs[i])
					}
				}
				if err := write(); err != nil {
					return nil, err
				}
				continue
			}
			var runs []Run
			add := func(run *Run) error {
				runs = append(runs, *run)
				if o.Observer != nil {
					o.Observer.Done(run)
				}
				return nil
			}
			store := NewStore(seed)
			run, err := ev.train(o, store, tm.m, tm.name, seed, tm.train(seed), tm.scope)
			if err != nil {
				return nil, err
			}
			add(run)
			if err := c.checkpoint(o.OutDir, tm.name, seed, store); err != nil {
				return nil, err
			}
			if tm.name == string(RoPE) {
				for _, method := range c.Methods {
					run, err := ev.evaluate(o.Backend, store, tm.m, "rope+"+method, seed, func(n int) posenc.Scaling {
						return MethodScaling(method, n, c.TrainLen, c.DynamicNTKFactor)
					}, scope{})
					if err != nil {
						return nil, err
					}
					run.Scaling = method
					add(run)
				}
				for _, pi := range []bool{true, false} {
					if c.FinetuneSteps == 0 {
						break
					}
					run, err := c.finetune(o, ev, store, seed, pi)
					if err != nil {
						return nil, err
					}
					add(run)
				}
			}
			if err := writeCell(cell, c, o.Provenance, runs); err != nil {
				return nil, err
			}
			res.Runs = append(res.Runs, runs...)
			if err := write(); err != nil {
				return nil, err
			}
		}
	}
	return res, write()
}

// finetune continues training a copy of the RoPE model in ropeStore at
// FinetuneMultiple·L, with PI at that factor (the PI paper's recipe) or,
// as its control, with no scaling, and evaluates it as it was trained at
// every length.
func (c Config) finetune(o Options, ev *evaluation, ropeStore *model.Store, seed int64, pi bool) (*Run, error) {
	store, err := ropeStore.Clone()
	if err != nil {
		return nil, err
	}
	k := c.FinetuneMultiple
	m := c.Model(RoPE)
	name := "rope-finetune"
	if pi {
		m.Scaling = posenc.LinearScaling(float64(k))
		name = "rope+pi-finetune"
	}
	t := c.training(seed)
	t.SeqLen, t.Batch, t.Steps, t.Seed = k*c.TrainLen, c.FinetuneBatch, c.FinetuneSteps, uint64(seed)+1000
	// A tenth of the steps to warm up to a third of the pre-training peak,
	// then down to its end.
	t.Schedule = Schedule{Peak: c.LearningRate / 3, Warmup: max(c.FinetuneSteps/10, 1), Steps: c.FinetuneSteps, MinFraction: c.MinLRFrac}
	t.ValidEvery = 0
	run, err := ev.train(o, store, m, name, seed, t, scope{})
	if err != nil {
		return nil, err
	}
	if pi {
		run.Scaling = fmt.Sprintf("pi×%d", k)
	}
	return run, c.checkpoint(o.OutDir, name, seed, store)
}

// evaluation holds what every model is evaluated on: the same windows and
// probes for all.
type evaluation struct {
	c       Config
	text    Text
	valid   []int32
	windows Windows
	curve   Batch
	probes  map[int][]probeSet // by length
}

// probeSet is one recall cell's probes: the cell says which (its kind,
// depth, pairs and distance), without results yet.
// scope says what an evaluation measures: the extra probes or not, and
// the first lengths multiples of L (0: all).
type scope struct {
	extra   bool
	lengths int
}

// multiples returns the multiples of L s evaluates in c.
func (s scope) multiples(c Config) []int {
	if s.lengths > 0 && s.lengths < len(c.Multiples) {
		return c.Multiples[:s.lengths]
	}
	return c.Multiples
}

type probeSet struct {
	cell   RecallCell
	offset int
	probes Probes
}

// extra reports whether p is one of the probes that take the factors of
// recall apart (the pair alone, the distractor sweep): a trained model's
// evaluation runs them, a scaled one's or a fine-tune's does not, for they
// ask how recall holds up past L, which the depth probes answer.
func (p probeSet) extra() bool { return p.cell.Kind == ProbeSingle || p.cell.Kind == ProbeDistractors }

func newEvaluation(c Config, text Text) (*evaluation, error) {
	longest := c.TrainLen * c.Multiples[len(c.Multiples)-1]
	w, err := NewWindows(text.Valid, c.EvalWindows, longest)
	if err != nil {
		return nil, err
	}
	ev := &evaluation{c: c, text: text, valid: text.Valid, windows: w, probes: map[int][]probeSet{}}
	if c.ValidEvery > 0 {
		cw, err := NewWindows(text.Valid, c.CurveWindows, c.TrainLen)
		if err != nil {
			return nil, err
		}
		ev.curve = cw.Batch(text.Valid, c.TrainLen)
	}
	for _, k := range c.Multiples {
		n := k * c.TrainLen
		add := func(kind string, depth float64, offset, pairs int) error {
			var p Probes
			var err error
			if c.Revision < 2 {
				p, err = NewProbes(text.Valid, n, depth, pairs, c.Probes, c.EvalSeed) // as revision 1 drew them
			} else {
				p, err = NewProbesAt(text.Valid, n, offset, pairs, c.Probes, c.EvalSeed)
			}
			if err != nil {
				return err
			}
			cell := RecallCell{Multiple: k, Length: n, Depth: depth, Distance: ProbeDistance(n, offset), N: len(p.Values), Kind: kind}
			if c.Revision >= 2 {
				cell.Pairs = pairs
			}
			ev.probes[n] = append(ev.probes[n], probeSet{cell, offset, p})
			return nil
		}
		for _, d := range c.Depths {
			if err := add(ProbeDepth, d, ProbeOffsetFrom(n, d, c.FirstOffset), c.probePairs()); err != nil {
				return nil, err
			}
		}
		if c.FirstOffset > 0 {
			if err := add(ProbeFirst, 0, 0, c.probePairs()); err != nil {
				return nil, err
			}
		}
		if c.SinglePair {
			for _, d := range c.Depths {
				if err := add(ProbeSingle, d, ProbeOffsetFrom(n, d, c.FirstOffset), 1); err != nil {
					return nil, err
				}
			}
		}
		for _, extra := range c.Distractors {
			if err := add(ProbeDistractors, c.SweepDepth, ProbeOffsetFrom(n, c.SweepDepth, c.FirstOffset), extra+1); err != nil {
				return nil, err
			}
		}
	}
	return ev, nil
}

// train trains m in store with t and evaluates it unscaled, as far as s
// says.
func (ev *evaluation) train(o Options, store *model.Store, m Model, name string, seed int64, t Training, s scope) (*Run, error) {
	if o.Observer != nil {
		o.Observer.Begin(name, seed)
	}
	t.Valid = ev.curve
	var report func(Step)
	if o.Observer != nil {
		report = o.Observer.Step
	}
	stats, err := Train(o.Backend, store, m, t, ev.text, report)
	if err != nil {
		return nil, err
	}
	run, err := ev.evaluate(o.Backend, store, m, name, seed, func(int) posenc.Scaling { return m.Scaling }, s)
	if err != nil {
		return nil, err
	}
	run.Train = &stats
	return run, nil
}

// evaluate measures m (its Scaling set by scaling for each length) at
// every multiple of L: the loss on the same targets, the loss by position,
// and recall on every probe set (the extra ones only when s says), at the
// lengths s says.
// Probe sets that are the same probes (the sweep's 3 distractors are the
// depth probes at its depth, its none the pair alone) run once.
func (ev *evaluation) evaluate(backend compute.Backend, store *model.Store, m Model, name string, seed int64, scaling func(n int) posenc.Scaling, s scope) (*Run, error) {
	c := ev.c
	run := &Run{Name: name, Encoding: m.Encoding, Seed: seed}
	start := time.Now()
	defer func() { run.EvalSeconds = math.Round(time.Since(start).Seconds()*10) / 10 }()
	for _, k := range s.multiples(c) {
		n := k * c.TrainLen
		l := Length{Multiple: k, Length: n, Defined: m.MaxLen() == 0 || n <= m.MaxLen(), Factor: scaling(n).Factor}
		if !l.Defined {
			run.Lengths = append(run.Lengths, l)
			for _, p := range ev.probes[n] {
				if s.extra || !p.extra() {
					run.Recall = append(run.Recall, p.cell)
				}
			}
			continue
		}
		mn := m
		mn.Scaling = scaling(n)
		e, err := NewEvaluator(backend, store, mn)
		if err != nil {
			return nil, err
		}
		per, err := e.LossByPosition(ev.windows.Batch(ev.valid, n))
		if err != nil {
			return nil, err
		}
		l.Mean = round4(meanLast(per, c.TrainLen))
		for p := range per {
			per[p] = round4(per[p])
		}
		l.PerPosition = per
		run.Lengths = append(run.Lengths, l)
		done := map[[2]int][]bool{} // by offset and pairs: the same probes
		for _, p := range ev.probes[n] {
			if !s.extra && p.extra() {
				continue
			}
			key := [2]int{p.offset, p.cell.Pairs}
			answered, ok := done[key]
			if !ok || c.Revision < 2 {
				var err error
				if answered, err = e.RecallOutcomes(p.probes); err != nil {
					return nil, err
				}
				done[key] = answered
			}
			cell := p.cell
			cell.Defined, cell.Outcomes = true, NewOutcomes(answered)
			for _, a := range answered {
				if a {
					cell.Correct++
				}
			}
			run.Recall = append(run.Recall, cell)
		}
	}
	return run, nil
}

func (c Config) checkpoint(dir, name string, seed int64, store *model.Store) error {
	if dir == "" || !c.SaveCheckpoints || seed != c.Seeds[0] {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		return err
	}
	return SaveCheckpoint(filepath.Join(dir, "checkpoints", name+".gob"), store)
}
