package lab

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/posenc/course/pkg/posenc"
)

// Methods are the ways of scaling RoPE at evaluation time, without
// training, that the lab compares.
var Methods = []string{"pi", "ntk", "dynamic", "yarn"}

// methodScaling returns the scaling of method for evaluation at length n of
// a model trained on L: PI, NTK-aware and YaRN are set for that length
// (factor n/L); dynamic NTK computes its base from the current length (SeqLen
// 0) with factor f, as Hugging Face's "dynamic" rope_scaling does. At n ≤ L
// every method is the identity (no scaling).
func methodScaling(method string, n, L int, f float64) posenc.Scaling {
	s := float64(n) / float64(L)
	if n <= L {
		return posenc.Scaling{}
	}
	switch method {
	case "pi":
		return posenc.LinearScaling(s)
	case "ntk":
		return posenc.NTKScaling(s)
	case "dynamic":
		return posenc.DynamicNTKScaling(f, L, 0)
	case "yarn":
		return posenc.YaRNScaling(s, L)
	}
	panic("lab: unknown scaling method " + method)
}

// Options says where a lab run reports and writes.
type Options struct {
	Backend       compute.Backend
	BackendConfig string    // recorded in the results
	OutDir        string    // results.json and checkpoints go here; "" writes nothing
	Progress      *Progress // nil: silent
	Command       string    // recorded in the results
	Code          CodeVersion
}

// TotalSteps is the number of training steps RunLab takes for c, every
// model's and the fine-tune's: what NewProgress wants for the lab's ETA.
func (c Config) TotalSteps() int {
	n := len(c.Encodings) * c.Steps
	if slices.Contains(c.Encodings, RoPE) {
		n += c.FinetuneSteps
	}
	return n
}

// RunLab trains and evaluates every model of c and returns the results,
// writing them (and checkpoints) to o.OutDir when set.
func RunLab(c Config, o Options) (*Results, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Results{Command: o.Command, Config: c, Code: o.Code, Started: start.UTC().Format(time.RFC3339)}
	res.Environment = environment(o.BackendConfig)
	text := LoadText()
	p := o.Progress
	lengths := multiplesText(c.Multiples) // "1×, 2×, 4×, 8× L", for the notes
	var ropeStore *model.Store
	for _, e := range c.Encodings {
		m := c.Model(e)
		store := NewStore(c.Seed)
		p.Begin(string(e))
		stats, err := Train(o.Backend, store, m, c.training(), text, p.Update)
		if err != nil {
			return nil, err
		}
		run, err := c.evaluate(o.Backend, store, m, string(e), text.Valid, func(n int) posenc.Scaling { return posenc.Scaling{} })
		if err != nil {
			return nil, err
		}
		run.Train = &stats
		res.Runs = append(res.Runs, *run)
		p.Note("%-18s loss at %s: %s", e, lengths, lossSummary(run))
		if err := c.checkpoint(o.OutDir, string(e), store); err != nil {
			return nil, err
		}
		if e == RoPE {
			ropeStore = store
		}
	}
	if ropeStore != nil && c.Scalings {
		for _, method := range Methods {
			m := c.Model(RoPE)
			run, err := c.evaluate(o.Backend, ropeStore, m, "rope+"+method, text.Valid, func(n int) posenc.Scaling {
				return methodScaling(method, n, c.TrainLen, c.DynamicNTKFactor)
			})
			if err != nil {
				return nil, err
			}
			run.Scaling = method
			res.Runs = append(res.Runs, *run)
			p.Note("%-18s loss at %s: %s", run.Name, lengths, lossSummary(run))
		}
	}
	if ropeStore != nil && c.FinetuneSteps > 0 {
		run, err := c.finetune(o, ropeStore, text)
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, *run)
		p.Note("%-18s loss at %s: %s", run.Name, lengths, lossSummary(run))
	}
	res.WallSeconds = time.Since(start).Seconds()
	res.Environment.LoadAfter = LoadAverage()
	res.Environment.PeakRSSMiB = peakRSSMiB()
	if o.OutDir != "" {
		if err := res.Write(filepath.Join(o.OutDir, "results.json")); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func (c Config) training() Training {
	return Training{SeqLen: c.TrainLen, Batch: c.Batch, Steps: c.Steps, LearningRate: c.LearningRate,
		PasskeyFraction: c.PasskeyFraction, Seed: uint64(c.Seed)}
}

// finetune continues training the RoPE model with PI at FinetuneMultiple·L
// (factor FinetuneMultiple), and evaluates it with that scaling at every
// length: the PI paper's recipe.
func (c Config) finetune(o Options, ropeStore *model.Store, text Text) (*Run, error) {
	store, err := ropeStore.Clone()
	if err != nil {
		return nil, err
	}
	k := c.FinetuneMultiple
	m := c.Model(RoPE)
	m.Scaling = posenc.LinearScaling(float64(k))
	t := c.training()
	t.SeqLen, t.Batch, t.Steps, t.Seed = k*c.TrainLen, c.FinetuneBatch, c.FinetuneSteps, uint64(c.Seed)+1
	name := "rope+pi-finetune"
	o.Progress.Begin(name)
	stats, err := Train(o.Backend, store, m, t, text, o.Progress.Update)
	if err != nil {
		return nil, err
	}
	run, err := c.evaluate(o.Backend, store, c.Model(RoPE), name, text.Valid, func(int) posenc.Scaling { return m.Scaling })
	if err != nil {
		return nil, err
	}
	run.Train, run.Scaling = &stats, fmt.Sprintf("pi×%d", k)
	return run, c.checkpoint(o.OutDir, name, store)
}

// evaluate measures m (its Scaling set by scaling for each length) on the
// validation text valid at every multiple of L, and on passkeys (with
// filler from valid) at every distance.
func (c Config) evaluate(backend compute.Backend, store *model.Store, m Model, name string, valid []int32, scaling func(n int) posenc.Scaling) (*Run, error) {
	run := &Run{Name: name, Encoding: m.Encoding}
	start := time.Now()
	defer func() { run.EvalSeconds = math.Round(time.Since(start).Seconds()*10) / 10 }()
	evaluators := map[int]*Evaluator{}
	evaluatorAt := func(n int) (*Evaluator, error) {
		if e, ok := evaluators[n]; ok {
			return e, nil
		}
		mn := m
		mn.Scaling = scaling(n)
		e, err := NewEvaluator(backend, store, mn)
		evaluators[n] = e
		return e, err
	}
	defined := func(n int) bool { return m.MaxLen() == 0 || n <= m.MaxLen() }
	for _, k := range c.Multiples {
		n := k * c.TrainLen
		l := Length{Multiple: k, Length: n, Defined: defined(n), Factor: scaling(n).Factor}
		if l.Defined {
			e, err := evaluatorAt(n)
			if err != nil {
				return nil, err
			}
			per, err := e.LossByPosition(valid, n, c.EvalWindows)
			if err != nil {
				return nil, err
			}
			for p := range per {
				l.Mean += per[p] / float64(n)
				per[p] = round4(per[p])
			}
			l.Mean, l.PerPosition = round4(l.Mean), per
		}
		run.Lengths = append(run.Lengths, l)
	}
	for _, d := range c.PasskeyDistances {
		n := c.passkeyLen(d)
		pk := PasskeyAt{Distance: d, Length: n, Defined: defined(n)}
		if pk.Defined {
			e, err := evaluatorAt(n)
			if err != nil {
				return nil, err
			}
			if pk.Accuracy, err = e.PasskeyAccuracy(valid, n, d, c.PasskeyExamples, uint64(c.Seed)); err != nil {
				return nil, err
			}
		}
		run.Passkey = append(run.Passkey, pk)
	}
	return run, nil
}

func (c Config) checkpoint(dir, name string, store *model.Store) error {
	if dir == "" || !c.SaveCheckpoints {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755); err != nil {
		return err
	}
	return SaveCheckpoint(filepath.Join(dir, "checkpoints", name+".gob"), store)
}

// multiplesText lists the multiples of L, as "1×, 2×, 4×, 8× L".
func multiplesText(multiples []int) string {
	s := make([]string, len(multiples))
	for i, k := range multiples {
		s[i] = fmt.Sprintf("%d×", k)
	}
	return strings.Join(s, ", ") + " L"
}

func lossSummary(run *Run) string {
	s := ""
	for _, l := range run.Lengths {
		if l.Defined {
			s += fmt.Sprintf("%.3f ", l.Mean)
		} else {
			s += "undefined "
		}
	}
	return s
}
