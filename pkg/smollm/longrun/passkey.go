package longrun

import (
	"fmt"
	"math/rand/v2"

	"github.com/posenc/course/pkg/smollm"
)

// The passkey prompt of Mohtashami and Jaggi 2023 ("Landmark Attention",
// https://arxiv.org/abs/2305.16300, Appendix), which the YaRN and PI
// papers' passkey tests use: an instruction, a filler sentence repeated,
// the key stated once at a depth of the filler, and a question. Each part
// but the first starts with a space, so that it tokenizes the same alone
// as inside the prompt (TestPasskeyTokensAreThePrompts).
const (
	PasskeyIntro    = "There is an important info hidden inside a lot of irrelevant text. Find it and memorize it. I will quiz you about the important information there."
	PasskeyFiller   = " The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again."
	PasskeyNeedle   = " The pass key is %d. Remember it. %d is the pass key."
	PasskeyQuestion = " What is the pass key? The pass key is"
	PasskeyAnswer   = " %d"
)

// Tokenizer is what the passkey prompt needs of pkg/bpe.
type Tokenizer interface {
	Encode(text string) []int
}

// PasskeyPrompt is one trial's prompt: the tokens, the answer at the end,
// and where the key was put.
type PasskeyPrompt struct {
	Key       int     // five digits
	IDs       []int32 // prompt then answer
	Answer    int     // the answer's first index in IDs
	NeedleAt  int     // the needle's first index in IDs
	FillerN   int     // filler sentences in all
	Text      string  // the prompt and answer as text
	Length    int     // the asked length: len(IDs) ≤ Length
	Depth     float64 // the fraction of the filler before the needle
	TrialSeed uint64  // the seed of the key
}

// NewPasskeyPrompt builds the prompt of at most length tokens (answer
// included) with the key at depth, its key drawn from seed.
func NewPasskeyPrompt(tok Tokenizer, length int, depth float64, seed uint64) (PasskeyPrompt, error) {
	key := 10000 + rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)).IntN(90000)
	intro, filler := tok.Encode(PasskeyIntro), tok.Encode(PasskeyFiller)
	needle := tok.Encode(fmt.Sprintf(PasskeyNeedle, key, key))
	question, answer := tok.Encode(PasskeyQuestion), tok.Encode(fmt.Sprintf(PasskeyAnswer, key))
	fixed := len(intro) + len(needle) + len(question) + len(answer)
	n := (length - fixed) / len(filler)
	if n < 1 {
		return PasskeyPrompt{}, fmt.Errorf("longrun: passkey length %d leaves no room for filler (%d tokens are fixed)", length, fixed)
	}
	before := int(depth*float64(n) + 0.5)
	p := PasskeyPrompt{Key: key, FillerN: n, Length: length, Depth: depth, TrialSeed: seed}
	add := func(ids []int) {
		for _, id := range ids {
			p.IDs = append(p.IDs, int32(id))
		}
	}
	text := PasskeyIntro
	add(intro)
	for i := range n {
		if i == before {
			p.NeedleAt = len(p.IDs)
			add(needle)
			text += fmt.Sprintf(PasskeyNeedle, key, key)
		}
		add(filler)
		text += PasskeyFiller
	}
	if before == n {
		p.NeedleAt = len(p.IDs)
		add(needle)
		text += fmt.Sprintf(PasskeyNeedle, key, key)
	}
	add(question)
	p.Answer = len(p.IDs)
	add(answer)
	p.Text = text + PasskeyQuestion + fmt.Sprintf(PasskeyAnswer, key)
	return p, nil
}

// PasskeyOutcome is how one trial went.
type PasskeyOutcome struct {
	Pass bool // greedy decoding returns every answer token
	// Correct counts the answer tokens whose argmax is right, given the
	// right ones before (teacher forcing).
	Correct int
	Tokens  int     // answer tokens
	NLL     float64 // −log p(answer), nats over all answer tokens
	Greedy  []int   // the argmax at each answer position
}

// ScorePasskey runs the prompt and scores the answer by teacher forcing:
// greedy decoding returns the key exactly when the argmax at every answer
// position is the key's token, given the right ones before it, so one
// forward pass decides what generation would.
func ScorePasskey(e Engine, p PasskeyPrompt, m Method) (PasskeyOutcome, error) {
	var rows []int
	for i := p.Answer - 1; i < len(p.IDs)-1; i++ {
		rows = append(rows, i)
	}
	logits, err := e.Logits(p.IDs, rows, m.Scaling)
	if err != nil {
		return PasskeyOutcome{}, err
	}
	o := PasskeyOutcome{Tokens: len(rows)}
	for j, row := range rows {
		want := int(p.IDs[row+1])
		got := smollm.Argmax(logits[j])
		o.Greedy = append(o.Greedy, got)
		if got == want {
			o.Correct++
		}
		o.NLL -= smollm.LogProb(logits[j], want)
	}
	o.Pass = o.Correct == o.Tokens
	return o, nil
}
