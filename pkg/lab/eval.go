package lab

import (
	"fmt"
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

// LossByPosition returns the mean next-token loss (nats) at each of the
// seqLen positions, over n windows of the validation text.
func (e *Evaluator) LossByPosition(valid []int32, seqLen, n int) ([]float64, error) {
	loss, _, err := e.run(ValidWindows(valid, n, seqLen))
	if err != nil {
		return nil, err
	}
	mean := make([]float64, seqLen)
	for _, row := range loss {
		for p, l := range row {
			mean[p] += float64(l) / float64(len(loss))
		}
	}
	return mean, nil
}

// PasskeyAccuracy returns the fraction of n passkey sequences of seqLen
// tokens, with the value distance positions before the query, whose value
// the model predicts. Filler comes from the validation text; seed fixes the
// values and filler positions.
func (e *Evaluator) PasskeyAccuracy(valid []int32, seqLen, distance, n int, seed uint64) (float64, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(distance)))
	var b Batch
	values := make([]int32, n)
	for i := range n {
		in, tg, v, err := Passkey(rng, valid, rng.IntN(len(valid)-seqLen-1), seqLen, distance)
		if err != nil {
			return 0, err
		}
		b.Inputs, b.Targets, values[i] = append(b.Inputs, in), append(b.Targets, tg), v
	}
	_, answer, err := e.run(b)
	if err != nil {
		return 0, err
	}
	correct := 0
	for i, a := range answer {
		if a == values[i] {
			correct++
		}
	}
	return float64(correct) / float64(n), nil
}
