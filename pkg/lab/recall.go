package lab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// The recall task (multi-query associative recall, Arora et al. 2023,
// "Zoology", written into text): key–value pairs are scattered through
// ordinary text, and a key seen again asks for its value.
//
//	…the file ⟨k3⟩q is read… ⟨k9⟩c and then… ⟨k3⟩ → q
//
// A value is a letter, which the text is full of: the only way to find it
// is to find the earlier copy of the key and read the token right after
// it, which needs to know which token comes right after which, that is,
// positions. Every key occurs twice at most in a pair-and-queries
// sequence, and several pairs compete, so content alone does not answer.

// Recall says how many pairs and queries a training sequence holds.
type Recall struct {
	Pairs   int `json:"pairs"`   // distinct keys, each with a value
	Queries int `json:"queries"` // keys asked again, each after its pair
}

// Validate reports the first invalid field of r for sequences of seqLen
// tokens.
func (r Recall) Validate(seqLen int) error {
	switch {
	case r.Pairs < 1 || r.Pairs > NumKeys:
		return fmt.Errorf("lab: recall pairs must be in [1, %d], got %d", NumKeys, r.Pairs)
	case r.Queries < 1:
		return fmt.Errorf("lab: recall queries must be positive, got %d", r.Queries)
	case 2*(r.Pairs+r.Queries) > seqLen:
		return fmt.Errorf("lab: %d recall pairs and %d queries need %d tokens, more than the length %d",
			r.Pairs, r.Queries, 2*(r.Pairs+r.Queries), seqLen)
	}
	return nil
}

// SampleRecall fills a batch with recall sequences of seqLen tokens: text
// from tokens at random positions, with r.Pairs pairs and r.Queries
// queries at random places (two tokens each, not overlapping), the first a
// pair and every query after the pair it asks for. A query's answer weighs answerWeight
// in the loss; the targets no model can predict (a key, a pair's random
// value) weigh 0; the text weighs 1.
func SampleRecall(rng *rand.Rand, tokens []int32, batch, seqLen int, r Recall, answerWeight float32) Batch {
	var b Batch
	for range batch {
		start := rng.IntN(len(tokens) - seqLen - 1)
		seq := slices.Clone(tokens[start : start+seqLen+1]) // [seqLen+1]: inputs and one more target
		w := ones(seqLen)
		// The items stand at p_0 < p_1 < …, a key at p_i and its value
		// at p_i+1 ≤ seqLen (the last target), anywhere: no parity or
		// position a model could lean on that a probe would not have.
		// p_i = q_i + i for distinct sorted q_i in [0, seqLen−items].
		items := r.Pairs + r.Queries
		slots := rng.Perm(seqLen - items + 1)[:items]
		slices.Sort(slots)
		for i := range slots {
			slots[i] += i
		}
		isPair := make([]bool, len(slots))
		for i := range r.Pairs {
			isPair[i] = true
		}
		rng.Shuffle(len(isPair), func(i, j int) { isPair[i], isPair[j] = isPair[j], isPair[i] })
		if !isPair[0] { // the first slot must be a pair: nothing to ask for yet
			i := slices.Index(isPair, true)
			isPair[0], isPair[i] = true, false
		}
		keys := rng.Perm(NumKeys)[:r.Pairs]
		values := make([]int32, r.Pairs)
		declared := 0
		for i, p := range slots {
			var k int
			if isPair[i] {
				k = declared
				values[k] = Symbols[rng.IntN(len(Symbols))]
				declared++
				w[p] = 0 // a pair's value: random
			} else {
				k = rng.IntN(declared)
				w[p] = answerWeight // a query's answer
			}
			seq[p], seq[p+1] = TokenKey0+int32(keys[k]), values[k]
			if p > 0 {
				w[p-1] = 0 // a key: nothing says where one comes
			}
		}
		b.Inputs = append(b.Inputs, seq[:seqLen])
		b.Targets = append(b.Targets, seq[1:])
		b.Weights = append(b.Weights, w)
	}
	return b
}

// ProbeOffset is where the probed pair's key stands in a probe of seqLen
// tokens at depth ∈ [0, 1]: 0 at depth 0 (the first token), seqLen−3 at
// depth 1 (right before the query).
func ProbeOffset(seqLen int, depth float64) int {
	return int(math.Round(depth * float64(seqLen-3)))
}

// ProbeDistance is how many positions the query (the last token) stands
// after the probed value, for a probe of seqLen tokens whose pair's key is
// at offset: seqLen−2−offset.
func ProbeDistance(seqLen, offset int) int { return seqLen - 2 - offset }

// Probe makes one evaluation sequence of seqLen tokens: text from filler
// (read from start), the probed pair at depth (ProbeOffset), pairs−1 other
// pairs at random places, and the probed key again as the last token. It
// returns the inputs and the value the model should predict after the
// last token.
func Probe(rng *rand.Rand, filler []int32, start, seqLen int, depth float64, pairs int) (inputs []int32, value int32, err error) {
	switch {
	case !(depth >= 0 && depth <= 1):
		return nil, 0, fmt.Errorf("lab: probe depth must be in [0, 1], got %g", depth)
	case pairs < 1 || pairs > NumKeys || 2*pairs+1 > seqLen:
		return nil, 0, fmt.Errorf("lab: probe pairs must be in [1, %d] and fit in %d tokens, got %d", NumKeys, seqLen, pairs)
	case start < 0 || start+seqLen > len(filler):
		return nil, 0, fmt.Errorf("lab: probe filler start must be in [0, %d], got %d", len(filler)-seqLen, start)
	}
	seq := slices.Clone(filler[start : start+seqLen])
	used := make([]bool, seqLen)
	used[seqLen-1] = true
	keys := rng.Perm(NumKeys)[:pairs]
	place := func(p int, key int) int32 {
		v := Symbols[rng.IntN(len(Symbols))]
		seq[p], seq[p+1] = TokenKey0+int32(key), v
		used[p], used[p+1] = true, true
		return v
	}
	o := ProbeOffset(seqLen, depth)
	value = place(o, keys[0])
	for _, k := range keys[1:] {
		for try := 0; ; try++ {
			if try == 10_000 {
				return nil, 0, fmt.Errorf("lab: no room for %d probe pairs in %d tokens", pairs, seqLen)
			}
			p := rng.IntN(seqLen - 2)
			if !used[p] && !used[p+1] {
				place(p, k)
				break
			}
		}
	}
	seq[seqLen-1] = TokenKey0 + int32(keys[0])
	return seq, value, nil
}
