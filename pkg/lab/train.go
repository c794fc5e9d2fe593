package lab

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"
)

// Training is how one model is trained: Steps steps of Batch sequences of
// SeqLen tokens (the training length L, or longer for a fine-tune), a
// fraction RecallFraction of them recall sequences and the rest text, with
// Adam at the learning rates of Schedule and gradients clipped to a global
// norm of Clip (0: none).
type Training struct {
	SeqLen, Batch, Steps int
	Schedule             Schedule
	Clip                 float64
	RecallFraction       float64
	Recall               Recall
	AnswerWeight         float32 // a recall answer's weight in the loss
	Seed                 uint64  // the data's seed; the weights' is the store's
	// Every ValidEvery steps (0: never) Train measures the validation loss
	// on Valid, for the learning curve.
	ValidEvery int
	Valid      Batch
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
	case t.Clip < 0:
		return fmt.Errorf("lab: gradient clip must not be negative, got %g", t.Clip)
	case !(t.RecallFraction >= 0 && t.RecallFraction <= 1):
		return fmt.Errorf("lab: recall fraction must be in [0, 1], got %g", t.RecallFraction)
	case !(t.AnswerWeight >= 0):
		return fmt.Errorf("lab: answer weight must not be negative, got %g", t.AnswerWeight)
	case t.ValidEvery < 0:
		return fmt.Errorf("lab: validation interval must not be negative, got %d", t.ValidEvery)
	case t.ValidEvery > 0 && len(t.Valid.Inputs) == 0:
		return fmt.Errorf("lab: validation every %d steps needs a validation batch (Training.Valid), got none", t.ValidEvery)
	}
	if err := t.Schedule.Validate(); err != nil {
		return err
	}
	if t.RecallFraction > 0 {
		return t.Recall.Validate(t.SeqLen)
	}
	return nil
}

// Step is what Train reports after each step: Loss is the step's training
// loss (the weighted mean next-token loss in nats), TokensPerSecond the
// rate since the start, not counting the first step (which compiles the
// graph).
type Step struct {
	Step, Steps     int
	Loss            float64
	TokensPerSecond float64
	Elapsed         time.Duration
}

// CurvePoint is one point of a learning curve: the mean training loss of
// the steps since the previous point, and the validation loss.
type CurvePoint struct {
	Step  int     `json:"step"`
	Train float64 `json:"train"`
	Valid float64 `json:"valid"`
}

// TrainStats summarises a training run.
type TrainStats struct {
	Steps           int          `json:"steps"`
	FinalLoss       float64      `json:"final_loss"` // mean training loss of the last 10% of steps
	Seconds         float64      `json:"seconds"`
	TokensPerSecond float64      `json:"tokens_per_second"` // after the first step
	Curve           []CurvePoint `json:"curve,omitempty"`
}

// NewStore returns an empty variable store whose initial values come from
// seed.
func NewStore(seed int64) *model.Store {
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, seed)
	return store
}

// Train trains m's variables in store (creating them on first use),
// calling report (when not nil) after each step.
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
	opt, err := newClippedAdam(t.Schedule.Peak, t.Clip)
	if err != nil {
		return TrainStats{}, err
	}
	trainer := train.NewTrainer(backend, store, m.Logits, weightedLoss, opt, nil, nil)
	lr := optimizer.LearningRateVar(store.RootScope(), dtypes.Float32, t.Schedule.Peak)
	var eval *Evaluator
	if t.ValidEvery > 0 {
		if eval, err = NewEvaluator(backend, store, m); err != nil {
			return TrainStats{}, err
		}
	}
	rng := rand.New(rand.NewPCG(t.Seed, 1))
	numRecall := int(float64(t.Batch)*t.RecallFraction + 0.5)
	var (
		stats             TrainStats
		lossSum, curveSum float64
		lossCount, curveN int
		start             = time.Now()
		warm              time.Time // end of the first step
	)
	for step := range t.Steps {
		b := SampleLM(rng, text.Train, t.Batch-numRecall, t.SeqLen)
		if numRecall > 0 {
			b.add(SampleRecall(rng, text.Train, numRecall, t.SeqLen, t.Recall, t.AnswerWeight))
		}
		if err := lr.SetValue(tensors.FromScalar(float32(t.Schedule.At(step)))); err != nil {
			return stats, err
		}
		metrics, err := trainer.TrainStep(train.Batch{
			Inputs: []*tensors.Tensor{tensors.FromValue(b.Inputs)},
			Labels: []*tensors.Tensor{tensors.FromValue(b.Targets), tensors.FromValue(b.Weights)},
		})
		if err != nil {
			return stats, fmt.Errorf("lab: training %s, step %d: %w", m.Encoding, step, err)
		}
		l := float64(tensors.ToScalar[float32](metrics[0]))
		if step >= t.Steps-max(t.Steps/10, 1) {
			lossSum, lossCount = lossSum+l, lossCount+1
		}
		curveSum, curveN = curveSum+l, curveN+1
		if eval != nil && ((step+1)%t.ValidEvery == 0 || step+1 == t.Steps) {
			v, err := eval.MeanLoss(t.Valid, 0)
			if err != nil {
				return stats, err
			}
			stats.Curve = append(stats.Curve, CurvePoint{Step: step + 1, Train: round4(curveSum / float64(curveN)), Valid: round4(v)})
			curveSum, curveN = 0, 0
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
