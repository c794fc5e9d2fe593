package exercises

// SentenceAttention returns one head of self-attention over a sentence, with
// word positions encoded as encoding says. Row i of tokens is the embedding
// of the word at position i (n×d, d even); wq, wk and wv are d×d projections
// applied on the right: the query of word i is tokens[i]·wq, that is
// Σ_c tokens[i][c]·wq[c][j] for its entry j, and likewise the key (wk) and
// the value (wv). The encodings are
//
//	"none"        no positions at all (exercise 1)
//	"sinusoidal"  the paper's sinusoidal encoding, added to the embeddings as
//	              exercise 4 adds it
//	"rope"        RoPE at base 10000, interleaved (exercise 7)
//	"alibi"       the symmetric ALiBi bias of a single head of slope 1/2
//	              (exercises 12 and 20)
//
// each applied where its family applies it. The result is the n×d output of
// the head. Any other encoding is an error: a nil result and an error that
// names it. The arguments are left unchanged.
//
// Read lesson 7, “The five families side by side”. Hints: exercises/README.md.
func SentenceAttention(tokens, wq, wk, wv [][]float64, encoding string) ([][]float64, error) {
	// TODO
	panic("not implemented yet: open exercises/21_sentence_attention.go")
}
