package lab

import "math/rand/v2"

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
// training. Blocks are long next to the longest window evaluated (8L = 512
// by default), and the split is fixed, so no run ever validates on text it
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
