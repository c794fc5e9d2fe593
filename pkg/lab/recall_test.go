package lab

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// upper is text without a lowercase letter: in a recall sequence made from
// it, every letter a–z is a value, and every other token is the text read
// on from where the sequence began, every len(upper) tokens the same.
const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,"

// upperText returns n tokens of upper, repeated.
func upperText(n int) []int32 {
	return Encode([]byte(strings.Repeat(upper, n/len(upper)+1)[:n]))
}

// upperPhase returns where token t stands in upper minus p, modulo
// len(upper): the same for every token of a text read on from one place.
func upperPhase(t int32, p int) int {
	i := strings.IndexByte(upper, Decode([]int32{t})[0])
	return ((i-p)%len(upper) + len(upper)) % len(upper)
}

func isSymbol(t int32) bool { return slices.Contains(Symbols, t) }

// checkRecall checks one recall sequence (inputs, targets, weights) of r:
// the targets are the inputs shifted by one; every key token is followed by
// a letter; a key's first occurrence is a pair, whose value weighs 0, and
// every later one a query, answered with that pair's value, weighing w; a
// target that is a key weighs 0; all else weighs 1. With synthetic text
// (upperText) it also checks that the letters are values only and that the
// rest is the text, unbroken.
func checkRecall(t *testing.T, in, tg []int32, weights []float32, r Recall, w float32, synthetic bool) {
	t.Helper()
	n := len(in)
	if len(tg) != n || len(weights) != n {
		t.Fatalf("%d inputs, %d targets, %d weights; want as many", n, len(tg), len(weights))
	}
	if !slices.Equal(in[1:], tg[:n-1]) {
		t.Fatalf("targets are not the inputs shifted by one:\n%s\n%s", Decode(in), Decode(tg))
	}
	seq := append(slices.Clone(in), tg[n-1]) // every token: inputs and the last target
	want := make([]float32, n)
	for i := range want {
		want[i] = 1
	}
	values := map[int32]int32{}
	asked := map[int32]bool{}
	inSlot := make([]bool, len(seq))
	pairs, queries := 0, 0
	for p, tok := range seq {
		if !IsKey(tok) {
			continue
		}
		if p+1 == len(seq) || !isSymbol(seq[p+1]) {
			t.Fatalf("key %s at %d not followed by a letter: %s", Decode([]int32{tok}), p, Decode(seq))
		}
		inSlot[p], inSlot[p+1] = true, true
		if p > 0 {
			want[p-1] = 0 // the target that is the key
		}
		v := seq[p+1]
		if old, ok := values[tok]; ok {
			if asked[tok] {
				t.Errorf("key %s asked a second time at %d: each key is asked once: %s", Decode([]int32{tok}), p, Decode(seq))
			}
			asked[tok] = true
			queries++
			want[p] = w
			if v != old {
				t.Errorf("query %s at %d answered %s; its pair holds %s: %s", Decode([]int32{tok}), p, Decode([]int32{v}), Decode([]int32{old}), Decode(seq))
			}
		} else {
			pairs++
			want[p] = 0
			values[tok] = v
		}
	}
	if pairs != r.Pairs || queries != r.Queries {
		t.Errorf("%d pairs and %d queries; want %d and %d: %s", pairs, queries, r.Pairs, r.Queries, Decode(seq))
	}
	if !slices.Equal(weights, want) {
		t.Errorf("weights of %s:\n got %v\nwant %v", Decode(seq), weights, want)
	}
	if !synthetic {
		return
	}
	phase := -1
	for p, tok := range seq {
		switch {
		case inSlot[p]:
		case isSymbol(tok):
			t.Errorf("letter %s at %d outside a pair or query: %s", Decode([]int32{tok}), p, Decode(seq))
		case phase == -1:
			phase = upperPhase(tok, p)
		case upperPhase(tok, p) != phase:
			t.Fatalf("the text is broken at %d: %s", p, Decode(seq))
		}
	}
}

func TestSampleRecall(t *testing.T) {
	const w = 6 // an answer weight neither 0 nor 1
	for _, c := range []struct {
		name   string
		seqLen int
		r      Recall
	}{
		{"lab", 64, DefaultConfig().Recall},
		{"quick", 16, Quick(DefaultConfig()).Recall},
		{"as full as allowed", 24, Recall{Pairs: 3, Queries: 3}}, // 12 tokens of 24
		{"every key", 80, Recall{Pairs: NumKeys, Queries: 4}},
		{"pairs mostly", 28, Recall{Pairs: 6, Queries: 1}},
		{"odd length", 17, Recall{Pairs: 2, Queries: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.r.Validate(c.seqLen); err != nil {
				t.Fatal(err)
			}
			text := upperText(4000)
			const batch = 64
			b := SampleRecall(rand.New(rand.NewPCG(1, 2)), text, batch, c.seqLen, c.r, w)
			if len(b.Inputs) != batch || len(b.Targets) != batch || len(b.Weights) != batch {
				t.Fatalf("%d inputs, %d targets, %d weights; want %d", len(b.Inputs), len(b.Targets), len(b.Weights), batch)
			}
			firstSlot := map[int]bool{}
			for i := range b.Inputs {
				checkRecall(t, b.Inputs[i], b.Targets[i], b.Weights[i], c.r, w, true)
				firstSlot[slices.IndexFunc(b.Inputs[i], IsKey)] = true
			}
			// The slots move: the first pair is not always at the start.
			if len(firstSlot) < 2 && c.r.Pairs+c.r.Queries < c.seqLen/2 {
				t.Errorf("the first key is at %v in all %d sequences", firstSlot, batch)
			}
			again := SampleRecall(rand.New(rand.NewPCG(1, 2)), text, batch, c.seqLen, c.r, w)
			if !reflect.DeepEqual(b, again) {
				t.Error("the same seed gave another batch")
			}
			other := SampleRecall(rand.New(rand.NewPCG(2, 2)), text, batch, c.seqLen, c.r, w)
			if reflect.DeepEqual(b, other) {
				t.Error("another seed gave the same batch")
			}
		})
	}
	// In the lab's own text, as Train samples it.
	c := DefaultConfig()
	b := SampleRecall(rand.New(rand.NewPCG(7, 1)), LoadText().Train, 32, c.TrainLen, c.Recall, c.AnswerWeight)
	for i := range b.Inputs {
		checkRecall(t, b.Inputs[i], b.Targets[i], b.Weights[i], c.Recall, c.AnswerWeight, false)
	}
}

// TestRecallDistances checks the statistics of the training windows the
// lab trains on, which decide what a model learns to look up: every key is
// asked at most once (checkRecall), and the distance from a query back to
// its pair's value is uniform over [1, L−2], the range the probes test.
// Lookups only a few tokens back, with several earlier copies of the key,
// would train short lookups and test long ones.
func TestRecallDistances(t *testing.T) {
	for _, c := range []struct {
		name   string
		seqLen int
		r      Recall
	}{
		{"lab", DefaultConfig().TrainLen, DefaultConfig().Recall},
		{"quick", Quick(DefaultConfig()).TrainLen, Quick(DefaultConfig()).Recall},
		{"as full as allowed", 32, Recall{Pairs: 4, Queries: 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const windows = 4000
			b := SampleRecall(rand.New(rand.NewPCG(5, 6)), LoadText().Train, windows, c.seqLen, c.r, 6)
			lo, hi := RecallDistances(c.seqLen)
			counts := make([]int, hi+1)
			copies := 0 // earlier copies of a query's key, summed over queries
			n := 0
			for i, in := range b.Inputs {
				checkRecall(t, in, b.Targets[i], b.Weights[i], c.r, 6, false)
				seen := map[int32][]int{}
				for p, tok := range in {
					if !IsKey(tok) {
						continue
					}
					if prev := seen[tok]; len(prev) > 0 {
						copies += len(prev)
						d := p - (prev[len(prev)-1] + 1)
						if d < lo || d > hi {
							t.Fatalf("a query %d tokens after its value; want [%d, %d]", d, lo, hi)
						}
						counts[d]++
						n++
					}
					seen[tok] = append(seen[tok], p)
				}
			}
			if want := windows * c.r.Queries; n != want || copies != n {
				t.Fatalf("%d queries with %d earlier copies of their keys; want %d, one copy each", n, copies, want)
			}
			// Uniform: each quarter of the range holds a quarter of the
			// queries, within 6 standard errors, and the mean is the
			// range's middle.
			span := hi - lo + 1
			mean := 0.0
			for d := lo; d <= hi; d++ {
				mean += float64(d*counts[d]) / float64(n)
			}
			if mid, sd := float64(lo+hi)/2, float64(span)/math.Sqrt(12*float64(n)); math.Abs(mean-mid) > 6*sd {
				t.Errorf("mean distance %.2f; want the middle %.1f ± %.2f", mean, mid, 6*sd)
			}
			for q := range 4 {
				a, z := lo+q*span/4, lo+(q+1)*span/4
				got := 0
				for d := a; d < z; d++ {
					got += counts[d]
				}
				p := float64(z-a) / float64(span)
				if want, sd := p*float64(n), math.Sqrt(float64(n)*p*(1-p)); math.Abs(float64(got)-want) > 6*sd {
					t.Errorf("distances in [%d, %d): %d queries; want %.0f ± %.0f (uniform)", a, z, got, want, 6*sd)
				}
			}
			// The longest distance, a pair at the first token asked by the
			// last: as often as any other.
			if counts[hi] < n/span/3 {
				t.Errorf("distance %d (the longest): %d queries; want about %d", hi, counts[hi], n/span)
			}
		})
	}
}

func TestRecallValidate(t *testing.T) {
	for _, c := range []struct {
		r      Recall
		seqLen int
		want   string // "" for valid
	}{
		{Recall{Pairs: 8, Queries: 6}, 64, ""},
		{Recall{Pairs: 8, Queries: 8}, 64, ""}, // exactly the room asked
		{Recall{Pairs: NumKeys, Queries: 1}, 68, ""},
		{Recall{Pairs: 0, Queries: 1}, 64, "recall pairs must be in [1, 16], got 0"},
		{Recall{Pairs: NumKeys + 1, Queries: 1}, 64, "recall pairs must be in [1, 16], got 17"},
		{Recall{Pairs: 1, Queries: 0}, 64, "recall queries must be in [1, pairs = 1] (each key asked once), got 0"},
		{Recall{Pairs: 4, Queries: 12}, 64, "recall queries must be in [1, pairs = 4] (each key asked once), got 12"},
		{Recall{Pairs: 8, Queries: 8}, 63, "8 recall pairs and 8 queries need 64 tokens of room (twice the 32 they take), more than the length 63"},
	} {
		err := c.r.Validate(c.seqLen)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v.Validate(%d) = %v; want %q", c.r, c.seqLen, err, c.want)
		}
	}
}

func TestProbeDistance(t *testing.T) {
	for _, n := range []int{4, 16, 64, 127, 512} {
		if got := ProbeDistance(n, ProbeOffset(n, 0)); got != n-2 {
			t.Errorf("n %d, depth 0: distance %d; want n−2 = %d (the pair at the first token)", n, got, n-2)
		}
		if got := ProbeDistance(n, ProbeOffset(n, 1)); got != 1 {
			t.Errorf("n %d, depth 1: distance %d; want 1 (the pair right before the query)", n, got)
		}
		last := n - 1
		for d := 0.0; d <= 1; d += 0.125 {
			o := ProbeOffset(n, d)
			if o < 0 || o > n-3 {
				t.Errorf("ProbeOffset(%d, %g) = %d; want it in [0, %d]", n, d, o, n-3)
			}
			if got, want := ProbeDistance(n, o), last-(o+1); got != want {
				t.Errorf("n %d, offset %d: distance %d; want %d positions from the value to the query", n, o, got, want)
			}
		}
	}
	if got, want := ProbeOffset(67, 0.5), 32; got != want {
		t.Errorf("ProbeOffset(67, 0.5) = %d; want %d, half-way through the 65 places", got, want)
	}
}

func TestProbe(t *testing.T) {
	filler := upperText(1000)
	for _, c := range []struct {
		seqLen int
		depth  float64
		pairs  int
	}{
		{16, 0, 1}, {16, 1, 2}, {16, 0.5, 4},
		{64, 0, 4}, {64, 0.25, 4}, {64, 0.75, 4}, {64, 1, 4},
		{128, 0.5, NumKeys},
		{5, 1, 2}, // as full as it gets: the probed pair, one more, the query
	} {
		rng := rand.New(rand.NewPCG(3, 4))
		for _, start := range []int{0, 17, len(filler) - c.seqLen} {
			in, v, err := Probe(rng, filler, start, c.seqLen, c.depth, c.pairs)
			if err != nil {
				t.Fatalf("Probe(%d tokens, depth %g, %d pairs): %v", c.seqLen, c.depth, c.pairs, err)
			}
			o := ProbeOffset(c.seqLen, c.depth)
			key := in[c.seqLen-1]
			if len(in) != c.seqLen || !IsKey(key) || in[o] != key || in[o+1] != v || !isSymbol(v) {
				t.Fatalf("%d tokens, depth %g: %s → %s; want the pair at %d and its key last", c.seqLen, c.depth, Decode(in), Decode([]int32{v}), o)
			}
			keys := map[int32]int{}
			for p, tok := range in {
				switch {
				case IsKey(tok):
					keys[tok]++
					if p < c.seqLen-1 && !isSymbol(in[p+1]) {
						t.Errorf("key at %d not followed by a letter: %s", p, Decode(in))
					}
				case isSymbol(tok):
					if p == 0 || !IsKey(in[p-1]) {
						t.Errorf("letter at %d outside a pair: %s", p, Decode(in))
					}
				case tok != filler[start+p]:
					t.Errorf("token %d is %s; want the filler's %s", p, Decode([]int32{tok}), Decode(filler[start+p:start+p+1]))
				}
			}
			if len(keys) != c.pairs || keys[key] != 2 {
				t.Errorf("%d distinct keys, the probed one %d times; want %d, twice: %s", len(keys), keys[key], c.pairs, Decode(in))
			}
			for k, count := range keys {
				if k != key && count != 1 {
					t.Errorf("distractor %s occurs %d times; want once: %s", Decode([]int32{k}), count, Decode(in))
				}
			}
		}
	}
	for _, c := range []struct {
		seqLen, start, pairs int
		depth                float64
		want                 string
	}{
		{16, 0, 1, -0.1, "probe depth must be in [0, 1], got -0.1"},
		{16, 0, 1, 1.5, "probe depth must be in [0, 1], got 1.5"},
		{16, 0, 1, math.NaN(), "probe depth must be in [0, 1], got NaN"},
		{16, 0, 0, 0.5, "probe pairs must be in [1, 16] and fit in 16 tokens, got 0"},
		{64, 0, NumKeys + 1, 0.5, "probe pairs must be in [1, 16]"},
		{16, 0, 8, 0.5, "fit in 16 tokens, got 8"},
		{16, -1, 1, 0.5, "probe filler start must be in [0, 984], got -1"},
		{16, 985, 1, 0.5, "probe filler start must be in [0, 984], got 985"},
		// 2·4+1 tokens hold four pairs only if they tile them, and the
		// probed pair in the middle breaks the tiling: an error, not a hang.
		{9, 0, 4, 0.5, "no room for 4 probe pairs in 9 tokens"},
	} {
		rng := rand.New(rand.NewPCG(1, 1))
		if _, _, err := Probe(rng, filler, c.start, c.seqLen, c.depth, c.pairs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Probe(%d tokens from %d, depth %g, %d pairs) error = %v; want %q", c.seqLen, c.start, c.depth, c.pairs, err, c.want)
		}
	}
}

// Every model is probed on the same probes: the same seed, length and
// depth give the same ones; another seed, length or depth others.
func TestNewProbes(t *testing.T) {
	valid := LoadText().Valid
	p, err := NewProbes(valid, 64, 0.5, 4, 32, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Inputs) != 32 || len(p.Values) != 32 {
		t.Fatalf("%d inputs and %d values; want 32", len(p.Inputs), len(p.Values))
	}
	starts := map[string]bool{}
	for i, in := range p.Inputs {
		if len(in) != 64 || in[ProbeOffset(64, 0.5)+1] != p.Values[i] || in[ProbeOffset(64, 0.5)] != in[63] {
			t.Fatalf("probe %d: %s → %s", i, Decode(in), Decode(p.Values[i:i+1]))
		}
		starts[Decode(in[:8])] = true
	}
	if len(starts) < 16 {
		t.Errorf("32 probes begin with only %d distinct texts; want text from all over", len(starts))
	}
	same, _ := NewProbes(valid, 64, 0.5, 4, 32, 1)
	if !reflect.DeepEqual(p, same) {
		t.Error("the same seed, length and depth gave other probes")
	}
	for _, other := range []struct {
		n     int
		depth float64
		seed  uint64
	}{{64, 0.5, 2}, {64, 0.25, 1}} {
		q, err := NewProbes(valid, other.n, other.depth, 4, 32, other.seed)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(p.Values, q.Values) {
			t.Errorf("length %d, depth %g, seed %d: the same values as length 64, depth 0.5, seed 1", other.n, other.depth, other.seed)
		}
	}
	if _, err := NewProbes(valid, 64, 2, 4, 32, 1); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("NewProbes at depth 2: %v; want an error naming the depth", err)
	}
}

// NewProbesAt puts the probed pair at the offset asked, with the pairs
// asked, and every offset and number of pairs draws its own probes.
func TestNewProbesAt(t *testing.T) {
	valid := LoadText().Valid
	for _, c := range []struct{ n, offset, pairs int }{{64, 0, 4}, {64, 8, 1}, {128, 61, 8}} {
		p, err := NewProbesAt(valid, c.n, c.offset, c.pairs, 16, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range p.Inputs {
			keys := 0
			for _, tok := range in {
				if IsKey(tok) {
					keys++
				}
			}
			if len(in) != c.n || in[c.offset] != in[c.n-1] || in[c.offset+1] != p.Values[i] || keys != c.pairs+1 {
				t.Fatalf("%+v, probe %d: %s → %s; want the pair at %d, %d pairs", c, i, Decode(in), Decode(p.Values[i:i+1]), c.offset, c.pairs)
			}
		}
		again, _ := NewProbesAt(valid, c.n, c.offset, c.pairs, 16, 1)
		other, _ := NewProbesAt(valid, c.n, c.offset+1, c.pairs, 16, 1)
		if !reflect.DeepEqual(p, again) || reflect.DeepEqual(p.Values, other.Values) {
			t.Errorf("%+v: the same arguments must give the same probes, another offset others", c)
		}
	}
	if _, err := NewProbesAt(valid, 64, 62, 1, 4, 1); err == nil || !strings.Contains(err.Error(), "probe offset must be in [0, 61], got 62") {
		t.Errorf("offset past the end: %v", err)
	}
}
