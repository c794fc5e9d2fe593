package smollm

import (
	"github.com/posenc/course/pkg/bpe"
	"github.com/posenc/course/pkg/gguf"
)

// LoadTokenizer returns SmolLM2's byte-level BPE tokenizer (pkg/bpe), read
// from the GGUF file at path: its tokens, merges and special tokens.
func LoadTokenizer(path string) (Tokenizer, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := bpe.FromGGUF(f)
	if err != nil {
		return nil, err
	}
	return bpeTokenizer{t}, nil
}

// bpeTokenizer gives bpe.Tokenizer the model's int32 ids.
type bpeTokenizer struct{ t *bpe.Tokenizer }

func (b bpeTokenizer) Encode(text string) ([]int32, error) {
	ids := b.t.Encode(text)
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out, nil
}

func (b bpeTokenizer) Decode(ids []int32) (string, error) {
	in := make([]int, len(ids))
	for i, id := range ids {
		in[i] = int(id)
	}
	return b.t.Decode(in)
}
