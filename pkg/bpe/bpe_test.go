package bpe

import (
	"slices"
	"strings"
	"testing"
)

// byteVocab returns the 256 byte symbols followed by extra tokens.
func byteVocab(extra ...string) []string {
	tokens := make([]string, 0, 256+len(extra))
	for _, r := range byteRune {
		tokens = append(tokens, string(r))
	}
	return append(tokens, extra...)
}

// A tiny vocabulary whose merges are worked out by hand.
func TestMergeOrder(t *testing.T) {
	tokens := byteVocab("aa", "ab", "aab", "Ġa", "<s>")
	id := func(s string) int { return slices.Index(tokens, s) }
	// "a b" is learned before "a a", so "aab" starts a·(ab), not (aa)·b,
	// and "aa ab" is never reached; "a a" then joins from the left.
	tok, err := New(tokens, []string{"a b", "a a", "aa b", "Ġ a"}, []int{id("<s>")})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text string
		want []int
	}{
		{"aab", []int{id("a"), id("ab")}},
		{"aaa", []int{id("aa"), id("a")}},
		{"aaaa", []int{id("aa"), id("aa")}},
		{" a", []int{id("Ġa")}},
		{"a<s>a", []int{id("a"), id("<s>"), id("a")}},
		{"c", []int{id("c")}},
	}
	for _, c := range cases {
		if got := tok.Encode(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// A byte without a token is dropped before merging, so its neighbours can
// merge across it, as in Hugging Face's BPE without an unknown token.
func TestUnknownByteDropped(t *testing.T) {
	tokens := byteVocab("!?")
	tokens[0x04] = "<no byte 4>" // SmolLM2's vocabulary lacks byte 0x04 too
	tok, err := New(tokens, []string{"! ?"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// "!\x04?" is one piece (punctuation and a control byte are both
	// [^\s\p{L}\p{N}]); without its middle byte it merges whole.
	if got, want := tok.Encode("!\x04?"), []int{256}; !slices.Equal(got, want) {
		t.Errorf("Encode(%q) = %v, want %v (\"!?\")", "!\x04?", got, want)
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name           string
		tokens, merges []string
		special        []int
		wantInMessage  string
	}{
		{"duplicate", byteVocab("ab", "ab"), nil, nil, `"ab" appears twice`},
		{"bad merge", byteVocab(), []string{"ab"}, nil, `merges[0] = "ab"`},
		{"special out of range", byteVocab(), nil, []int{300}, "special id 300"},
	}
	for _, c := range cases {
		_, err := New(c.tokens, c.merges, c.special)
		if err == nil || !strings.Contains(err.Error(), c.wantInMessage) {
			t.Errorf("%s: New error %v, want one mentioning %q", c.name, err, c.wantInMessage)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tok, err := New(byteVocab(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tok.Decode([]int{1, 256}); err == nil || !strings.Contains(err.Error(), "ids[1] = 256") {
		t.Errorf("Decode of an id outside the vocabulary: error %v, want one naming ids[1] = 256", err)
	}
	// The first byte of "é" (0xc3 0xa9) alone (byteVocab's ids are the
	// bytes): U+FFFD, as Hugging Face's ByteLevel decoder gives.
	if s, err := tok.Decode([]int{0xc3}); err != nil || s != "\uFFFD" {
		t.Errorf("Decode of half a character = %q, %v; want U+FFFD", s, err)
	}
}
