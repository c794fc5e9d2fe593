package smollm

import (
	"math"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// maxNLLDiff returns the largest |a[i] − b[i]|.
func maxNLLDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}

// TestGrowingCacheMatchesWholeCapacity checks the engine's shortcuts
// against the model as first written, on the same tokens in the same
// chunks: a cache that grows a chunk at a time, so each chunk reads only
// the slots filled so far (against every chunk reading all Cap slots,
// masked); the softmax's scale and division moved off the scores (against
// graph.Softmax of the scaled scores); and the cache written by
// DynamicUpdateSlice (against Gather and Where; on the pure-Go backend
// both are Gather and Where); the last two read the cache in key blocks
// (keyblocks.go, the default; TestKeyBlocksMatchWholeScores compares the
// whole scores). The slots a
// chunk no longer reads were masked to −∞, so the logits and losses agree
// to float32 rounding (softmax sums over other lengths: 1e-4 on logits of
// about 20 measured on XLA CPU); the decoding steps after the prefill use
// the same paths.
func TestGrowingCacheMatchesWholeCapacity(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, chunk, tail := tokensFor(150, 20), tokensFor(64, 8), 3
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize = chunk
	ids, pos := g.IDs[:n], positions(n)
	targets := append(append([]int32(nil), ids[1:n]...), -1)
	runBoth := func() ([][]float32, []float32) {
		cache, err := m.NewCache(n)
		if err != nil {
			t.Fatal(err)
		}
		logits, nll, err := m.Forward(cache, ids[:n-tail], pos[:n-tail], allRows(n-tail), targets[:n-tail])
		if err != nil {
			t.Fatal(err)
		}
		l, s := decodeEach(t, m, cache, ids[n-tail:n], pos[n-tail:n], targets[n-tail:n])
		return append(logits, l...), append(nll, s...)
	}
	defer func() { m.wholeCapacity, writeByGather, plainSoftmax = false, false, false }()
	m.wholeCapacity, writeByGather, plainSoftmax = true, true, true
	refLogits, refNLL := runBoth()
	for _, c := range []struct {
		name                         string
		wholeCapacity, gather, plain bool
	}{
		{"growing cache", false, true, true},
		{"softmax's division on the output", true, true, false},
		{"all three, DynamicUpdateSlice", false, false, false},
	} {
		m.wholeCapacity, writeByGather, plainSoftmax = c.wholeCapacity, c.gather, c.plain
		clear(m.execs) // writeByGather is read when a graph is built
		logits, nll := runBoth()
		dl, dn := maxAbsDiff(refLogits, logits), maxNLLDiff(refNLL, nll)
		t.Logf("%d tokens in chunks of %d, the last %d decoded: %s against the model as first written: max |Δlogit| %.3g, max |ΔNLL| %.3g", n, chunk, tail, c.name, dl, dn)
		if dl > 5e-4 || dn > 1e-4 {
			t.Errorf("%s: want the same logits and losses to float32 rounding (≤ 5e-4, ≤ 1e-4)", c.name)
		}
	}
}

// decodeEach runs ids one call each after those in cache, as decoding
// does, and returns every call's logits and loss.
func decodeEach(t *testing.T, m *Model, cache *Cache, ids, pos, targets []int32) ([][]float32, []float32) {
	t.Helper()
	var logits [][]float32
	var nll []float32
	for i := range ids {
		l, s, err := m.Forward(cache, ids[i:i+1], pos[i:i+1], []int{0}, targets[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		logits, nll = append(logits, l...), append(nll, s...)
	}
	return logits, nll
}

// TestCloneSharesAPrefix runs a prefix once, then two different
// continuations from clones of its cache: each must give what it gives
// when the whole sequence runs alone, and neither may disturb the other.
func TestCloneSharesAPrefix(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, prefix, chunk := tokensFor(160, 16), tokensFor(100, 10), tokensFor(64, 8)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize = chunk
	a := g.IDs[:n]
	b := append(append([]int32(nil), g.IDs[:prefix]...), g.IDs[n:2*n-prefix]...) // same prefix, another continuation
	pos := positions(n)
	// Every row, and losses (of no targets): the graphs a scoring run uses.
	none := make([]int32, n)
	for i := range none {
		none[i] = -1
	}
	alone := func(ids []int32) [][]float32 {
		cache, _ := m.NewCache(n)
		l, _, err := m.Forward(cache, ids, pos, allRows(n), none)
		if err != nil {
			t.Fatal(err)
		}
		return l[prefix:]
	}
	wantA, wantB := alone(a), alone(b)
	shared, _ := m.NewCache(n)
	if _, _, err := m.Forward(shared, a[:prefix], pos[:prefix], nil, none[:prefix]); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ids  []int32
		want [][]float32
	}{{"first", a, wantA}, {"second", b, wantB}, {"first again", a, wantA}} {
		cache := shared.Clone()
		got, _, err := m.Forward(cache, c.ids[prefix:], pos[prefix:], allRows(n-prefix), none[prefix:])
		if err != nil {
			t.Fatal(err)
		}
		d := maxAbsDiff(c.want, got)
		t.Logf("%s continuation of %d tokens after a shared prefix of %d: max |Δlogit| %.3g against the whole sequence alone", c.name, n-prefix, prefix, d)
		if d > 5e-4 {
			t.Errorf("%s continuation: want the logits of the sequence alone to float32 rounding (≤ 5e-4)", c.name)
		}
	}
	if shared.Len != prefix {
		t.Errorf("the shared prefix's cache holds %d positions after its clones ran, want %d", shared.Len, prefix)
	}
}

// TestChunksThatOnlyFillTheCache runs a sequence in chunks asking only for
// the last row's logits, so that earlier chunks return nothing but the
// caches: the logits must be those of a run that asks for every row. (On
// the pure-Go backend a graph whose last layer computed queries, output and
// feed-forward for no output failed at run time.)
func TestChunksThatOnlyFillTheCache(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, chunk := tokensFor(96, 16), tokensFor(32, 8)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize = chunk
	pos := positions(n)
	full, _ := m.NewCache(n)
	want, _, err := m.Forward(full, g.IDs[:n], pos, allRows(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range [][]int{{n - 1}, nil} {
		cache, _ := m.NewCache(n)
		got, _, err := m.Forward(cache, g.IDs[:n], pos, rows, nil)
		if err != nil {
			t.Fatalf("rows %v: %v", rows, err)
		}
		if cache.Len != n {
			t.Fatalf("rows %v: cache holds %d positions after %d tokens", rows, cache.Len, n)
		}
		if rows == nil {
			if len(got) != 0 {
				t.Fatalf("no rows asked for, got %d", len(got))
			}
			continue
		}
		if d := maxAbsDiff(want[n-1:], got); d > 5e-4 {
			t.Errorf("last row's logits differ by %.3g from a run asking for every row", d)
		}
	}
}
