package lab

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// evalBatch is how many sequences one evaluation call runs: it bounds the
// memory of the attention weights at long lengths.
const evalBatch = 16

// Evaluator runs a trained model, with the variables of a store, without
// changing them.
type Evaluator struct {
	Model Model
	exec  *model.Exec
}

// NewEvaluator returns an evaluator of m over the variables in store.
func NewEvaluator(backend compute.Backend, store *model.Store, m Model) (*Evaluator, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	exec, err := model.NewExec(backend, store, func(scope *model.Scope, tokens, targets *graph.Node) (loss, answer *graph.Node) {
		logits := m.Logits(scope, tokens)                                                    // [batch, seq, vocab]
		loss = tokenLoss(logits, targets)                                                    // [batch, seq]: −log p(target)
		last := graph.Squeeze(graph.Slice(logits, graph.AxisRange(), graph.AxisElem(-1)), 1) // [batch, vocab]
		return loss, graph.ArgMax(last, -1, dtypes.Int32)                                    // [batch]: the predicted last token
	})
	if err != nil {
		return nil, err
	}
	return &Evaluator{Model: m, exec: exec}, nil
}

// run returns the loss at every position of every sequence, and the
// predicted token after the last one.
func (e *Evaluator) run(b Batch) (loss [][]float32, answer []int32, err error) {
	if max := e.Model.MaxLen(); max > 0 && len(b.Inputs[0]) > max {
		return nil, nil, fmt.Errorf("lab: a %s model has no positions past %d, got a sequence of %d", e.Model.Encoding, max, len(b.Inputs[0]))
	}
	for i := 0; i < len(b.Inputs); i += evalBatch {
		j := min(i+evalBatch, len(b.Inputs))
		out, err := e.exec.Call(tensors.FromValue(b.Inputs[i:j]), tensors.FromValue(b.Targets[i:j]))
		if err != nil {
			return nil, nil, err
		}
		loss = append(loss, out[0].Value().([][]float32)...)
		answer = append(answer, out[1].Value().([]int32)...)
	}
	return loss, answer, nil
}

// losses returns the loss at every position of every window of b.
func (e *Evaluator) losses(b Batch) ([][]float32, error) {
	loss, _, err := e.run(b)
	return loss, err
}

// LossByPosition returns the mean next-token loss (nats) at each position
// of the windows of b.
func (e *Evaluator) LossByPosition(b Batch) ([]float64, error) {
	loss, err := e.losses(b)
	if err != nil {
		return nil, err
	}
	mean := make([]float64, len(b.Inputs[0]))
	for _, row := range loss {
		for p, l := range row {
			mean[p] += float64(l) / float64(len(loss))
		}
	}
	return mean, nil
}

// MeanLoss returns the mean next-token loss (nats) over the last last
// targets of every window of b (0: all of them).
func (e *Evaluator) MeanLoss(b Batch, last int) (float64, error) {
	per, err := e.LossByPosition(b)
	if err != nil {
		return 0, err
	}
	return meanLast(per, last), nil
}

// meanLast returns the mean of the last last values of per (0: all).
func meanLast(per []float64, last int) float64 {
	if last <= 0 || last > len(per) {
		last = len(per)
	}
	sum := 0.0
	for _, v := range per[len(per)-last:] {
		sum += v
	}
	return sum / float64(last)
}

// Probes are recall probes of one length and depth, the same for every
// model: Inputs[i] should be followed by Values[i].
type Probes struct {
	Inputs [][]int32
	Values []int32
}

// NewProbes returns n probes of seqLen tokens at depth with pairs pairs,
// their text from valid; seed fixes them (the same seed, length and depth
// always give the same probes).
func NewProbes(valid []int32, seqLen int, depth float64, pairs, n int, seed uint64) (Probes, error) {
	if !(depth >= 0 && depth <= 1) {
		return Probes{}, fmt.Errorf("lab: probe depth must be in [0, 1], got %g", depth)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(seqLen)<<32|uint64(math.Round(depth*1e6))))
	return drawProbes(rng, valid, seqLen, ProbeOffset(seqLen, depth), pairs, n)
}

// NewProbesAt returns n probes of seqLen tokens with the probed pair's key
// at offset and pairs pairs (ProbeAt), their text from valid; seed fixes
// them, and every offset and number of pairs draws its own.
func NewProbesAt(valid []int32, seqLen, offset, pairs, n int, seed uint64) (Probes, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(seqLen)<<32|uint64(offset)<<8|uint64(pairs)|1<<63))
	return drawProbes(rng, valid, seqLen, offset, pairs, n)
}

// drawProbes draws n probes from rng, each from text at a random place.
func drawProbes(rng *rand.Rand, valid []int32, seqLen, offset, pairs, n int) (Probes, error) {
	var p Probes
	for range n {
		in, v, err := ProbeAt(rng, valid, rng.IntN(len(valid)-seqLen), seqLen, offset, pairs)
		if err != nil {
			return Probes{}, err
		}
		p.Inputs, p.Values = append(p.Inputs, in), append(p.Values, v)
	}
	return p, nil
}

// RecallCorrect returns how many of the probes the model answers: the
// value is its most likely next token after the last one.
func (e *Evaluator) RecallCorrect(p Probes) (int, error) {
	answered, err := e.RecallOutcomes(p)
	correct := 0
	for _, ok := range answered {
		if ok {
			correct++
		}
	}
	return correct, err
}

// RecallOutcomes returns, for each probe, whether the model answers it.
func (e *Evaluator) RecallOutcomes(p Probes) ([]bool, error) {
	b := Batch{Inputs: p.Inputs, Targets: p.Inputs} // the targets are not used
	_, answer, err := e.run(b)
	if err != nil {
		return nil, err
	}
	answered := make([]bool, len(answer))
	for i, a := range answer {
		answered[i] = a == p.Values[i]
	}
	return answered, nil
}
