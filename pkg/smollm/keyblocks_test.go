package smollm

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// TestKeyBlocksPlan checks keyBlocks by hand: which slots each block
// holds, which are masked, and which are left out.
func TestKeyBlocksPlan(t *testing.T) {
	for _, c := range []struct {
		name            string
		n, c, start, sz int
		causal          bool
		want            []keyBlock
	}{
		{"first chunk: all on the diagonal", 8, 8, 0, 4, true,
			[]keyBlock{{0, 4, true}, {4, 8, true}}},
		{"third chunk: two clean blocks, the diagonal in two", 24, 8, 16, 8, true,
			[]keyBlock{{0, 8, false}, {8, 16, false}, {16, 24, true}}},
		{"start inside a block, slots after the chunk unread", 24, 5, 10, 4, true,
			[]keyBlock{{0, 4, false}, {4, 8, false}, {8, 10, false}, {10, 14, true}, {14, 15, true}}},
		{"blocks larger than the cache", 6, 2, 3, 100, true,
			[]keyBlock{{0, 3, false}, {3, 5, true}}},
		{"an explicit mask: every slot, every block masked", 10, 10, 0, 4, false,
			[]keyBlock{{0, 4, true}, {4, 8, true}, {8, 10, true}}},
	} {
		if got := keyBlocks(c.n, c.c, c.start, c.sz, c.causal); !slices.Equal(got, c.want) {
			t.Errorf("%s: keyBlocks(%d, %d, %d, %d, %v) = %v, want %v", c.name, c.n, c.c, c.start, c.sz, c.causal, got, c.want)
		}
	}
}

// TestDiagonalPartsPlan checks diagonalParts and attentionPlan by hand:
// each part's queries read the chunk's slots up to the last of them, and a
// block is masked only where it holds a slot past the part's first query.
func TestDiagonalPartsPlan(t *testing.T) {
	defer func(v int) { minPartRows = v }(minPartRows)
	minPartRows = 2
	for _, c := range []struct {
		name            string
		n, c, start, sz int
		want            []queryPart
	}{
		{"first chunk of 8 in 4 parts, blocks of 4", 8, 8, 0, 4, []queryPart{
			{0, 2, []keyBlock{{0, 2, true}}},
			{2, 4, []keyBlock{{0, 4, true}}},
			{4, 6, []keyBlock{{0, 4, false}, {4, 6, true}}},
			{6, 8, []keyBlock{{0, 4, false}, {4, 8, true}}},
		}},
		{"a chunk of 6 from slot 10: 3 parts of 2", 16, 6, 10, 100, []queryPart{
			{0, 2, []keyBlock{{10, 12, true}}},
			{2, 4, []keyBlock{{10, 14, true}}},
			{4, 6, []keyBlock{{10, 16, true}}},
		}},
		{"blocks of one slot: those before a part's first query unmasked", 6, 6, 0, 1, []queryPart{
			{0, 2, []keyBlock{{0, 1, false}, {1, 2, true}}},
			{2, 4, []keyBlock{{0, 1, false}, {1, 2, false}, {2, 3, false}, {3, 4, true}}},
			{4, 6, []keyBlock{{0, 1, false}, {1, 2, false}, {2, 3, false}, {3, 4, false}, {4, 5, false}, {5, 6, true}}},
		}},
		{"too small to split", 8, 3, 4, 4, nil},
	} {
		got := diagonalParts(c.n, c.c, c.start, c.sz)
		if !slices.EqualFunc(got, c.want, func(a, b queryPart) bool { return a.lo == b.lo && a.hi == b.hi && slices.Equal(a.blocks, b.blocks) }) {
			t.Errorf("%s: diagonalParts(%d, %d, %d, %d) = %v, want %v", c.name, c.n, c.c, c.start, c.sz, got, c.want)
		}
	}
	shared, parts := attentionPlan(24, 8, 16, 8, true)
	if !slices.Equal(shared, []keyBlock{{0, 8, false}, {8, 16, false}}) || len(parts) != 4 {
		t.Errorf("attentionPlan(24, 8, 16, 8, causal) = %v, %v; want the 2 blocks before slot 16 shared, 4 parts", shared, parts)
	}
	if shared, parts := attentionPlan(10, 10, 0, 4, false); parts != nil || len(shared) != 3 {
		t.Errorf("attentionPlan with an explicit mask = %v, %v; want keyBlocks' 3 masked blocks, no parts", shared, parts)
	}
}

// TestKeyBlocksMatchWholeScores runs the same tokens through attention in
// key blocks (online softmax), through the whole score tensor with the
// division on the output, and through graph.Softmax as first written, and
// wants the same logits and losses to float32 rounding: the three differ
// only in the order of their sums. The sizes give several blocks, a
// diagonal block that the chunk's first queries read none of, blocks cut
// short, and cache slots past the chunk (a continuation from a position
// that is not a multiple of the chunk, in a cache rounded up to one); the
// decoding steps at the end read the cache whole on every route. Then the
// padding and packing experiments' explicit masks, in blocks, against the
// whole scores.
func TestKeyBlocksMatchWholeScores(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, split, chunk, block, tail := tokensFor(150, 22), tokensFor(37, 7), tokensFor(64, 8), tokensFor(24, 3), 2
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize, m.KeyBlockSize = chunk, block
	ids := g.IDs[:n]
	runAll := func() ([][]float32, []float32) { return runSplit(t, m, ids, split, tail) }
	defer func() { wholeScores, plainSoftmax, minPartRows = false, false, 64 }()
	blockLogits, blockNLL := runAll()

	// The causal diagonal in query parts (diagonalParts), against one part.
	minPartRows = max(1, chunk/maxDiagonalParts)
	clear(m.execs) // minPartRows is read when a graph is built
	partLogits, partNLL := runAll()
	minPartRows = 64
	clear(m.execs)
	dl, dn := maxAbsDiff(partLogits, blockLogits), maxNLLDiff(partNLL, blockNLL)
	t.Logf("the chunks' queries in parts of at least %d against one part: max |Δlogit| %.3g, max |ΔNLL| %.3g", max(1, chunk/maxDiagonalParts), dl, dn)
	if dl > 5e-4 || dn > 1e-4 {
		t.Errorf("query parts against one part: want the same logits and losses to float32 rounding (≤ 5e-4, ≤ 1e-4)")
	}
	for _, c := range []struct {
		name  string
		plain bool
	}{{"whole scores", false}, {"graph.Softmax as first written", true}} {
		wholeScores, plainSoftmax = true, c.plain
		clear(m.execs) // wholeScores is read when a graph is built
		logits, nll := runAll()
		dl, dn := maxAbsDiff(logits, blockLogits), maxNLLDiff(nll, blockNLL)
		t.Logf("%d tokens (%d, then the rest in chunks of %d, the last %d decoded), key blocks of %d against %s: max |Δlogit| %.3g, max |ΔNLL| %.3g",
			n, split, chunk, tail, block, c.name, dl, dn)
		if dl > 5e-4 || dn > 1e-4 {
			t.Errorf("key blocks against %s: want the same logits and losses to float32 rounding (≤ 5e-4, ≤ 1e-4)", c.name)
		}
	}

	// Explicit masks: left padding (queries that read no slot of a block)
	// and a block-diagonal packing mask, every block masked.
	mask := func() ([]Variant, []Variant) {
		probeExecs.Range(func(k, _ any) bool { // wholeScores is read when a probe is built
			if k.(probeKey).m == m {
				probeExecs.Delete(k)
			}
			return true
		})
		pad, err := PaddingExperiment(m, ids[:tokensFor(40, 6)], tokensFor(16, 3), EndOfText)
		if err != nil {
			t.Fatal(err)
		}
		pack, err := PackingExperiment(m, ids[:tokensFor(30, 5)], ids[tokensFor(30, 5):tokensFor(70, 9)])
		if err != nil {
			t.Fatal(err)
		}
		return pad, pack
	}
	wholeScores, plainSoftmax = false, false
	blockPad, blockPack := mask()
	wholeScores = true
	wholePad, wholePack := mask()
	for i := range blockPad {
		checkVariant(t, fmt.Sprintf("key blocks of %d", block), "the whole scores", blockPad[i], wholePad[i])
	}
	for i := range blockPack {
		checkVariant(t, fmt.Sprintf("key blocks of %d", block), "the whole scores", blockPack[i], wholePack[i])
	}
}

// runSplit runs ids through m from position 0 with every row's logits
// and loss: the first split in one call, the rest but the last tail in
// chunks, the last tail decoded one at a time.
func runSplit(t *testing.T, m *Model, ids []int32, split, tail int) ([][]float32, []float32) {
	t.Helper()
	n := len(ids)
	pos := positions(n)
	targets := append(append([]int32(nil), ids[1:n]...), -1)
	cache, err := m.NewCache(n)
	if err != nil {
		t.Fatal(err)
	}
	var logits [][]float32
	var nll []float32
	for _, span := range [][2]int{{0, split}, {split, n - tail}} {
		l, s, err := m.Forward(cache, ids[span[0]:span[1]], pos[span[0]:span[1]], allRows(span[1]-span[0]), targets[span[0]:span[1]])
		if err != nil {
			t.Fatal(err)
		}
		logits, nll = append(logits, l...), append(nll, s...)
	}
	l, s := decodeEach(t, m, cache, ids[n-tail:n], pos[n-tail:n], targets[n-tail:n])
	return append(logits, l...), append(nll, s...)
}

// checkVariant wants an experiment's variant to land as far from its
// reference by one route (gotRoute) as by another (wantRoute).
func checkVariant(t *testing.T, gotRoute, wantRoute string, got, want Variant) {
	t.Helper()
	d := got.MaxDiff - want.MaxDiff
	if d < 0 {
		d = -d
	}
	if got.Name != want.Name || d > 5e-4 {
		t.Errorf("%s: max |Δlogit| %.4g by %s, %.4g by %s (%s)", got.Name, got.MaxDiff, gotRoute, want.MaxDiff, wantRoute, want.Name)
	}
}

// TestKeyBlockSizeBad wants a key block size below 1, and a chunk size
// below 1, refused by name, by Forward and by the experiments' probe,
// before any weights are read (the model needs none here).
func TestKeyBlockSizeBad(t *testing.T) {
	for _, c := range []struct {
		chunk, block int
		want         string
	}{
		{DefaultChunkSize, 0, "key block size 0"},
		{DefaultChunkSize, -3, "key block size -3"},
		{0, DefaultKeyBlockSize, "chunk size 0"},
	} {
		m := &Model{ChunkSize: c.chunk, KeyBlockSize: c.block}
		cache, _ := m.NewCache(4)
		_, _, err := m.Forward(cache, []int32{1, 2}, []int32{0, 1}, nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Forward with ChunkSize %d, KeyBlockSize %d: %v, want an error containing %q", c.chunk, c.block, err, c.want)
		}
		if c.block >= 1 {
			continue
		}
		if _, err := m.probe(probeIn{tokens: [][]int32{{1, 2}}, positions: [][]int32{{0, 1}}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("probe with KeyBlockSize %d: %v, want an error containing %q", c.block, err, c.want)
		}
	}
}
