package exercises

import "fmt"

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
	x := tokens
	switch encoding {
	case "none", "rope", "alibi":
	case "sinusoidal":
		x = AddPositions(tokens, 0) // positions join the embeddings
	default:
		return nil, fmt.Errorf("unknown encoding %q: want none, sinusoidal, rope or alibi", encoding)
	}
	project := func(w [][]float64) [][]float64 {
		out := make([][]float64, len(x))
		for i, row := range x {
			out[i] = make([]float64, len(w[0]))
			for c, xc := range row {
				for j, wcj := range w[c] {
					out[i][j] += xc * wcj
				}
			}
		}
		return out
	}
	q, k, v := project(wq), project(wk), project(wv)
	switch encoding {
	case "rope": // queries and keys turn; values carry content only
		for i := range q {
			q[i], k[i] = RotateInterleaved(q[i], i, 10000), RotateInterleaved(k[i], i, 10000)
		}
	case "alibi":
		return BiasedAttention(q, k, v, ALiBiBias([]float64{0.5}, len(x), false)[0]), nil
	}
	return Attention(q, k, v), nil
}
