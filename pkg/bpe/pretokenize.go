package bpe

import (
	"unicode"
	"unicode/utf8"
)

// Pre-tokenization cuts the text into pieces that merges never cross.
// SmolLM2's tokenizer.json declares two steps, in this order:
//
//	Digits(individual_digits=true)      every \p{N} character alone
//	ByteLevel(use_regex=true)           GPT-2's pattern, below
//
// llama.cpp's "smollm" pre-tokenizer is the same (src/llama-vocab.cpp,
// LLAMA_VOCAB_PRE_TYPE_SMOLLM: "\p{N}", then GPT-2's pattern). GPT-2's
// pattern, as Hugging Face's ByteLevel writes it, is
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// Go's regexp has no look-ahead, so gpt2Pieces follows the alternatives by
// hand. The digit step matters where it moves a whitespace run's end:
// "x  1" is x, "  ", 1 (the run ends the piece, so it stays whole), not
// x, " ", " 1".

// pretokenize appends to dst the pieces of text, which holds no special
// token.
func pretokenize(dst []string, text string) []string {
	start := 0
	for i, r := range text {
		if unicode.IsNumber(r) {
			dst = gpt2Pieces(dst, text[start:i])
			size := utf8.RuneLen(r)
			dst = append(dst, text[i:i+size])
			start = i + size
		}
	}
	return gpt2Pieces(dst, text[start:])
}

// class is how GPT-2's pattern sees a character.
type class int

const (
	space  class = iota // \s
	letter              // \p{L}
	number              // \p{N}
	other               // [^\s\p{L}\p{N}]
)

func classOf(r rune) class {
	switch {
	case unicode.IsSpace(r): // Unicode White_Space, as \s
		return space
	case unicode.IsLetter(r):
		return letter
	case unicode.IsNumber(r):
		return number
	}
	return other
}

// contractions are the pattern's first alternatives, tried in order.
var contractions = []string{"s", "t", "re", "ve", "m", "ll", "d"}

// gpt2Pieces appends to dst the pieces of s under GPT-2's pattern: at each
// position the first alternative that matches, as long as it goes.
func gpt2Pieces(dst []string, s string) []string {
	for i := 0; i < len(s); {
		n := gpt2Match(s[i:])
		dst = append(dst, s[i:i+n])
		i += n
	}
	return dst
}

// gpt2Match returns the length in bytes of the pattern's match at the
// start of s (never 0 for a non-empty s: every character is matched by
// one alternative).
func gpt2Match(s string) int {
	r, size := utf8.DecodeRuneInString(s)
	if r == '\'' {
		for _, c := range contractions {
			if len(s) > len(c) && s[1:1+len(c)] == c {
				return 1 + len(c)
			}
		}
	}
	// " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": one optional plain
	// space, then a run of one class.
	if r == ' ' && len(s) > 1 {
		next, _ := utf8.DecodeRuneInString(s[1:])
		if c := classOf(next); c != space {
			return 1 + runOf(s[1:], c)
		}
	}
	if c := classOf(r); c != space {
		return runOf(s, c)
	}
	// "\s+(?!\S)": the whitespace run, less its last character when a
	// non-space follows; "\s+": a single space before a non-space.
	run := runOf(s, space)
	if run == len(s) {
		return run
	}
	_, lastSize := utf8.DecodeLastRuneInString(s[:run])
	if run > lastSize {
		return run - lastSize
	}
	return size
}

// runOf returns the length in bytes of the run of characters of class c at
// the start of s.
func runOf(s string, c class) int {
	for i, r := range s {
		if classOf(r) != c {
			return i
		}
	}
	return len(s)
}
