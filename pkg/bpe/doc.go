// Package bpe is byte-level byte-pair encoding, the tokenizer of GPT-2 and
// of SmolLM2 (Radford et al. 2019, "Language Models are Unsupervised
// Multitask Learners", §2.2; Sennrich et al. 2016, "Neural Machine
// Translation of Rare Words with Subword Units").
//
// Encoding a text takes four steps, each in its own file:
//
//  1. Special tokens (<|im_start|>, <|endoftext|>, …) are found in the raw
//     text and kept whole (special.go).
//  2. The rest is pre-tokenized: every digit becomes a piece of its own,
//     then GPT-2's rule cuts words, numbers, punctuation runs and
//     whitespace apart, a word keeping the one space before it
//     (pretokenize.go).
//  3. Each piece's UTF-8 bytes are written as printable characters, one
//     per byte (bytelevel.go), so a space shows as Ġ and a newline as Ċ.
//  4. The merges, learned when the tokenizer was trained, are applied in
//     their order of rank, and the symbols left are looked up in the
//     vocabulary (bpe.go).
//
// FromGGUF builds SmolLM2's tokenizer from the tokens, merges and token
// types stored in its GGUF file. The ids agree token for token with
// Hugging Face's tokenizers library on SmolLM2's configuration (see
// bpe_test.go and scripts/model/golden_tokens.py).
package bpe
