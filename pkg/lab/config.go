package lab

import (
	"fmt"
	"slices"
)

// Config is everything a lab run does: which encodings it trains, the model
// and training sizes, and what it evaluates. DefaultConfig is the committed
// run; QuickConfig the one make test runs.
type Config struct {
	Encodings []Encoding `json:"encodings"`
	Layers    int        `json:"layers"`
	Dim       int        `json:"dim"`
	Heads     int        `json:"heads"`
	// TrainLen is L, the training length; T5Buckets and T5MaxLen configure
	// T5's buckets (its last bucket begins near T5MaxLen).
	TrainLen         int     `json:"train_len"`
	T5Buckets        int     `json:"t5_buckets"`
	T5MaxLen         int     `json:"t5_max_len"`
	Batch            int     `json:"batch"`
	Steps            int     `json:"steps"`
	LearningRate     float64 `json:"learning_rate"`
	PasskeyFraction  float64 `json:"passkey_fraction"`
	Multiples        []int   `json:"multiples"`          // evaluation lengths, as multiples of L
	EvalWindows      int     `json:"eval_windows"`       // validation windows per length
	PasskeyDistances []int   `json:"passkey_distances"`  // distances from value to query
	PasskeyExamples  int     `json:"passkey_examples"`   // sequences per distance
	Scalings         bool    `json:"scalings"`           // evaluate RoPE with PI, NTK, dynamic NTK, YaRN
	FinetuneSteps    int     `json:"finetune_steps"`     // PI fine-tune steps (0: none)
	FinetuneMultiple int     `json:"finetune_multiple"`  // its length and PI factor, as a multiple of L
	FinetuneBatch    int     `json:"finetune_batch"`     // its batch
	DynamicNTKFactor float64 `json:"dynamic_ntk_factor"` // HF's factor in dynamic NTK's base formula
	Seed             int64   `json:"seed"`
	SaveCheckpoints  bool    `json:"save_checkpoints"`
}

// DefaultConfig is the full lab: six encodings trained on L = 64 for 800
// steps, evaluated up to 8L, with every RoPE scaling and a PI fine-tune.
func DefaultConfig() Config {
	return Config{
		Encodings: slices.Clone(Encodings),
		Layers:    2, Dim: 32, Heads: 4,
		TrainLen: 64, T5Buckets: 32, T5MaxLen: 64,
		Batch: 32, Steps: 800, LearningRate: 3e-3, PasskeyFraction: 0.25,
		Multiples:   []int{1, 2, 4, 8},
		EvalWindows: 32,
		// Inside L (up to L−2, the farthest a passkey fits in L tokens), then beyond.
		PasskeyDistances: []int{4, 8, 16, 32, 48, 62, 96, 126, 192, 254, 384, 510},
		PasskeyExamples:  32,
		Scalings:         true,
		FinetuneSteps:    200, FinetuneMultiple: 4, FinetuneBatch: 8,
		DynamicNTKFactor: 2,
		Seed:             1,
		SaveCheckpoints:  true,
	}
}

// QuickConfig is a small lab for CI: every encoding and method, few steps,
// short lengths. Its numbers show that the machinery works, not what the
// encodings do.
func QuickConfig() Config {
	c := DefaultConfig()
	c.Layers, c.Dim, c.Heads = 1, 16, 2
	c.TrainLen, c.T5Buckets, c.T5MaxLen = 16, 16, 16
	c.Batch, c.Steps = 8, 30
	c.EvalWindows = 8
	c.PasskeyDistances = []int{4, 14, 30, 62, 126}
	c.PasskeyExamples = 16
	c.FinetuneSteps, c.FinetuneBatch = 10, 4
	c.SaveCheckpoints = false
	return c
}

// XLAConfig is the larger model the lab trains by default on an XLA
// backend (CPU or GPU): four layers of width 128 on L = 128.
func XLAConfig() Config {
	c := DefaultConfig()
	c.Layers, c.Dim, c.Heads = 4, 128, 8
	c.TrainLen, c.T5MaxLen = 128, 128
	c.Batch, c.Steps = 64, 3000
	c.PasskeyDistances = []int{8, 16, 32, 64, 96, 126, 192, 254, 384, 510, 766, 1022}
	c.FinetuneBatch = 16
	return c
}

// Model returns the model of encoding e under c.
func (c Config) Model(e Encoding) Model {
	return Model{Encoding: e, Layers: c.Layers, Dim: c.Dim, Heads: c.Heads, TrainLen: c.TrainLen,
		T5Buckets: c.T5Buckets, T5MaxLen: c.T5MaxLen}
}

// Validate reports the first invalid field of c, naming it.
func (c Config) Validate() error {
	if len(c.Encodings) == 0 {
		return fmt.Errorf("lab: no encodings to train")
	}
	// The training first: a too short L is the reason, not what it does to a model.
	if err := (Training{SeqLen: c.TrainLen, Batch: c.Batch, Steps: c.Steps, LearningRate: c.LearningRate,
		PasskeyFraction: c.PasskeyFraction}).Validate(); err != nil {
		return err
	}
	for _, e := range c.Encodings {
		if err := c.Model(e).Validate(); err != nil {
			return err
		}
	}
	if len(c.Multiples) == 0 || c.Multiples[0] != 1 || !slices.IsSorted(c.Multiples) {
		return fmt.Errorf("lab: multiples must start at 1 and increase, got %v", c.Multiples)
	}
	longest := c.TrainLen * c.Multiples[len(c.Multiples)-1]
	for _, d := range c.PasskeyDistances {
		if d < 1 || d > longest-2 {
			return fmt.Errorf("lab: passkey distance must be in [1, %d] (the longest length minus 2), got %d", longest-2, d)
		}
	}
	switch {
	case c.EvalWindows < 1:
		return fmt.Errorf("lab: eval windows must be positive, got %d", c.EvalWindows)
	case c.PasskeyExamples < 1:
		return fmt.Errorf("lab: passkey examples must be positive, got %d", c.PasskeyExamples)
	case c.FinetuneSteps < 0:
		return fmt.Errorf("lab: fine-tune steps must not be negative, got %d", c.FinetuneSteps)
	case c.FinetuneSteps > 0 && (c.FinetuneMultiple < 2 || c.FinetuneBatch < 1):
		return fmt.Errorf("lab: a fine-tune needs a multiple ≥ 2 and a positive batch, got %d and %d", c.FinetuneMultiple, c.FinetuneBatch)
	case c.DynamicNTKFactor < 1:
		return fmt.Errorf("lab: dynamic NTK factor must be at least 1, got %g", c.DynamicNTKFactor)
	}
	return nil
}

// passkeyLen returns the length a passkey at distance d is evaluated on:
// the shortest evaluation length that holds it (the key, the value d
// positions before the query, and the query).
func (c Config) passkeyLen(d int) int {
	for _, k := range c.Multiples {
		if n := k * c.TrainLen; n >= d+2 {
			return n
		}
	}
	return 0
}
