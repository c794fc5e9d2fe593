package lab

import "math"

// Baselines are the losses of two models without attention, on the same
// targets as Length.Mean at L: what a Transformer must beat to show that it
// uses its context at all.
type Baselines struct {
	// Unigram predicts each character from its frequency in the training
	// text; Bigram from the character before it. Both are add-one smoothed
	// (Laplace) counts over the training text, in nats per character.
	Unigram float64 `json:"unigram"`
	Bigram  float64 `json:"bigram"`
}

// baselines returns the unigram and bigram losses of ev's windows at L,
// counted on train.
func (ev *evaluation) baselines(train []int32) Baselines {
	const v = VocabSize
	uni := make([]float64, v)
	bi := make([]float64, v*v)
	for i, t := range train {
		uni[t]++
		if i > 0 {
			bi[int(train[i-1])*v+int(t)]++
		}
	}
	prev := make([]float64, v) // bigram counts by first token
	for a := range v {
		for b := range v {
			prev[a] += bi[a*v+b]
		}
	}
	var b Baselines
	n := 0
	batch := ev.windows.Batch(ev.valid, ev.c.TrainLen)
	for w, targets := range batch.Targets {
		for p, t := range targets {
			a := batch.Inputs[w][p]
			b.Unigram -= math.Log((uni[t] + 1) / (float64(len(train)) + v))
			b.Bigram -= math.Log((bi[int(a)*v+int(t)] + 1) / (prev[a] + v))
			n++
		}
	}
	b.Unigram, b.Bigram = round4(b.Unigram/float64(n)), round4(b.Bigram/float64(n))
	return b
}
