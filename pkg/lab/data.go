package lab

import (
	"fmt"
	"math/rand/v2"
)

// Text is the tokenised corpus, split once and for all into training and
// validation text.
type Text struct {
	Train, Valid []int32
}

// splitBlock is the size of the blocks the corpus is split into: every
// tenth block is validation text, so both parts sample every document.
const splitBlock = 4096

// LoadText tokenises CorpusText and splits it: blocks of splitBlock
// characters, every tenth (the 10th, 20th, …) for validation, the rest for
// training. The split is fixed, so no run ever validates on text it
// trained on except across the few block boundaries.
func LoadText() Text {
	tokens := Encode(CorpusText())
	var t Text
	for i := 0; i < len(tokens); i += splitBlock {
		block := tokens[i:min(i+splitBlock, len(tokens))]
		if (i/splitBlock)%10 == 9 {
			t.Valid = append(t.Valid, block...)
		} else {
			t.Train = append(t.Train, block...)
		}
	}
	return t
}

// Batch is a batch of sequences: Inputs[b] are seqLen tokens, Targets[b]
// the seqLen tokens that follow each of them, and Weights[b] how much each
// target counts in the training loss (0: not at all, for the targets no
// model can predict, such as a random key).
type Batch struct {
	Inputs, Targets [][]int32
	Weights         [][]float32
}

func (b *Batch) add(o Batch) {
	b.Inputs = append(b.Inputs, o.Inputs...)
	b.Targets = append(b.Targets, o.Targets...)
	b.Weights = append(b.Weights, o.Weights...)
}

// ones returns n weights of 1.
func ones(n int) []float32 {
	w := make([]float32, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// SampleLM fills a batch with windows of seqLen+1 tokens drawn at random
// positions of tokens, every target weighing 1.
func SampleLM(rng *rand.Rand, tokens []int32, batch, seqLen int) Batch {
	var b Batch
	for range batch {
		start := rng.IntN(len(tokens) - seqLen)
		b.Inputs = append(b.Inputs, tokens[start:start+seqLen])
		b.Targets = append(b.Targets, tokens[start+1:start+seqLen+1])
		b.Weights = append(b.Weights, ones(seqLen))
	}
	return b
}

// Windows are evaluation windows that end on the same targets whatever
// their length: the window of n tokens for anchor e holds tokens e−n …
// e−1 and predicts e−n+1 … e. Comparing lengths on the last L targets of
// each window compares the same characters, predicted with more or less
// context, rather than different text.
type Windows struct {
	Ends []int // each window's last target, an index into the text
}

// NewWindows returns count windows of the text tokens, evenly spaced, with
// room for windows of up to longest tokens.
func NewWindows(tokens []int32, count, longest int) (Windows, error) {
	span := len(tokens) - 1 - longest
	if count < 1 || span < 0 {
		return Windows{}, fmt.Errorf("lab: %d windows of up to %d tokens do not fit in %d tokens of text", count, longest, len(tokens))
	}
	w := Windows{Ends: make([]int, count)}
	for i := range count {
		w.Ends[i] = longest + i*span/max(count-1, 1)
	}
	return w, nil
}

// Batch returns the windows of n tokens of tokens.
func (w Windows) Batch(tokens []int32, n int) Batch {
	var b Batch
	for _, e := range w.Ends {
		b.Inputs = append(b.Inputs, tokens[e-n:e])
		b.Targets = append(b.Targets, tokens[e-n+1:e+1])
		b.Weights = append(b.Weights, ones(n))
	}
	return b
}
