package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/posenc/course/internal/catalog"
	"github.com/posenc/course/pkg/posenc"
)

func init() {
	registerExercise(Entry{
		Exercise: catalog.Exercise{Num: 21, Slug: "sentence_attention", Title: "Attention over a sentence, with the encoding of your choice", Test: "TestSentenceAttention",
			Funcs: []string{"SentenceAttention"}, Lesson: 7, Section: "The five families side by side",
			Difficulty: catalog.Advanced, Uses: []int{1, 4, 7, 12, 20}},
		Blurb: "one head over \"the dog bites the man\" with no positions, sinusoidal, RoPE or ALiBi, built from your " +
			"earlier exercises.",
		Hints: Hints{
			Read: []Section{secFamilies, secAddConcat},
			Idea: []string{
				"The families differ only in where position enters one attention head: added to the embeddings " +
					"(sinusoidal), turning the queries and keys (RoPE), or biasing the scores (ALiBi). Put your " +
					"exercises 1, 4, 7, 12 and 20 together.",
			},
			Formula: []string{
				"- Project first: q_i = tokens[i]·wq (entry j = Σ_c tokens[i][c]·wq[c][j]), and likewise k and " +
					"v.",
				"- \"sinusoidal\": project tokens·√d + PE instead of tokens. \"rope\": turn q_i and k_i (not v_i) to " +
					"position i. \"alibi\": the symmetric bias −|i − j|/2 on the scores. \"none\": plain attention. Any " +
					"other name is an error.",
				"- Without positions the two \"the\" of \"the dog bites the man\" get the same output; with any " +
					"encoding they do not.",
			},
			Code: []string{
				"- `AddPositions(tokens, 0)`; `RotateInterleaved(q[i], i, 10000)`; `BiasedAttention(q, k, v, " +
					"ALiBiBias([]float64{0.5}, n, false)[0])`; `Attention(q, k, v)`.",
				"- `return nil, fmt.Errorf(\"unknown encoding %q …\", encoding)`.",
			},
		},
		Cases:  sentenceCases(),
		Checks: func(cases any) *Exercise { return SentenceAttention(nil, cases.(SentenceCases)) },
	})
}

var (
	hintSentencePEAfter = newHint("sentence/positions after the projections", secFamilies,
		"sinusoidal positions are added to the embeddings, tokens·√d + PE, before the projections: the queries, keys "+
			"and values are computed from the sum")
	hintSentencePENoScale = newHint("sentence/embeddings not scaled", secScaling,
		"the embeddings are scaled by √d before the positions are added, as in exercise 4: tokens·√d + PE")
	hintSentenceRotateV = newHint("sentence/values rotated", secFamilies,
		"RoPE rotates the queries and the keys only: the values carry content, not position, and are not rotated")
	hintSentenceRotateX = newHint("sentence/rotated before projecting", secFamilies,
		"RoPE rotates the projected query and key, q_i = tokens[i]·wq, not the embedding before the projection")
	hintSentenceRoPELayout = newHint("sentence/rope layout", secRoPELayouts,
		"this exercise rotates in the interleaved layout, pairs (x[2i], x[2i+1]), as exercise 7 does")
	hintSentenceCausal = newHint("sentence/causal bias", secFamilies,
		"the sentence is read in both directions: use the symmetric ALiBi bias (causal false), −|i − j|/2")
	hintSentenceSlope = newHint("sentence/slope", secSlopes,
		"the one head here has slope 1/2 (the first of 8 heads), so the bias is −|i − j|/2; ALiBiSlopes(1) would give "+
			"1/256")
	hintSentenceProjection = newHint("sentence/projection side", secFamilies,
		"the projections apply on the right: the query of word i is tokens[i]·wq, entry j = Σ_c tokens[i][c]·wq[c][j]; "+
			"you computed wq·tokens[i]")
	hintSentenceUnknown = newHint("sentence/unknown encoding", secFamilies,
		"an encoding that is none of \"none\", \"sinusoidal\", \"rope\" and \"alibi\" is an error: return a nil result "+
			"and an error that names the encoding you were given")
	hintSentenceSameWords = newHint("sentence/same word, same output", secAddConcat,
		"without positions, attention cannot tell the two “the” apart: same embedding, same query, same output. "+
			"Your \"none\" must add nothing that depends on the position")
	hintSentenceMutates = newHint("sentence/mutates input", Section{},
		"your function changed tokens or a weight matrix (scaled the embeddings by √d in place, for "+
			"\"sinusoidal\"?): compute into new slices, so that the next call sees the sentence as it was")
	hintSentenceFallback = generic("sentence/fallback", secFamilies,
		"project the tokens (tokens·wq, tokens·wk, tokens·wv), then apply the encoding where it belongs: sinusoidal "+
			"before the projections, RoPE on q and k, ALiBi on the scores")
)

// sentenceOpts selects known wrong variants of refSentence.
type sentenceOpts struct {
	peAfter, peAfterQK, peNoScale  bool
	rotateV, rotateX, halves       bool
	causal, slope256, leftMultiply bool
	unitFreq                       bool                // RoPE with θ_i = 1: 2i/d in integers
	scale                          func(d int) float64 // divides the scores; √d when nil
}

// refSentence is the reference: exercises 1, 4, 7, 12 and 20 put together.
func refSentence(tokens, wq, wk, wv [][]float64, enc string, o sentenceOpts) [][]float64 {
	n, d := len(tokens), len(tokens[0])
	x := tokens
	if enc == "sinusoidal" && !o.peAfter && !o.peAfterQK {
		if o.peNoScale {
			x = refAddPositionsWith(tokens, 0, 1, 1)
		} else {
			x = refAddPositions(tokens, 0)
		}
	}
	layout := posenc.Interleaved
	if o.halves {
		layout = posenc.Halves
	}
	rope := func(v []float64, pos int) []float64 {
		if o.unitFreq {
			return rotateWith(v, pos, layout, 1, func(int) float64 { return 1 }, false)
		}
		return refRoPE(v, pos, 10000, layout)
	}
	if enc == "rope" && o.rotateX {
		x = cloneTable(x)
		for i := range x {
			x[i] = rope(x[i], i)
		}
	}
	project := func(w [][]float64) [][]float64 {
		if o.leftMultiply {
			return matMul(x, transpose(w))
		}
		return matMul(x, w)
	}
	q, k, v := project(wq), project(wk), project(wv)
	if enc == "sinusoidal" && (o.peAfter || o.peAfterQK) {
		pe := refSinusoidal(0, n, d)
		targets := [][][]float64{q, k}
		if o.peAfter {
			targets = append(targets, v)
		}
		for _, t := range targets {
			for i := range t {
				for c := range t[i] {
					t[i][c] += pe[i][c]
				}
			}
		}
	}
	if enc == "rope" && !o.rotateX {
		for i := range n {
			q[i], k[i] = rope(q[i], i), rope(k[i], i)
			if o.rotateV {
				v[i] = rope(v[i], i)
			}
		}
	}
	var bias [][]float64
	if enc == "alibi" {
		slope := 0.5
		if o.slope256 {
			slope = 1.0 / 256
		}
		bias = refALiBiBias([]float64{slope}, n, o.causal)[0]
	}
	return refAttention(q, k, v, attentionOpts{bias: bias, scale: o.scale})
}

// Sentence is exercise 21's input: Words, their embeddings Tokens (both
// "the" share one), and the projections Wq, Wk and Wv.
type Sentence struct {
	Words      []string
	Tokens     [][]float64
	Wq, Wk, Wv [][]float64
}

// EncodingCase is one call: SentenceAttention(Tokens, Wq, Wk, Wv, Encoding)
// must return Want, to 1e-9, and no error.
type EncodingCase struct {
	Name     string
	Encoding string
	Want     [][]float64
}

// TheTwoTheCase checks the point of the exercise: with Encoding, the
// outputs of the two "the" (words 0 and 3) must be the same when Same, and
// differ otherwise.
type TheTwoTheCase struct {
	Name      string
	Encodings []string
	Same      bool
}

// UnknownCase is one call with an encoding that is none of the four:
// SentenceAttention must return a nil result and an error naming it.
type UnknownCase struct {
	Name     string
	Encoding string
}

// SentenceCases is exercise 21's case table.
type SentenceCases struct {
	Sentence  Sentence        `doc:"The input of every row: \"the dog bites the man\", both \"the\" with one embedding, and the three projections, 4×4."`
	Encode    []EncodingCase  `doc:"SentenceAttention(Sentence.Tokens, Sentence.Wq, Sentence.Wk, Sentence.Wv, Encoding) must equal Want, to 1e-9, with no error: exercises 1, 4, 7, 12 and 20 put together."`
	TheTwoThe []TheTwoTheCase `doc:"With each of Encodings, the outputs of the two \"the\" (words 0 and 3) must be equal when Same, and differ otherwise."`
	Unknown   []UnknownCase   `doc:"SentenceAttention with Encoding must return a nil result and an error that names it."`
}

func sentenceCases() SentenceCases {
	// The sentence "the dog bites the man", d = 4: both "the" share one embedding.
	in := Sentence{
		Words: []string{"the", "dog", "bites", "the", "man"},
		Tokens: [][]float64{
			{0.1, -0.3, 0.2, 0.4}, {0.7, 0.2, -0.5, 0.1}, {-0.4, 0.6, 0.3, -0.2}, {0.1, -0.3, 0.2, 0.4}, {0.5, -0.6, -0.1, 0.3},
		},
		Wq: randTable(4, 4, 121), Wk: randTable(4, 4, 122), Wv: randTable(4, 4, 123),
	}
	enc := func(e string) EncodingCase {
		return EncodingCase{"encoding_" + e, e, refSentence(in.Tokens, in.Wq, in.Wk, in.Wv, e, sentenceOpts{})}
	}
	return SentenceCases{
		Sentence: in,
		Encode:   []EncodingCase{enc("none"), enc("sinusoidal"), enc("rope"), enc("alibi")},
		TheTwoThe: []TheTwoTheCase{
			{"without_positions_both_the_are_equal", []string{"none"}, true},
			{"positions_tell_the_two_the_apart", []string{"sinusoidal", "rope", "alibi"}, false},
		},
		Unknown: []UnknownCase{{"an_unknown_encoding_is_an_error", "learned"}},
	}
}

type sentenceFunc = func(tokens, wq, wk, wv [][]float64, encoding string) ([][]float64, error)

// run calls fn on copies of the sentence.
func (in Sentence) run(fn sentenceFunc, enc string) ([][]float64, error) {
	return fn(cloneTable(in.Tokens), cloneTable(in.Wq), cloneTable(in.Wk), cloneTable(in.Wv), enc)
}

func (in Sentence) call(enc string) string {
	return fmt.Sprintf("SentenceAttention(%q, wq, wk, wv, %q)", strings.Join(in.Words, " "), enc)
}

// diagSentence names the idea behind a wrong output for encoding enc.
func diagSentence(got [][]float64, in Sentence, enc string) *Hint {
	tokens, wq, wk, wv := in.Tokens, in.Wq, in.Wk, in.Wv
	type v = variant[[][]float64]
	n := float64(len(tokens))
	variants := []v{
		{hintSentenceProjection, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{leftMultiply: true})},
		{hintAttentionByKeys, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{scale: func(int) float64 { return n }})},
		{hintAttentionByKeys, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{scale: func(int) float64 { return math.Sqrt(n) }})},
	}
	switch enc {
	case "sinusoidal":
		variants = append(variants,
			v{hintSentencePEAfter, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{peAfter: true})},
			v{hintSentencePEAfter, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{peAfterQK: true})},
			v{hintSentencePENoScale, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{peNoScale: true})})
	case "rope":
		variants = append(variants,
			v{hintSentenceRotateV, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{rotateV: true})},
			v{hintSentenceRotateX, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{rotateX: true})},
			v{hintSentenceRoPELayout, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{halves: true})},
			v{hintRoPEIntDiv, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{unitFreq: true})})
	case "alibi":
		variants = append(variants,
			v{hintSentenceCausal, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{causal: true})},
			v{hintSentenceSlope, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{slope256: true})},
			v{hintSentenceSlope, refSentence(tokens, wq, wk, wv, enc, sentenceOpts{slope256: true, causal: true})})
	}
	if h := firstMatch(got, sameTable(1e-9), variants...); h != nil {
		return h
	}
	if enc == "none" && len(got) > 3 && diffVec(got[3], got[0], 1e-12) >= 0 {
		return hintSentenceSameWords
	}
	return nil
}

var sentenceArgs = argHints{hintSentenceMutates, hintShares}

// encodingCheck is a check of one encoding's output.
func encodingCheck(fn sentenceFunc, in Sentence, c EncodingCase) Check {
	call := in.call(c.Encoding)
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		tokens, wq, wk, wv := cloneTable(in.Tokens), cloneTable(in.Wq), cloneTable(in.Wk), cloneTable(in.Wv)
		got, err := fn(tokens, wq, wk, wv, c.Encoding)
		if err != nil {
			return fail(hintSentenceFallback, fmt.Sprintf("%s returned the error %q; %q is one of the four encodings.", call, err, c.Encoding))
		}
		word := func(i int) string { return fmt.Sprintf("word %d (%q)", i, in.Words[i]) }
		if f := compareTable(call, got, c.Want, 1e-9, word, label("column"),
			func(got [][]float64) *Hint { return diagSentence(got, in, c.Encoding) }, hintSentenceFallback); f != nil {
			return f
		}
		return sentenceArgs.check(call, got, arg{"tokens", tokens, in.Tokens}, arg{"wq", wq, in.Wq}, arg{"wk", wk, in.Wk}, arg{"wv", wv, in.Wv})
	}}
}

// theTwoTheCheck is a check that the encodings tell the two "the" apart.
func theTwoTheCheck(fn sentenceFunc, in Sentence, c TheTwoTheCase) Check {
	return Check{Name: c.Name, Call: in.call(c.Encodings[0]), Run: func() *Failure {
		for _, enc := range c.Encodings {
			got, err := in.run(fn, enc)
			if err != nil || len(got) != len(in.Tokens) {
				return fail(hintSentenceFallback, fmt.Sprintf("%s did not return %d rows (error %v).", in.call(enc), len(in.Tokens), err))
			}
			switch i := diffVec(got[3], got[0], 1e-12); {
			case c.Same && i >= 0:
				return fail(hintSentenceSameWords, append([]string{
					fmt.Sprintf("the outputs of the two “the” (words 0 and 3) differ with encoding %q:", enc)},
					vecDiffLines(got[3], got[0], i, label("column"))...)...)
			case !c.Same && diffVec(got[3], got[0], 1e-6) < 0:
				return fail(hintSentenceFallback, fmt.Sprintf("with encoding %q the two “the” (words 0 and 3) get the same output: "+
					"the encoding must make them differ.", enc))
			}
		}
		return nil
	}}
}

// unknownCheck is a check that an unknown encoding is an error.
func unknownCheck(fn sentenceFunc, in Sentence, c UnknownCase) Check {
	call := in.call(c.Encoding)
	return Check{Name: c.Name, Call: call, Run: func() *Failure {
		got, err := in.run(fn, c.Encoding)
		switch {
		case err == nil:
			return fail(hintSentenceUnknown, call+" returned no error.")
		case !strings.Contains(err.Error(), c.Encoding):
			return fail(hintSentenceUnknown, fmt.Sprintf("%s returned the error %q, which does not name the encoding.", call, err))
		case got != nil:
			return fail(hintSentenceUnknown, fmt.Sprintf("%s returned an error and %d rows; want a nil result with the error.", call, len(got)))
		}
		return nil
	}}
}

// SentenceAttention returns exercise 21's checks of fn on cases.
func SentenceAttention(fn sentenceFunc, cases SentenceCases) *Exercise {
	var checks []Check
	for _, c := range cases.Encode {
		checks = append(checks, encodingCheck(fn, cases.Sentence, c))
	}
	for _, c := range cases.TheTwoThe {
		checks = append(checks, theTwoTheCheck(fn, cases.Sentence, c))
	}
	for _, c := range cases.Unknown {
		checks = append(checks, unknownCheck(fn, cases.Sentence, c))
	}
	return newExercise(21, checks)
}
