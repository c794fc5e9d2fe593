package lab

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// Training is how one model is trained: on windows of SeqLen tokens (the
// training length L, or longer for a fine-tune), Batch sequences a step, of
// which a fraction PasskeyFraction are passkey sequences and the rest text.
type Training struct {
	SeqLen, Batch, Steps int
	LearningRate         float64
	PasskeyFraction      float64
	Seed                 uint64 // the data's seed; the weights' is Model's store
}

// Validate reports the first invalid field of t, naming it.
func (t Training) Validate() error {
	switch {
	case t.SeqLen < 4:
		return fmt.Errorf("lab: training length must be at least 4, got %d", t.SeqLen)
	case t.Batch < 1:
		return fmt.Errorf("lab: batch must be positive, got %d", t.Batch)
	case t.Steps < 0:
		return fmt.Errorf("lab: steps must not be negative, got %d", t.Steps)
	case !(t.LearningRate > 0):
		return fmt.Errorf("lab: learning rate must be positive, got %g", t.LearningRate)
	case !(t.PasskeyFraction >= 0 && t.PasskeyFraction <= 1):
		return fmt.Errorf("lab: passkey fraction must be in [0, 1], got %g", t.PasskeyFraction)
	}
	return nil
}

// Step is what Train reports after each step: Loss is the step's training
// loss (the mean next-token loss in nats, passkey answers weighted by
// AnswerWeight), TokensPerSecond the rate since the
// start, not counting the first step (which compiles the graph).
type Step struct {
	Step, Steps     int
	Loss            float64
	TokensPerSecond float64
	Elapsed         time.Duration
}

// TrainStats summarises a training run.
type TrainStats struct {
	Steps           int     `json:"steps"`
	FinalLoss       float64 `json:"final_loss"` // mean loss of the last 10% of steps
	Seconds         float64 `json:"seconds"`
	TokensPerSecond float64 `json:"tokens_per_second"` // after the first step
}

// NewStore returns an empty variable store whose initial values come from
// seed.
func NewStore(seed int64) *model.Store {
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, seed)
	return store
}

// Train trains m's variables in store (creating them on first use) with
// Adam, calling report (when not nil) after each step.
func Train(backend compute.Backend, store *model.Store, m Model, t Training, text Text, report func(Step)) (TrainStats, error) {
	if err := m.Validate(); err != nil {
		return TrainStats{}, err
	}
	if err := t.Validate(); err != nil {
		return TrainStats{}, err
	}
	if max := m.MaxLen(); max > 0 && t.SeqLen > max {
		return TrainStats{}, fmt.Errorf("lab: a %s model has no positions past %d, cannot train on %d", m.Encoding, max, t.SeqLen)
	}
	trainer := train.NewTrainer(backend, store, m.Logits, weightedLoss,
		optimizer.Adam().LearningRate(t.LearningRate).Done(), nil, nil)
	rng := rand.New(rand.NewPCG(t.Seed, 1))
	numPasskey := int(float64(t.Batch)*t.PasskeyFraction + 0.5)
	var (
		stats     TrainStats
		lossSum   float64
		lossCount int
		start     = time.Now()
		warm      time.Time // end of the first step
	)
	for step := range t.Steps {
		b := SampleLM(rng, text.Train, t.Batch-numPasskey, t.SeqLen)
		p := SamplePasskey(rng, text.Train, numPasskey, t.SeqLen)
		b.Inputs, b.Targets = append(b.Inputs, p.Inputs...), append(b.Targets, p.Targets...)
		metrics, err := trainer.TrainStep(train.Batch{
			Inputs: []*tensors.Tensor{tensors.FromValue(b.Inputs)},
			Labels: []*tensors.Tensor{tensors.FromValue(b.Targets), tensors.FromValue(weights(b.Targets))},
		})
		if err != nil {
			return stats, fmt.Errorf("lab: training %s, step %d: %w", m.Encoding, step, err)
		}
		l := float64(tensors.ToScalar[float32](metrics[0]))
		if step >= t.Steps-max(t.Steps/10, 1) {
			lossSum, lossCount = lossSum+l, lossCount+1
		}
		if step == 0 {
			warm = time.Now()
		}
		s := Step{Step: step + 1, Steps: t.Steps, Loss: l, Elapsed: time.Since(start)}
		if step > 0 {
			s.TokensPerSecond = float64(step*t.Batch*t.SeqLen) / time.Since(warm).Seconds()
		}
		stats.TokensPerSecond = s.TokensPerSecond
		if report != nil {
			report(s)
		}
	}
	stats.Steps, stats.Seconds = t.Steps, time.Since(start).Seconds()
	if lossCount > 0 {
		stats.FinalLoss = lossSum / float64(lossCount)
	}
	return stats, nil
}

// AnswerWeight is the weight of a passkey's answer in the training loss,
// where every other position weighs 1: as much as a whole sequence of text,
// so that the retrieval task is learned within the lab's few steps (at
// weight 1 its 1 position in 64 was not, in 1,000 steps).
const AnswerWeight = 64

// weights returns the loss weight of every target: AnswerWeight for a
// passkey's answer (a value token), 1 otherwise.
func weights(targets [][]int32) [][]float32 {
	w := make([][]float32, len(targets))
	for i, row := range targets {
		w[i] = make([]float32, len(row))
		for j, t := range row {
			w[i][j] = 1
			if t >= TokenValue0 && j == len(row)-1 {
				w[i][j] = AnswerWeight
			}
		}
	}
	return w
}

// tokenLoss returns −log p(target) at every position: logits [batch, seq,
// VocabSize], targets [batch, seq] → [batch, seq].
func tokenLoss(logits, targets *graph.Node) *graph.Node {
	logp := graph.LogSoftmax(logits, -1)                           // [batch, seq, vocab]
	onehot := graph.OneHot(targets, VocabSize, logits.DType())     // [batch, seq, vocab]
	return graph.Neg(graph.ReduceSum(graph.Mul(logp, onehot), -1)) // [batch, seq]
}

// weightedLoss is the training loss: the weighted mean of tokenLoss, with
// labels the targets and their weights, both [batch, seq].
func weightedLoss(labels, logits []*graph.Node) *graph.Node {
	l := tokenLoss(logits[0], labels[0])                                                         // [batch, seq]
	return graph.Div(graph.ReduceAllSum(graph.Mul(l, labels[1])), graph.ReduceAllSum(labels[1])) // scalar
}
