package lab

import "math/rand/v2"

// Text is the tokenised corpus, split once and for all: each document's
// first 90% for training, the rest for validation.
type Text struct {
	Train, Valid []int32
}

// LoadText tokenises CorpusText and splits it. The split is by position in
// the text, not random, so that no validation window overlaps a training
// one.
func LoadText() Text {
	tokens := Encode(CorpusText())
	cut := len(tokens) * 9 / 10
	return Text{Train: tokens[:cut], Valid: tokens[cut:]}
}

// Batch is one training batch: Inputs[b] are seqLen tokens and Targets[b]
// the seqLen tokens that follow each of them.
type Batch struct {
	Inputs, Targets [][]int32
}

// SampleLM fills a batch with windows of seqLen+1 tokens drawn at random
// positions of tokens.
func SampleLM(rng *rand.Rand, tokens []int32, batch, seqLen int) Batch {
	var b Batch
	for range batch {
		start := rng.IntN(len(tokens) - seqLen)
		b.Inputs = append(b.Inputs, tokens[start:start+seqLen])
		b.Targets = append(b.Targets, tokens[start+1:start+seqLen+1])
	}
	return b
}

// ValidWindows returns n windows of seqLen+1 tokens of the validation text,
// evenly spaced (they overlap when the text is too short for n disjoint
// ones), as inputs and targets. The same n and seqLen always give the same
// windows.
func ValidWindows(tokens []int32, n, seqLen int) Batch {
	var b Batch
	span := len(tokens) - seqLen - 1
	for i := range n {
		start := i * span / max(n-1, 1)
		b.Inputs = append(b.Inputs, tokens[start:start+seqLen])
		b.Targets = append(b.Targets, tokens[start+1:start+seqLen+1])
	}
	return b
}
