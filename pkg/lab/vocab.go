package lab

import (
	"strconv"
	"unicode/utf8"
)

// The vocabulary: one token per character of printable ASCII, tab and
// newline; one token for every other character; then NumKeys key tokens
// ⟨k0⟩…⟨k15⟩ for the recall task, which never occur in the text. A recall
// value is a lowercase letter (Symbols): an ordinary text token, so a
// model cannot find it by what it is, only by where it stands (right after
// its key).
const (
	// TokenOther stands for every character outside printable ASCII.
	TokenOther = 0
	numText    = 1 + 2 + 95 // other, tab, newline, ' '…'~'

	// TokenKey0 is the first of NumKeys key tokens.
	TokenKey0 = numText
	// NumKeys is how many distinct keys the recall task uses.
	NumKeys = 16

	// VocabSize is the number of distinct tokens.
	VocabSize = TokenKey0 + NumKeys
)

// Symbols are the values a recall pair can hold: the letters a–z, as text
// tokens. Chance is 1/len(Symbols).
var Symbols = func() []int32 {
	s := make([]int32, 0, 26)
	for r := 'a'; r <= 'z'; r++ {
		s = append(s, charToken(r))
	}
	return s
}()

// IsKey reports whether t is one of the recall task's key tokens.
func IsKey(t int32) bool { return t >= TokenKey0 && t < VocabSize }

// Encode returns the token of each character of text.
func Encode(text []byte) []int32 {
	tokens := make([]int32, 0, len(text))
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		text = text[size:]
		tokens = append(tokens, charToken(r))
	}
	return tokens
}

func charToken(r rune) int32 {
	switch {
	case r == '\t':
		return 1
	case r == '\n':
		return 2
	case r >= ' ' && r <= '~':
		return 3 + int32(r-' ')
	}
	return TokenOther
}

// Decode returns the text of tokens: "¤" for TokenOther and "⟨k7⟩" for a
// key.
func Decode(tokens []int32) string {
	var b []byte
	for _, t := range tokens {
		switch {
		case t == TokenOther:
			b = append(b, "¤"...)
		case t == 1:
			b = append(b, '\t')
		case t == 2:
			b = append(b, '\n')
		case t >= 3 && t < numText:
			b = append(b, byte(' '+t-3))
		case IsKey(t):
			b = append(b, "⟨k"...)
			b = strconv.AppendInt(b, int64(t-TokenKey0), 10)
			b = append(b, "⟩"...)
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}
