package bpe

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Tokenizer turns text into token ids and back.
type Tokenizer struct {
	tokens    []string          // id → token, in its byte-level spelling
	ids       map[string]int    // token → id
	ranks     map[[2]string]int // merge → its rank, the order it was learned in
	special   []specialToken    // matched in the raw text, never merged
	isSpecial []bool            // id → whether it is a special token

	mu    sync.Mutex
	cache map[string][]int // piece → its ids
}

type specialToken struct {
	text string
	id   int
}

// New returns the tokenizer with the given vocabulary (id → token, in the
// byte-level spelling: "Ġthe"), merges ("Ġ t", in order of rank: the first
// was learned first and is applied first) and special tokens (the ids of
// tokens such as "<|im_start|>", matched whole in the text).
func New(tokens, merges []string, special []int) (*Tokenizer, error) {
	t := &Tokenizer{
		tokens:    tokens,
		ids:       make(map[string]int, len(tokens)),
		ranks:     make(map[[2]string]int, len(merges)),
		isSpecial: make([]bool, len(tokens)),
		cache:     make(map[string][]int),
	}
	for id, tok := range tokens {
		if _, dup := t.ids[tok]; dup {
			return nil, fmt.Errorf("bpe: tokens: %q appears twice (ids %d and %d)", tok, t.ids[tok], id)
		}
		t.ids[tok] = id
	}
	for rank, m := range merges {
		left, right, ok := strings.Cut(m, " ")
		if !ok || left == "" || right == "" || strings.Contains(right, " ") {
			return nil, fmt.Errorf("bpe: merges[%d] = %q: want two symbols separated by one space", rank, m)
		}
		pair := [2]string{left, right}
		if _, dup := t.ranks[pair]; !dup {
			t.ranks[pair] = rank
		}
	}
	for _, id := range special {
		if id < 0 || id >= len(tokens) {
			return nil, fmt.Errorf("bpe: special id %d is outside the vocabulary of %d tokens", id, len(tokens))
		}
		t.special = append(t.special, specialToken{tokens[id], id})
		t.isSpecial[id] = true
	}
	return t, nil
}

// Len returns the size of the vocabulary.
func (t *Tokenizer) Len() int { return len(t.tokens) }

// Token returns the token of id in its byte-level spelling ("Ġthe").
func (t *Tokenizer) Token(id int) string { return t.tokens[id] }

// ID returns the id of a token in its byte-level spelling, or false.
func (t *Tokenizer) ID(token string) (int, bool) {
	id, ok := t.ids[token]
	return id, ok
}

// Encode returns the ids of text. Special tokens written in the text
// ("<|im_start|>user\n…") become their ids; nothing is added at the start
// or the end (SmolLM2 adds no BOS token).
func (t *Tokenizer) Encode(text string) []int {
	var ids []int
	var pieces []string
	t.splitSpecial(text,
		func(plain string) {
			pieces = pretokenize(pieces[:0], plain)
			for _, p := range pieces {
				ids = append(ids, t.encodePiece(p)...)
			}
		},
		func(id int) { ids = append(ids, id) })
	return ids
}

// encodePiece returns the ids of one pre-tokenized piece.
func (t *Tokenizer) encodePiece(piece string) []int {
	t.mu.Lock()
	ids, ok := t.cache[piece]
	t.mu.Unlock()
	if ok {
		return ids
	}
	// A byte whose symbol is not in the vocabulary is dropped before
	// merging, as Hugging Face's BPE does when the model has neither an
	// unknown token nor byte fallback (tokenizers, models/bpe/model.rs,
	// merge_word). SmolLM2's vocabulary lacks a few control bytes (0x04…).
	symbols := byteSymbols(piece)
	known := symbols[:0]
	for _, s := range symbols {
		if _, ok := t.ids[s]; ok {
			known = append(known, s)
		}
	}
	symbols = t.merge(known)
	ids = make([]int, len(symbols))
	for i, s := range symbols {
		ids[i] = t.ids[s] // every merge's result is a token of a trained vocabulary
	}
	t.mu.Lock()
	t.cache[piece] = ids
	t.mu.Unlock()
	return ids
}

// merge applies the merges to symbols: while some adjacent pair is a
// merge, the pair of lowest rank is joined, everywhere it occurs, from the
// left (GPT-2's bpe, src/encoder.py; Hugging Face's BPE gives the same).
func (t *Tokenizer) merge(symbols []string) []string {
	for len(symbols) > 1 {
		best, bestRank := [2]string{}, -1
		for i := 0; i+1 < len(symbols); i++ {
			pair := [2]string{symbols[i], symbols[i+1]}
			if r, ok := t.ranks[pair]; ok && (bestRank < 0 || r < bestRank) {
				best, bestRank = pair, r
			}
		}
		if bestRank < 0 {
			break
		}
		out := symbols[:0:0]
		for i := 0; i < len(symbols); i++ {
			if i+1 < len(symbols) && symbols[i] == best[0] && symbols[i+1] == best[1] {
				out = append(out, best[0]+best[1])
				i++
				continue
			}
			out = append(out, symbols[i])
		}
		symbols = out
	}
	return symbols
}

// Decode returns the text of ids: special tokens as written, the others'
// bytes put back. Bytes that are not valid UTF-8 (ids cut in the middle of
// a character) become U+FFFD, as in Hugging Face's ByteLevel decoder.
func (t *Tokenizer) Decode(ids []int) (string, error) {
	var b []byte
	for i, id := range ids {
		if id < 0 || id >= len(t.tokens) {
			return "", fmt.Errorf("bpe: ids[%d] = %d is outside the vocabulary of %d tokens", i, id, len(t.tokens))
		}
		if t.isSpecial[id] {
			b = append(b, t.tokens[id]...)
			continue
		}
		for _, r := range t.tokens[id] {
			c, ok := runeByte[r]
			if !ok {
				return "", fmt.Errorf("bpe: token %d (%q) has %q, which stands for no byte", id, t.tokens[id], r)
			}
			b = append(b, c)
		}
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}
