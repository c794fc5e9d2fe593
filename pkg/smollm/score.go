package smollm

import "fmt"

// Tokenizer turns text into the model's token ids and back. SmolLM2's is a
// byte-level BPE whose vocabulary and merges the GGUF file holds
// (tokenizer.ggml.tokens, tokenizer.ggml.merges).
type Tokenizer interface {
	Encode(text string) ([]int32, error)
	Decode(ids []int32) (string, error)
}

// Special token ids of SmolLM2 (tokenizer.ggml.*_token_id and its chat
// template).
const (
	EndOfText = 0 // <|endoftext|>
	ImStart   = 1 // <|im_start|>, also the BOS id
	ImEnd     = 2 // <|im_end|>, the EOS id
)

// Score returns −log p(ids[i+1] | ids[0…i]) for i = 0 … len(ids)−2, in
// nats, running ids at positions 0 … len(ids)−1 in chunks.
func (m *Model) Score(ids []int32) ([]float32, error) {
	n := len(ids)
	if n < 2 {
		return nil, fmt.Errorf("smollm: scoring needs at least 2 tokens, got %d", n)
	}
	cache, err := m.NewCache(n)
	if err != nil {
		return nil, err
	}
	defer cache.Free()
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	targets := append(append(make([]int32, 0, n), ids[1:]...), -1)
	_, nll, err := m.Forward(cache, ids, pos, nil, targets)
	if err != nil {
		return nil, err
	}
	return nll[:n-1], nil
}

// Generate continues prompt greedily (the most likely token each time) for
// up to maxNew tokens, stopping after a token of stop. It prefills the
// prompt in chunks, then decodes one token per call with the cache.
func (m *Model) Generate(prompt []int32, maxNew int, stop ...int32) ([]int32, error) {
	if len(prompt) == 0 || maxNew < 1 {
		return nil, fmt.Errorf("smollm: generate needs a prompt and at least one new token, got %d and %d", len(prompt), maxNew)
	}
	cache, err := m.NewCache(len(prompt) + maxNew)
	if err != nil {
		return nil, err
	}
	defer cache.Free()
	pos := make([]int32, len(prompt))
	for i := range pos {
		pos[i] = int32(i)
	}
	logits, _, err := m.Forward(cache, prompt, pos, []int{len(prompt) - 1}, nil)
	if err != nil {
		return nil, err
	}
	var out []int32
	for {
		next := int32(Argmax(logits[0]))
		out = append(out, next)
		if len(out) == maxNew || containsID(stop, next) {
			return out, nil
		}
		p := int32(cache.Len)
		if logits, _, err = m.Forward(cache, []int32{next}, []int32{p}, []int{0}, nil); err != nil {
			return nil, err
		}
	}
}

// Argmax returns the index of the largest of v (the first, on ties): the
// greedy choice of next token from a row of logits.
func Argmax(v []float32) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

func containsID(ids []int32, id int32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// ChatPrompt is SmolLM2-Instruct's chat template (tokenizer.chat_template)
// for one user message, ready for the assistant's answer, with its default
// system message.
func ChatPrompt(user string) string {
	return "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n" +
		"<|im_start|>user\n" + user + "<|im_end|>\n<|im_start|>assistant\n"
}
