package bpe

import "strings"

// splitSpecial cuts text at the special tokens it contains, leftmost first
// and, where two start at the same place, the longer, as Hugging Face's
// added vocabulary matches them. It calls plain for each stretch between
// them and special for each token's id.
func (t *Tokenizer) splitSpecial(text string, plain func(string), special func(int)) {
	for len(text) > 0 {
		at, id, length := -1, 0, 0
		for _, s := range t.special {
			i := strings.Index(text, s.text)
			if i < 0 {
				continue
			}
			if at < 0 || i < at || (i == at && len(s.text) > length) {
				at, id, length = i, s.id, len(s.text)
			}
		}
		if at < 0 {
			plain(text)
			return
		}
		if at > 0 {
			plain(text[:at])
		}
		special(id)
		text = text[at+length:]
	}
}
