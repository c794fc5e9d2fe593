package bpe

import (
	"fmt"

	"github.com/posenc/course/pkg/gguf"
)

// controlToken is llama.cpp's token type of special tokens
// (LLAMA_TOKEN_TYPE_CONTROL in gguf-py's constants.py: TokenType.CONTROL).
const controlToken = 3

// FromGGUF returns the tokenizer stored in a GGUF file: tokenizer.ggml.tokens,
// tokenizer.ggml.merges, and as special tokens those whose
// tokenizer.ggml.token_type is control. It accepts only the byte-level BPE
// with the pre-tokenizer this package implements (tokenizer.ggml.model
// "gpt2", tokenizer.ggml.pre "smollm" or "starcoder", which split digits
// the same way); another would tokenize differently, silently.
func FromGGUF(f *gguf.File) (*Tokenizer, error) {
	model, err := f.String("tokenizer.ggml.model")
	if err != nil {
		return nil, err
	}
	if model != "gpt2" {
		return nil, fmt.Errorf("bpe: tokenizer.ggml.model is %q; this package reads byte-level BPE (\"gpt2\")", model)
	}
	pre, err := f.String("tokenizer.ggml.pre")
	if err != nil {
		return nil, err
	}
	if pre != "smollm" && pre != "starcoder" {
		return nil, fmt.Errorf("bpe: tokenizer.ggml.pre is %q; this package implements \"smollm\" (digits apart, then GPT-2's pattern)", pre)
	}
	tokens, err := f.Strings("tokenizer.ggml.tokens")
	if err != nil {
		return nil, err
	}
	merges, err := f.Strings("tokenizer.ggml.merges")
	if err != nil {
		return nil, err
	}
	types, ok := f.Metadata["tokenizer.ggml.token_type"].([]int32)
	if !ok || len(types) != len(tokens) {
		return nil, fmt.Errorf("bpe: tokenizer.ggml.token_type is %T with %d entries; want []int32, one per token (%d)",
			f.Metadata["tokenizer.ggml.token_type"], len(types), len(tokens))
	}
	var special []int
	for id, typ := range types {
		if typ == controlToken {
			special = append(special, id)
		}
	}
	return New(tokens, merges, special)
}
