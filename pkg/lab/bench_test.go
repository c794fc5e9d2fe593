package lab

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/train"
	"github.com/gomlx/gomlx/ml/train/optimizer"

	"github.com/posenc/course/pkg/posgraph"
)

// benchConfig is the model BenchmarkTrainStep trains: LAB_BENCH_CONFIG
// "default" (or unset) is the lab's DefaultConfig, "d32" the same with
// d_model 32 (the lab's model before it grew to 64; "d64" is the default,
// kept as a name), "xla" a larger model for XLA, CPU or GPU (four layers
// of width 128 on L = 128, batch 64).
func benchConfig(b *testing.B) Config {
	c := DefaultConfig()
	switch v := os.Getenv("LAB_BENCH_CONFIG"); v {
	case "", "default":
	case "d32":
		c.Dim = 32
	case "d64":
		c.Dim = 64
	case "xla":
		c.Layers, c.Dim, c.Heads = 4, 128, 8
		c.TrainLen, c.T5MaxLen = 128, 128
		c.Batch = 64
	default:
		b.Fatalf("LAB_BENCH_CONFIG must be default, d32, d64 or xla, got %q", v)
	}
	return c
}

// BenchmarkTrainStep measures training steps of the RoPE model of
// benchConfig on the backend posgraph.NewBackend picks (GOMLX_BACKEND),
// reporting tokens per second, with plain Adam as scripts/lab_torch.py
// trains (the lab also clips the gradients' norm). The graph is compiled
// and run twice before the timer starts. It is the Go side of make bench's
// comparison with PyTorch, and the GPU check's training smoke test:
//
//	go test -c -o lab.test ./pkg/lab
//	GOMLX_BACKEND=xla:cuda LAB_BENCH_CONFIG=xla ./lab.test -test.run '^$' -test.bench TrainStep -test.benchtime 20x
func BenchmarkTrainStep(b *testing.B) {
	c := benchConfig(b)
	backend, err := posgraph.NewBackend()
	if err != nil {
		b.Fatal(err)
	}
	m := c.Model(RoPE)
	trainer := train.NewTrainer(backend, NewStore(c.Seeds[0]), m.Logits, weightedLoss,
		optimizer.Adam().LearningRate(c.LearningRate).Done(), nil, nil)
	text := LoadText()
	rng := rand.New(rand.NewPCG(1, 1))
	batch := SampleLM(rng, text.Train, c.Batch, c.TrainLen)
	tb := train.Batch{
		Inputs: []*tensors.Tensor{tensors.FromValue(batch.Inputs)},
		Labels: []*tensors.Tensor{tensors.FromValue(batch.Targets), tensors.FromValue(batch.Weights)},
	}
	var last float32
	step := func() {
		metrics, err := trainer.TrainStep(tb)
		if err != nil {
			b.Fatal(err)
		}
		last = tensors.ToScalar[float32](metrics[0])
	}
	step()
	step()
	b.ResetTimer()
	for range b.N {
		step()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*c.Batch*c.TrainLen)/b.Elapsed().Seconds(), "tokens/s")
	if !(last > 0 && last < 10) {
		b.Fatalf("loss %v after %d steps: not a number a training step gives", last, b.N+2)
	}
	b.Logf("backend %s, %s: %d layers, d_model %d, %d heads, batch %d × %d tokens; loss %.3f",
		backend.Name(), backend.Description(), c.Layers, c.Dim, c.Heads, c.Batch, c.TrainLen, last)
}
