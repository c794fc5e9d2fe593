package bpe

import (
	"slices"
	"testing"
)

// Pieces worked out by hand from SmolLM2's two pre-tokenization steps
// (digits alone, then GPT-2's pattern; see pretokenize.go). The golden test
// checks the same rules against Hugging Face's tokenizers on many more.
func TestPretokenize(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Hello world", []string{"Hello", " world"}},
		{" Hello", []string{" Hello"}},
		{"12345", []string{"1", "2", "3", "4", "5"}},
		{"x  1", []string{"x", "  ", "1"}},         // the run ends its piece, so stays whole
		{"x   y", []string{"x", "  ", " y"}},       // the last space goes with the word
		{"x \ty", []string{"x", " ", "\t", "y"}},   // only a plain space joins a word
		{"a\t\tb", []string{"a", "\t", "\t", "b"}}, // \s+(?!\S), then \s+
		{"trailing  ", []string{"trailing", "  "}},
		{"it's", []string{"it", "'s"}},
		{"they'll've", []string{"they", "'ll", "'ve"}},
		{"IT'S", []string{"IT", "'", "S"}}, // contractions are lower case only
		{"!'s", []string{"!'", "s"}},       // punctuation runs take the apostrophe
		{"a ...b", []string{"a", " ...", "b"}},
		{"x\u00a0y", []string{"x", "\u00a0", "y"}}, // NBSP is \s but not the joining space
		{"٣4½", []string{"٣", "4", "½"}},           // every \p{N}, not only ASCII digits
		{"日本語です", []string{"日本語です"}},
		{"e\u0301", []string{"e", "\u0301"}}, // a combining mark is \p{M}: other
		{"a\n\nb", []string{"a", "\n", "\n", "b"}},
	}
	for _, c := range cases {
		if got := pretokenize(nil, c.text); !slices.Equal(got, c.want) {
			t.Errorf("pretokenize(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestByteSymbols(t *testing.T) {
	for _, c := range []struct {
		b    byte
		want rune
	}{{' ', 'Ġ'}, {'\n', 'Ċ'}, {'\t', 'ĉ'}, {'!', '!'}, {'~', '~'}, {0x00, 'Ā'}, {0x7f, 'ġ'}, {0xa0, 'ł'}, {0xad, 'Ń'}, {0xe9, 'é'}} {
		if got := byteRune[c.b]; got != c.want {
			t.Errorf("byte 0x%02x stands for %q, want %q", c.b, got, c.want)
		}
	}
	if len(runeByte) != 256 {
		t.Errorf("%d characters stand for bytes, want 256 distinct ones", len(runeByte))
	}
}
