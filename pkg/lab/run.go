package lab

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
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
}

// RunLab trains and evaluates every model of c, for every seed, and
// returns the results, writing them (after each model) and the first
// seed's checkpoints to o.OutDir when set.
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
	add := func(run *Run) error {
		res.Runs = append(res.Runs, *run)
		if o.Observer != nil {
			o.Observer.Done(run)
		}
		return write()
	}
	type trained struct {
		name string
		m    Model
	}
	var models []trained
	for _, e := range c.Encodings {
		models = append(models, trained{string(e), c.Model(e)})
	}
	for _, v := range c.Variants {
		models = append(models, trained{v.Name, c.VariantModel(v)})
	}
	for _, seed := range c.Seeds {
		for _, tm := range models {
			store := NewStore(seed)
			run, err := ev.train(o, store, tm.m, tm.name, seed, c.training(seed))
			if err != nil {
				return nil, err
			}
			if err := add(run); err != nil {
				return nil, err
			}
			if err := c.checkpoint(o.OutDir, tm.name, seed, store); err != nil {
				return nil, err
			}
			if tm.name != string(RoPE) {
				continue
			}
			for _, method := range c.Methods {
				run, err := ev.evaluate(o.Backend, store, tm.m, "rope+"+method, seed, func(n int) posenc.Scaling {
					return MethodScaling(method, n, c.TrainLen, c.DynamicNTKFactor)
				})
				if err != nil {
					return nil, err
				}
				run.Scaling = method
				if err := add(run); err != nil {
					return nil, err
				}
			}
			if c.FinetuneSteps == 0 {
				continue
			}
			for _, pi := range []bool{true, false} {
				run, err := c.finetune(o, ev, store, seed, pi)
				if err != nil {
					return nil, err
				}
				if err := add(run); err != nil {
					return nil, err
				}
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
	run, err := ev.train(o, store, m, name, seed, t)
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
	probes  map[int][]Probes // by length, then depth
}

func newEvaluation(c Config, text Text) (*evaluation, error) {
	longest := c.TrainLen * c.Multiples[len(c.Multiples)-1]
	w, err := NewWindows(text.Valid, c.EvalWindows, longest)
	if err != nil {
		return nil, err
	}
	ev := &evaluation{c: c, text: text, valid: text.Valid, windows: w, probes: map[int][]Probes{}}
	if c.ValidEvery > 0 {
		cw, err := NewWindows(text.Valid, c.CurveWindows, c.TrainLen)
		if err != nil {
			return nil, err
		}
		ev.curve = cw.Batch(text.Valid, c.TrainLen)
	}
	for _, k := range c.Multiples {
		n := k * c.TrainLen
		for _, d := range c.Depths {
			p, err := NewProbes(text.Valid, n, d, c.Recall.Pairs, c.Probes, c.EvalSeed)
			if err != nil {
				return nil, err
			}
			ev.probes[n] = append(ev.probes[n], p)
		}
	}
	return ev, nil
}

// train trains m in store with t and evaluates it unscaled.
func (ev *evaluation) train(o Options, store *model.Store, m Model, name string, seed int64, t Training) (*Run, error) {
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
	run, err := ev.evaluate(o.Backend, store, m, name, seed, func(int) posenc.Scaling { return m.Scaling })
	if err != nil {
		return nil, err
	}
	run.Train = &stats
	return run, nil
}

// evaluate measures m (its Scaling set by scaling for each length) at
// every multiple of L: the loss on the same targets, the loss by position,
// and recall at every depth.
func (ev *evaluation) evaluate(backend compute.Backend, store *model.Store, m Model, name string, seed int64, scaling func(n int) posenc.Scaling) (*Run, error) {
	c := ev.c
	run := &Run{Name: name, Encoding: m.Encoding, Seed: seed}
	start := time.Now()
	defer func() { run.EvalSeconds = math.Round(time.Since(start).Seconds()*10) / 10 }()
	for _, k := range c.Multiples {
		n := k * c.TrainLen
		l := Length{Multiple: k, Length: n, Defined: m.MaxLen() == 0 || n <= m.MaxLen(), Factor: scaling(n).Factor}
		if !l.Defined {
			run.Lengths = append(run.Lengths, l)
			for i, d := range c.Depths {
				run.Recall = append(run.Recall, RecallCell{Multiple: k, Length: n, Depth: d,
					Distance: ProbeDistance(n, ProbeOffset(n, d)), N: len(ev.probes[n][i].Values)})
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
		for i, d := range c.Depths {
			p := ev.probes[n][i]
			correct, err := e.RecallCorrect(p)
			if err != nil {
				return nil, err
			}
			run.Recall = append(run.Recall, RecallCell{Multiple: k, Length: n, Depth: d, Defined: true,
				Distance: ProbeDistance(n, ProbeOffset(n, d)), Correct: correct, N: len(p.Values)})
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
