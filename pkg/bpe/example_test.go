package bpe_test

import (
	"fmt"

	"github.com/posenc/course/pkg/bpe"
)

// A byte-level vocabulary: the 256 byte symbols first, then the tokens the
// merges make, in the order they were learned.
func Example() {
	var tokens []string
	for b := 0; b < 256; b++ {
		tokens = append(tokens, bpe.ByteSymbol(byte(b)))
	}
	tokens = append(tokens, "lo", "Ġlo", "Ġlow", "<|end|>")
	merges := []string{"l o", "Ġ lo", "Ġlo w"}
	tok, err := bpe.New(tokens, merges, []int{len(tokens) - 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	ids := tok.Encode("low lower<|end|>")
	for _, id := range ids {
		fmt.Printf("%s ", tok.Token(id))
	}
	text, _ := tok.Decode(ids)
	fmt.Printf("→ %q\n", text)
	// Output: lo w Ġlow e r <|end|> → "low lower<|end|>"
}
