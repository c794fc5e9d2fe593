package lab

import (
	"fmt"
	"slices"
	"strings"
)

// Variant is a model that differs from its encoding's default in one way:
// more heads (a smaller head dimension), NoPE layers or p-RoPE; or a
// control, trained differently: embeddings scaled as Vaswani et al. scale
// them, no recall sequences, more steps.
type Variant struct {
	Name       string   `json:"name"`
	Encoding   Encoding `json:"encoding"`
	Heads      int      `json:"heads,omitempty"`      // 0: Config.Heads
	NoPEEvery  int      `json:"nope_every,omitempty"` // Model.NoPEEvery
	Proportion float64  `json:"proportion,omitempty"` // Model.Proportion
	// ScaleEmbeddings multiplies the token embeddings by √dim before the
	// sinusoidal table is added (Model.ScaleEmbeddings).
	ScaleEmbeddings bool `json:"scale_embeddings,omitempty"`
	TextOnly        bool `json:"text_only,omitempty"` // no recall sequences: every batch is text
	Steps           int  `json:"steps,omitempty"`     // 0: Config.Steps
	// Seeds, when positive, trains the variant with the first Seeds of
	// Config.Seeds only: a control needs fewer than the models it explains.
	Seeds int `json:"seeds,omitempty"`
	// Lengths, when positive, evaluates the variant at the first Lengths
	// of Config.Multiples only: a control of what happens at L needs L.
	Lengths int `json:"lengths,omitempty"`
}

// Config is everything a lab run does: which models it trains, with how
// many seeds, the model and training sizes, and what it evaluates.
// DefaultConfig is the committed run, LayersConfig the layer-pattern run
// of lesson 9, Quick a small version of either for tests.
type Config struct {
	Encodings []Encoding `json:"encodings"`
	Variants  []Variant  `json:"variants,omitempty"`
	Seeds     []int64    `json:"seeds"` // each model is trained once per seed (weights and data)
	Layers    int        `json:"layers"`
	Dim       int        `json:"dim"`
	Heads     int        `json:"heads"`
	// TrainLen is L, the training length; T5Buckets and T5MaxLen configure
	// T5's buckets (its last bucket begins near T5MaxLen).
	TrainLen         int       `json:"train_len"`
	T5Buckets        int       `json:"t5_buckets"`
	T5MaxLen         int       `json:"t5_max_len"`
	Batch            int       `json:"batch"`
	Steps            int       `json:"steps"`
	LearningRate     float64   `json:"learning_rate"`   // the schedule's peak
	Warmup           int       `json:"warmup"`          // warm-up steps
	MinLRFrac        float64   `json:"min_lr_fraction"` // the cosine's end, as a fraction of the peak
	Clip             float64   `json:"clip"`            // global gradient-norm clip
	RecallFrac       float64   `json:"recall_fraction"` // of each batch
	Recall           Recall    `json:"recall"`
	AnswerWeight     float32   `json:"answer_weight"`
	ValidEvery       int       `json:"valid_every"`        // learning-curve interval, steps
	CurveWindows     int       `json:"curve_windows"`      // validation windows of the learning curve
	Multiples        []int     `json:"multiples"`          // evaluation lengths, as multiples of L
	EvalWindows      int       `json:"eval_windows"`       // validation windows, the same targets at every length
	Depths           []float64 `json:"depths"`             // where the probed pair stands, 0 (first) to 1 (last)
	Probes           int       `json:"probes"`             // recall probes per length and depth
	EvalSeed         uint64    `json:"eval_seed"`          // the probes' seed, the same for every model
	Methods          []string  `json:"methods"`            // RoPE scalings evaluated without training
	DynamicNTKFactor float64   `json:"dynamic_ntk_factor"` // HF's factor in dynamic NTK's base formula
	// The fine-tunes of the RoPE model at FinetuneMultiple·L: with PI
	// (factor FinetuneMultiple) and, as its control, without (0 steps: none).
	FinetuneSteps    int  `json:"finetune_steps"`
	FinetuneMultiple int  `json:"finetune_multiple"`
	FinetuneBatch    int  `json:"finetune_batch"`
	SaveCheckpoints  bool `json:"save_checkpoints"` // the first seed's models
	// Revision numbers the lab's design (its task and probes); results of
	// an earlier revision are kept readable, but are not this code's.
	Revision int `json:"revision,omitempty"`
	// The probes that tell the factors of recall apart (revision 2): the
	// depth probes hold ProbePairs pairs (0: Recall.Pairs), their depth 0
	// at FirstOffset (ProbeOffsetFrom); with FirstOffset > 0 the first
	// token is probed apart ("first"). SinglePair adds, at every length and
	// depth, the probed pair alone (no distractors: distance only);
	// Distractors sweeps the number of other pairs at SweepDepth.
	ProbePairs  int     `json:"probe_pairs,omitempty"`
	FirstOffset int     `json:"first_offset,omitempty"`
	SinglePair  bool    `json:"single_pair,omitempty"`
	Distractors []int   `json:"distractors,omitempty"`
	SweepDepth  float64 `json:"sweep_depth,omitempty"`
}

// LabRevision is the revision of the lab's design this code runs: 2 asks
// each key once at a distance drawn over the whole training length, and
// probes distance, distractors and the first token apart.
const LabRevision = 2

// DefaultConfig is the lab of lesson 8: six encodings and a RoPE model with
// a head dimension of 8, each trained with five seeds on L = 64 for 2,000
// steps, evaluated up to 8L on loss and recall, the RoPE model also with
// every scaling method and fine-tuned at 4L with and without PI; and the
// controls for the gaps between them at L (Controls), with three seeds.
func DefaultConfig() Config {
	return Config{
		Encodings: slices.Clone(Encodings),
		Variants:  append([]Variant{{Name: "rope-hd8", Encoding: RoPE, Heads: 8}}, Controls()...),
		Seeds:     []int64{1, 2, 3, 4, 5},
		Layers:    2, Dim: 64, Heads: 4,
		TrainLen: 64, T5Buckets: 32, T5MaxLen: 64,
		Batch: 32, Steps: 2000, LearningRate: 3e-3, Warmup: 100, MinLRFrac: 0.1, Clip: 1,
		RecallFrac: 0.5, Recall: Recall{Pairs: 8, Queries: 6}, AnswerWeight: 6,
		ValidEvery: 100, CurveWindows: 64,
		Multiples:        []int{1, 2, 4, 8},
		EvalWindows:      256,
		Depths:           []float64{0, 0.25, 0.5, 0.75, 1},
		Probes:           128,
		EvalSeed:         1,
		Methods:          slices.Clone(Methods),
		DynamicNTKFactor: 2,
		FinetuneSteps:    300, FinetuneMultiple: 4, FinetuneBatch: 8,
		SaveCheckpoints: true,
		Revision:        LabRevision,
		ProbePairs:      4, FirstOffset: 8, SinglePair: true, Distractors: []int{0, 1, 3, 7}, SweepDepth: 0.5,
	}
}

// Controls are the runs that test why the models differ at L, where
// nothing is extrapolated: the sinusoidal table with the token embeddings
// scaled by √dim as Vaswani et al. (2017, §3.4) scale them (unscaled, the
// table's norm, √(dim/2) ≈ 5.7 at dim 64, swamps embeddings of norm about
// 1); each of sinusoidal, learned, RoPE and ALiBi trained on text alone
// (does the recall task's share of the loss decide the gap?); and the two
// absolute encodings, still improving at the end, trained twice as long.
//
// They are evaluated at L only, where the gaps are: past L the evaluation
// would cost as much as their training and answer another question.
func Controls() []Variant {
	const seeds, lengths = 3, 1
	return []Variant{
		{Name: "sinusoidal-scaled", Encoding: Sinusoidal, ScaleEmbeddings: true, Seeds: seeds, Lengths: lengths},
		{Name: "sinusoidal-text", Encoding: Sinusoidal, TextOnly: true, Seeds: seeds, Lengths: lengths},
		{Name: "learned-text", Encoding: Learned, TextOnly: true, Seeds: seeds, Lengths: lengths},
		{Name: "rope-text", Encoding: RoPE, TextOnly: true, Seeds: seeds, Lengths: lengths},
		{Name: "alibi-text", Encoding: ALiBi, TextOnly: true, Seeds: seeds, Lengths: lengths},
		{Name: "sinusoidal-long", Encoding: Sinusoidal, Steps: 4000, Seeds: seeds, Lengths: lengths},
		{Name: "learned-long", Encoding: Learned, Steps: 4000, Seeds: seeds, Lengths: lengths},
	}
}

// LayersConfig is the layer-pattern lab of lesson 9: four-layer models,
// full RoPE against RoPE with every fourth layer NoPE (3:1) and p-RoPE
// (a quarter of the pairs rotating), with NoPE as the reference.
func LayersConfig() Config {
	c := DefaultConfig()
	c.Layers = 4
	c.Encodings = []Encoding{RoPE, NoPE}
	c.Variants = []Variant{
		{Name: "rope-nope-3:1", Encoding: RoPE, NoPEEvery: 4},
		{Name: "p-rope", Encoding: RoPE, Proportion: 0.25},
	}
	c.Methods, c.FinetuneSteps, c.SaveCheckpoints = nil, 0, false
	c.Distractors = nil // lesson 9 compares layer patterns at depths
	return c
}

// Quick returns a small version of c for tests: one layer of width 16 on
// L = 16, two seeds, a few steps. Its numbers show that the machinery
// works, not what the encodings do.
func Quick(c Config) Config {
	c.Variants = slices.Clone(c.Variants) // the caller's variants stay as they were
	c.Seeds = []int64{1, 2}
	c.Layers, c.Dim, c.Heads = 1, 16, 2
	for i := range c.Variants {
		if c.Variants[i].Heads != 0 {
			c.Variants[i].Heads = 4
		}
		if c.Variants[i].Steps != 0 {
			c.Variants[i].Steps = 2 * 30
		}
		if c.Variants[i].Seeds != 0 {
			c.Variants[i].Seeds = 1 // a control runs, once
		}
		if c.Variants[i].NoPEEvery != 0 {
			c.Layers, c.Variants[i].NoPEEvery = 2, 2
		}
	}
	c.TrainLen, c.T5Buckets, c.T5MaxLen = 16, 16, 16
	c.Batch, c.Steps, c.Warmup = 8, 30, 5
	c.Recall = Recall{Pairs: 2, Queries: 2}
	if c.FirstOffset > 0 {
		c.FirstOffset = 4
	}
	if len(c.Distractors) > 0 {
		c.Distractors = []int{0, 1, 3}
	}
	c.ValidEvery, c.CurveWindows = 10, 8
	c.EvalWindows, c.Probes = 8, 16
	if c.FinetuneSteps > 0 {
		c.FinetuneSteps, c.FinetuneBatch = 10, 4
	}
	c.SaveCheckpoints = false
	return c
}

// Model returns the model of encoding e under c.
func (c Config) Model(e Encoding) Model {
	return Model{Encoding: e, Layers: c.Layers, Dim: c.Dim, Heads: c.Heads, TrainLen: c.TrainLen,
		T5Buckets: c.T5Buckets, T5MaxLen: c.T5MaxLen}
}

// VariantModel returns the model of variant v under c.
func (c Config) VariantModel(v Variant) Model {
	m := c.Model(v.Encoding)
	if v.Heads != 0 {
		m.Heads = v.Heads
	}
	m.NoPEEvery, m.Proportion, m.ScaleEmbeddings = v.NoPEEvery, v.Proportion, v.ScaleEmbeddings
	return m
}

// VariantSeeds returns the seeds v is trained with.
func (c Config) VariantSeeds(v Variant) []int64 {
	if v.Seeds > 0 && v.Seeds < len(c.Seeds) {
		return c.Seeds[:v.Seeds]
	}
	return c.Seeds
}

// VariantSeedsOf returns the seeds the run called name is trained or
// evaluated with: a variant's (VariantSeeds), else every seed.
func (c Config) VariantSeedsOf(name string) []int64 {
	for _, v := range c.Variants {
		if v.Name == name {
			return c.VariantSeeds(v)
		}
	}
	return c.Seeds
}

// VariantTraining returns the training of v's model for seed.
func (c Config) VariantTraining(v Variant, seed int64) Training {
	t := c.training(seed)
	if v.Steps > 0 {
		t.Steps, t.Schedule.Steps = v.Steps, v.Steps
	}
	if v.TextOnly {
		t.RecallFraction = 0
	}
	return t
}

// probePairs is the number of pairs in the depth probes.
func (c Config) probePairs() int {
	if c.ProbePairs > 0 {
		return c.ProbePairs
	}
	return c.Recall.Pairs
}

// Validate reports the first invalid field of c, naming it.
func (c Config) Validate() error {
	if len(c.Encodings)+len(c.Variants) == 0 {
		return fmt.Errorf("lab: no encodings to train")
	}
	if len(c.Seeds) == 0 {
		return fmt.Errorf("lab: no seeds")
	}
	for i, s := range c.Seeds {
		if slices.Contains(c.Seeds[:i], s) {
			return fmt.Errorf("lab: seeds must differ, got %d twice in %v", s, c.Seeds)
		}
	}
	t := c.training(c.Seeds[0])
	t.Valid = Batch{Inputs: [][]int32{nil}} // made from the text later; CurveWindows is checked below
	if err := t.Validate(); err != nil {
		return err
	}
	for i, e := range c.Encodings {
		if slices.Contains(c.Encodings[:i], e) {
			return fmt.Errorf("lab: encodings must differ, got %s twice", e)
		}
	}
	for _, e := range c.Encodings {
		if err := c.Model(e).Validate(); err != nil {
			return err
		}
	}
	for i, v := range c.Variants {
		if v.Name == "" || slices.Contains(Encodings, Encoding(v.Name)) || strings.HasPrefix(v.Name, string(RoPE)+"+") {
			return fmt.Errorf("lab: a variant needs a name of its own, got %q (not an encoding's, nor rope+…, a scaled evaluation's)", v.Name)
		}
		if slices.ContainsFunc(c.Variants[:i], func(o Variant) bool { return o.Name == v.Name }) {
			return fmt.Errorf("lab: variant names must differ, got %q twice", v.Name)
		}
		if err := c.VariantModel(v).Validate(); err != nil {
			return fmt.Errorf("lab: variant %s: %w", v.Name, err)
		}
		if v.NoPEEvery > c.Layers {
			return fmt.Errorf("lab: variant %s: nope_every must be at most the layers (%d), got %d", v.Name, c.Layers, v.NoPEEvery)
		}
	}
	if len(c.Multiples) == 0 || c.Multiples[0] != 1 || !slices.IsSorted(c.Multiples) {
		return fmt.Errorf("lab: multiples must start at 1 and increase, got %v", c.Multiples)
	}
	for _, d := range append(slices.Clone(c.Depths), c.SweepDepth) {
		if !(d >= 0 && d <= 1) {
			return fmt.Errorf("lab: depths must be in [0, 1], got %g", d)
		}
	}
	switch {
	case c.ProbePairs < 0 || c.ProbePairs > NumKeys || 2*c.probePairs()+1 > c.TrainLen:
		return fmt.Errorf("lab: probe pairs must be in [0, %d] and fit in %d tokens, got %d", NumKeys, c.TrainLen, c.ProbePairs)
	case c.FirstOffset < 0 || c.FirstOffset > c.TrainLen-3:
		return fmt.Errorf("lab: first offset must be in [0, %d], got %d", c.TrainLen-3, c.FirstOffset)
	}
	for _, d := range c.Distractors {
		if d < 0 || d+1 > NumKeys || 2*(d+1)+1 > c.TrainLen {
			return fmt.Errorf("lab: distractors must be in [0, %d] and fit in %d tokens, got %d", NumKeys-1, c.TrainLen, d)
		}
	}
	for _, v := range c.Variants {
		switch {
		case v.Steps < 0:
			return fmt.Errorf("lab: variant %s: steps must not be negative, got %d", v.Name, v.Steps)
		case v.Seeds < 0:
			return fmt.Errorf("lab: variant %s: seeds must not be negative, got %d", v.Name, v.Seeds)
		case v.Lengths < 0:
			return fmt.Errorf("lab: variant %s: lengths must not be negative, got %d", v.Name, v.Lengths)
		}
	}
	for _, m := range c.Methods {
		if !slices.Contains(Methods, m) {
			return fmt.Errorf("lab: unknown scaling method %q (want one of %v)", m, Methods)
		}
	}
	switch {
	case c.EvalWindows < 1:
		return fmt.Errorf("lab: eval windows must be positive, got %d", c.EvalWindows)
	case c.Probes < 1:
		return fmt.Errorf("lab: probes must be positive, got %d", c.Probes)
	case c.ValidEvery > 0 && c.CurveWindows < 1:
		return fmt.Errorf("lab: curve windows must be positive, got %d", c.CurveWindows)
	case c.FinetuneSteps < 0:
		return fmt.Errorf("lab: fine-tune steps must not be negative, got %d", c.FinetuneSteps)
	case c.FinetuneSteps > 0 && (c.FinetuneMultiple < 2 || c.FinetuneBatch < 1):
		return fmt.Errorf("lab: a fine-tune needs a multiple ≥ 2 and a positive batch, got %d and %d", c.FinetuneMultiple, c.FinetuneBatch)
	case c.DynamicNTKFactor < 1:
		return fmt.Errorf("lab: dynamic NTK factor must be at least 1, got %g", c.DynamicNTKFactor)
	}
	return nil
}

// training returns the training of seed's models.
func (c Config) training(seed int64) Training {
	return Training{SeqLen: c.TrainLen, Batch: c.Batch, Steps: c.Steps,
		Schedule: Schedule{Peak: c.LearningRate, Warmup: c.Warmup, Steps: c.Steps, MinFraction: c.MinLRFrac},
		Clip:     c.Clip, RecallFraction: c.RecallFrac, Recall: c.Recall, AnswerWeight: c.AnswerWeight,
		Seed: uint64(seed), ValidEvery: c.ValidEvery}
}

// TotalSteps is the number of training steps RunLab takes for c: every
// model's and fine-tune's, for every seed.
func (c Config) TotalSteps() int {
	n := len(c.Encodings) * c.Steps
	if slices.Contains(c.Encodings, RoPE) {
		n += 2 * c.FinetuneSteps
	}
	n *= len(c.Seeds)
	for _, v := range c.Variants {
		n += c.VariantTraining(v, 0).Steps * len(c.VariantSeeds(v))
	}
	return n
}
