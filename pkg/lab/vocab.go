package lab

import (
	"strconv"
	"unicode/utf8"
)

// The vocabulary: one token per character of printable ASCII, tab and
// newline; one token for every other character; then the passkey task's
// markers and values, which never occur in the text.
const (
	// TokenOther stands for every character outside printable ASCII.
	TokenOther = 0
	numText    = 1 + 2 + 95 // other, tab, newline, ' '…'~'

	// TokenKey precedes the passkey's value; TokenQuery asks for it.
	TokenKey   = numText
	TokenQuery = numText + 1
	// TokenValue0 is the first of NumValues value tokens.
	TokenValue0 = numText + 2
	// NumValues is how many values a passkey can take: chance is 1/NumValues.
	NumValues = 16

	// VocabSize is the number of distinct tokens.
	VocabSize = TokenValue0 + NumValues
)

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

// Decode returns the text of tokens: "¤" for TokenOther, "⟨key⟩",
// "⟨query⟩" and "⟨v7⟩" for the passkey tokens.
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
		case t == TokenKey:
			b = append(b, "⟨key⟩"...)
		case t == TokenQuery:
			b = append(b, "⟨query⟩"...)
		case t >= TokenValue0 && t < VocabSize:
			b = append(b, "⟨v"...)
			b = strconv.AppendInt(b, int64(t-TokenValue0), 10)
			b = append(b, "⟩"...)
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}
