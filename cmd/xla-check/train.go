package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/layers"
	"github.com/gomlx/gomlx/ml/layers/activation"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/loss"
	"github.com/gomlx/gomlx/ml/train/optimizer"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// The classifier: sequences of trainSeq digits; the label says whether the
// first digit is smaller than the last, which needs positions to learn.
const (
	trainVocab = 10
	trainSeq   = 16
	trainDim   = 64
	trainBatch = 64
)

// classifier is a one-layer Transformer: tokens [batch, seq] → logits
// [batch, 1].
func classifier(scope *model.Scope, tokens *graph.Node) *graph.Node {
	g := tokens.Graph()
	emb := scope.In("tokens").VariableWithShape("embeddings", shapes.Make(dtypes.Float32, trainVocab, trainDim)).NodeValue(g)
	x := graph.Gather(emb, graph.ExpandAxes(tokens, -1))                    // [batch, seq, dim]
	x = posgraph.AddSinusoidal(x, posenc.NewSinusoidal(trainDim), 0, false) // [batch, seq, dim]
	q := layers.Dense(scope.In("query"), x, false, trainDim)                // [batch, seq, dim]
	k := layers.Dense(scope.In("key"), x, false, trainDim)                  // [batch, seq, dim]
	v := layers.Dense(scope.In("value"), x, false, trainDim)                // [batch, seq, dim]
	x = graph.Add(x, posgraph.Attention(q, k, v, nil))                      // [batch, seq, dim]
	h := activation.Relu(layers.Dense(scope.In("ffn_in"), x, true, 4*trainDim))
	x = graph.Add(x, layers.Dense(scope.In("ffn_out"), h, true, trainDim)) // [batch, seq, dim]
	pooled := graph.ReduceMean(x, 1)                                       // [batch, dim]
	return layers.Dense(scope.In("logit"), pooled, true, 1)                // [batch, 1]
}

// trainingBatch returns a batch of random sequences and their labels.
func trainingBatch(rng *rand.Rand) train.Batch {
	tokens := make([][]int32, trainBatch)
	labels := make([][]float32, trainBatch)
	for i := range tokens {
		tokens[i] = make([]int32, trainSeq)
		for j := range tokens[i] {
			tokens[i][j] = int32(rng.IntN(trainVocab))
		}
		labels[i] = []float32{0}
		if tokens[i][0] < tokens[i][trainSeq-1] {
			labels[i][0] = 1
		}
	}
	return train.Batch{Inputs: []*tensors.Tensor{tensors.FromValue(tokens)}, Labels: []*tensors.Tensor{tensors.FromValue(labels)}}
}

// trainingRate trains the classifier for steps steps (after one compiling
// step) and prints the steps per second and the loss before and after.
func trainingRate(backend compute.Backend, steps int, w io.Writer) error {
	store := model.NewStore()
	store.SetParam(model.ParamInitialSeed, int64(42))
	trainer := train.NewTrainer(backend, store, classifier, loss.BinaryCrossentropyLogits,
		optimizer.Adam().LearningRate(0.002).Done(), nil, nil)
	rng := rand.New(rand.NewPCG(5, 5))
	batches := make([]train.Batch, 16) // made before the timing, reused
	for i := range batches {
		batches[i] = trainingBatch(rng)
	}
	metrics, err := trainer.TrainStep(batches[0]) // compiles
	if err != nil {
		return fmt.Errorf("train: %v", err)
	}
	first := tensors.ToScalar[float32](metrics[0])
	start := time.Now()
	for i := range steps {
		if metrics, err = trainer.TrainStep(batches[(i+1)%len(batches)]); err != nil {
			return fmt.Errorf("train: %v", err)
		}
	}
	last := tensors.ToScalar[float32](metrics[1]) // moving-average loss; reading it waits for the device
	elapsed := time.Since(start)
	if math.IsNaN(float64(last)) {
		return fmt.Errorf("train: the loss is NaN after %d steps", steps)
	}
	fmt.Fprintf(w, "xla-check: train: %.1f steps/s (%d steps of %d sequences of %d tokens, model width %d, Adam; compiled first); loss %.3f at step 1, moving average %.3f at step %d\n",
		float64(steps)/elapsed.Seconds(), steps, trainBatch, trainSeq, trainDim, first, last, steps+1)
	return nil
}
