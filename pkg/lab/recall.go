package lab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
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
// positions. Each key occurs once in a pair and at most once again as a
// query, and the distance from a pair to its query is drawn uniformly
// over every distance a window of the training length has room for, so
// the model trains on long lookups as often as on short ones. Pairs that
// are never asked compete with those that are, so content alone does not
// answer.

// Recall says how many pairs and queries a training sequence holds.
type Recall struct {
	Pairs   int `json:"pairs"`   // distinct keys, each with a value
	Queries int `json:"queries"` // keys asked again, each once, after its pair
}

// Validate reports the first invalid field of r for sequences of seqLen
// tokens.
func (r Recall) Validate(seqLen int) error {
	switch {
	case r.Pairs < 1 || r.Pairs > NumKeys:
		return fmt.Errorf("lab: recall pairs must be in [1, %d], got %d", NumKeys, r.Pairs)
	case r.Queries < 1 || r.Queries > r.Pairs:
		return fmt.Errorf("lab: recall queries must be in [1, pairs = %d] (each key asked once), got %d", r.Pairs, r.Queries)
	case 4*(r.Pairs+r.Queries) > seqLen:
		// Twice the tokens the items take: room enough that the longest
		// distances place as easily as the shortest.
		return fmt.Errorf("lab: %d recall pairs and %d queries need %d tokens of room (twice the %d they take), more than the length %d",
			r.Pairs, r.Queries, 4*(r.Pairs+r.Queries), 2*(r.Pairs+r.Queries), seqLen)
	}
	return nil
}

// RecallDistances are the pair–query distances a training window of
// seqLen tokens draws from, uniformly: from 1 (the query right after the
// pair's value) to seqLen−2 (the pair at the first token, the query the
// last), as ProbeDistance counts them.
func RecallDistances(seqLen int) (lo, hi int) { return 1, seqLen - 2 }

// SampleRecall fills a batch with recall sequences of seqLen tokens: text
// from tokens at random positions, with r.Pairs pairs, r.Queries of them
// asked again once each. Each query's distance from its pair's value is
// drawn uniformly from RecallDistances, its place uniformly among those
// free; the pairs never asked go anywhere free. A query's answer weighs
// answerWeight in the loss; the targets no model can predict (a key, a
// pair's random value) weigh 0; the text weighs 1. It panics if r is
// invalid for seqLen (Recall.Validate).
func SampleRecall(rng *rand.Rand, tokens []int32, batch, seqLen int, r Recall, answerWeight float32) Batch {
	if err := r.Validate(seqLen); err != nil {
		panic(err)
	}
	var b Batch
	for range batch {
		start := rng.IntN(len(tokens) - seqLen - 1)
		seq := slices.Clone(tokens[start : start+seqLen+1]) // [seqLen+1]: inputs and one more target
		w := ones(seqLen)
		pairs, queries := placeRecall(rng, seqLen, r)
		keys := rng.Perm(NumKeys)[:r.Pairs]
		for i, p := range pairs {
			v := Symbols[rng.IntN(len(Symbols))]
			seq[p], seq[p+1] = TokenKey0+int32(keys[i]), v
			w[p] = 0 // a pair's value: random
			if p > 0 {
				w[p-1] = 0 // a key: nothing says where one comes
			}
			if i < len(queries) {
				q := queries[i]
				seq[q], seq[q+1] = seq[p], v
				w[q], w[q-1] = answerWeight, 0 // a query's answer; its key
			}
		}
		b.Inputs = append(b.Inputs, seq[:seqLen])
		b.Targets = append(b.Targets, seq[1:])
		b.Weights = append(b.Weights, w)
	}
	return b
}

// placeRecall returns where the keys of r's pairs and queries stand in a
// window of seqLen tokens: queries[i] asks for pairs[i]; the pairs past
// len(queries) are never asked. Every item takes two tokens (a key and a
// letter) and none overlap; a pair's letter is an input (p+1 < seqLen), a
// query's may be the last target (q+1 = seqLen).
func placeRecall(rng *rand.Rand, seqLen int, r Recall) (pairs, queries []int) {
	return placeWeighted(rng, seqLen, r, distanceWeights(seqLen, r))
}

// placeWeighted is placeRecall with the distances drawn in proportion to
// cum's steps: cum[i] is the total weight of distances lo…lo+i.
func placeWeighted(rng *rand.Rand, seqLen int, r Recall, cum []float64) (pairs, queries []int) {
	lo, _ := RecallDistances(seqLen)
	for {
		used := make([]bool, seqLen+1)
		free := func(ps ...int) bool {
			for _, p := range ps {
				if used[p] {
					return false
				}
			}
			return true
		}
		dist := make([]int, r.Queries)
		for i := range dist {
			dist[i] = lo + sort.SearchFloat64s(cum, rng.Float64()*cum[len(cum)-1])
		}
		// The longest first: they have the fewest places, and an empty
		// window has room for any one of them.
		order := rng.Perm(r.Queries)
		slices.SortStableFunc(order, func(a, b int) int { return dist[b] - dist[a] })
		pairs, queries = make([]int, r.Pairs), make([]int, r.Queries)
		ok := true
		var cands []int
		for _, i := range order {
			d := dist[i]
			cands = cands[:0]
			for p := 0; p+d+2 <= seqLen; p++ { // the query's key at q = p+1+d ≤ seqLen−1
				if q := p + 1 + d; free(p, p+1, q, q+1) {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				ok = false
				break
			}
			p := cands[rng.IntN(len(cands))]
			q := p + 1 + d
			used[p], used[p+1], used[q], used[q+1] = true, true, true, true
			pairs[i], queries[i] = p, q
		}
		for i := r.Queries; ok && i < r.Pairs; i++ {
			cands = cands[:0]
			for p := 0; p+2 <= seqLen; p++ {
				if free(p, p+1) {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				ok = false
				break
			}
			pairs[i] = cands[rng.IntN(len(cands))]
			used[pairs[i]], used[pairs[i]+1] = true, true
		}
		if ok {
			return pairs, queries
		}
		// Two long distances may not fit together (at L = 64, 62 and 61
		// do not): the window is drawn again, and distanceWeights makes up
		// for the long distances this drops.
	}
}

// weightsCache holds distanceWeights' answers by window length and recall.
var weightsCache sync.Map

// distanceWeights returns the cumulative weights with which placeRecall
// draws distances for windows of seqLen tokens holding r, so that the
// distances of the windows it keeps are uniform. Two long distances may not
// fit in one window, and a window that does not fit is drawn again, so
// drawn uniformly the longest distances would be kept less often (at L = 64
// with 6 queries, the longest about 0.7 times as often as the shortest).
// Weights start equal and are corrected three times by the ratio of the
// uniform count to the count kept in 20,000 windows (iterative
// proportional fitting), with a fixed seed: the same weights on every run.
func distanceWeights(seqLen int, r Recall) []float64 {
	key := [3]int{seqLen, r.Pairs, r.Queries}
	if cum, ok := weightsCache.Load(key); ok {
		return cum.([]float64)
	}
	lo, hi := RecallDistances(seqLen)
	w := make([]float64, hi-lo+1)
	for i := range w {
		w[i] = 1
	}
	cumulative := func() []float64 {
		cum, sum := make([]float64, len(w)), 0.0
		for i, v := range w {
			sum += v
			cum[i] = sum
		}
		return cum
	}
	rng := rand.New(rand.NewPCG(uint64(seqLen), uint64(r.Pairs)<<8|uint64(r.Queries)))
	const windows = 20_000
	for range 3 {
		cum := cumulative()
		kept := make([]float64, len(w))
		for range windows {
			pairs, queries := placeWeighted(rng, seqLen, r, cum)
			for i, q := range queries {
				kept[q-pairs[i]-1-lo]++
			}
		}
		uniform := float64(windows*r.Queries) / float64(len(w))
		for i := range w {
			w[i] *= uniform / math.Max(kept[i], 1)
		}
	}
	cum := cumulative()
	weightsCache.Store(key, cum)
	return cum
}

// ProbeOffset is where the probed pair's key stands in a probe of seqLen
// tokens at depth ∈ [0, 1]: 0 at depth 0 (the first token), seqLen−3 at
// depth 1 (right before the query).
func ProbeOffset(seqLen int, depth float64) int { return ProbeOffsetFrom(seqLen, depth, 0) }

// ProbeOffsetFrom is ProbeOffset with depth 0 at offset first instead of
// the first token: first + round(depth·(seqLen−3−first)). The first token
// is special (even a model without positions can find it: nothing comes
// before it), so a depth that should measure distance alone starts a few
// tokens in, and the first token is probed apart.
func ProbeOffsetFrom(seqLen int, depth float64, first int) int {
	return first + int(math.Round(depth*float64(seqLen-3-first)))
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
	if !(depth >= 0 && depth <= 1) {
		return nil, 0, fmt.Errorf("lab: probe depth must be in [0, 1], got %g", depth)
	}
	return ProbeAt(rng, filler, start, seqLen, ProbeOffset(seqLen, depth), pairs)
}

// ProbeAt is Probe with the probed pair's key at offset ∈ [0, seqLen−3].
func ProbeAt(rng *rand.Rand, filler []int32, start, seqLen, offset, pairs int) (inputs []int32, value int32, err error) {
	switch {
	case offset < 0 || offset > seqLen-3:
		return nil, 0, fmt.Errorf("lab: probe offset must be in [0, %d], got %d", seqLen-3, offset)
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
	value = place(offset, keys[0])
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
