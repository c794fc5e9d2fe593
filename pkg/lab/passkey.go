package lab

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// A passkey sequence hides a value among filler text and asks for it at
// the end:
//
//	filler … ⟨key⟩ ⟨v7⟩ filler … ⟨query⟩   → the model should predict ⟨v7⟩
//
// The distance is the number of positions from the value to the query. A
// model can only answer by attending from the query back to the value, so
// its accuracy against distance measures how far back it can really look,
// separately from how well it predicts text.

// Passkey makes one passkey sequence of seqLen tokens whose query, at the
// last position, is distance positions after the value. filler supplies the
// text around them (read from offset start); the value is drawn from rng.
// It returns the inputs, the targets (the inputs shifted by one, with the
// value as the last target) and the value's token.
func Passkey(rng *rand.Rand, filler []int32, start, seqLen, distance int) (inputs, targets []int32, value int32, err error) {
	if distance < 1 || distance > seqLen-2 {
		return nil, nil, 0, fmt.Errorf("lab: passkey distance must be in [1, %d] for seqLen %d, got %d", seqLen-2, seqLen, distance)
	}
	if start < 0 || start+seqLen+1 > len(filler) {
		return nil, nil, 0, fmt.Errorf("lab: passkey filler start must be in [0, %d], got %d", len(filler)-seqLen-1, start)
	}
	seq := slices.Clone(filler[start : start+seqLen+1]) // [seqLen+1]: inputs and one more target
	value = TokenValue0 + int32(rng.IntN(NumValues))
	q := seqLen - 1 // the query's position
	seq[q-distance-1] = TokenKey
	seq[q-distance] = value
	seq[q] = TokenQuery
	seq[q+1] = value // the answer: what follows the query
	return seq[:seqLen], seq[1:], value, nil
}

// SamplePasskey fills a batch of passkey sequences of seqLen tokens with
// distances drawn uniformly from [1, seqLen-2] and filler at random
// positions of tokens.
func SamplePasskey(rng *rand.Rand, tokens []int32, batch, seqLen int) Batch {
	var b Batch
	for range batch {
		d := 1 + rng.IntN(seqLen-2)
		in, tg, _, err := Passkey(rng, tokens, rng.IntN(len(tokens)-seqLen-1), seqLen, d)
		if err != nil {
			panic(err) // unreachable: d and the start are in range by construction
		}
		b.Inputs = append(b.Inputs, in)
		b.Targets = append(b.Targets, tg)
	}
	return b
}
