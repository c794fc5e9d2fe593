package smollm

import (
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// TestKernelMatchesGraphAttention runs the same tokens with attention by
// cpuattention's kernel and by GoMLX's operations (key blocks), and wants
// the same logits and losses to float32 rounding, as
// TestKeyBlocksMatchWholeScores wants of key blocks and whole scores: a
// first call, chunks that continue it from a slot that is not a multiple
// of the chunk, decoding; then the padding and packing experiments'
// explicit masks, and a prefill that asks for its last row only (the last
// layer's attentionAt). It runs where the kernel does (XLA's CPU plugin, a
// CPU with AVX-512): make xla-test.
func TestKernelMatchesGraphAttention(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	if m.noKernel != nil {
		t.Skipf("no kernel here: %v", m.noKernel)
	}
	defer func() { graphAttention = false }()
	n, split, chunk, tail := tokensFor(300, 22), tokensFor(37, 7), tokensFor(128, 8), 2
	m.ChunkSize = chunk
	ids := g.IDs[:n]
	route := func(graph bool) (logits [][]float32, nll []float32, pad, pack []Variant, last []float32) {
		graphAttention = graph
		clear(m.execs) // graphAttention is read when a graph is built
		probeExecs.Range(func(k, _ any) bool {
			if k.(probeKey).m == m {
				probeExecs.Delete(k)
			}
			return true
		})
		logits, nll = runSplit(t, m, ids, split, tail)
		var err error
		if pad, err = PaddingExperiment(m, ids[:tokensFor(40, 6)], tokensFor(16, 3), EndOfText); err != nil {
			t.Fatal(err)
		}
		if pack, err = PackingExperiment(m, ids[:tokensFor(30, 5)], ids[tokensFor(30, 5):tokensFor(70, 9)]); err != nil {
			t.Fatal(err)
		}
		cache, err := m.NewCache(n)
		if err != nil {
			t.Fatal(err)
		}
		l, _, err := m.Forward(cache, ids, positions(n), []int{n - 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return logits, nll, pad, pack, l[0]
	}
	kLogits, kNLL, kPad, kPack, kLast := route(false)
	gLogits, gNLL, gPad, gPack, gLast := route(true)
	dl, dn, dLast := maxAbsDiff(kLogits, gLogits), maxNLLDiff(kNLL, gNLL), maxAbsDiff([][]float32{kLast}, [][]float32{gLast})
	t.Logf("%d tokens (%d, then chunks of %d, the last %d decoded): kernel against key blocks of %d: max |Δlogit| %.3g, max |ΔNLL| %.3g; last row only: %.3g",
		n, split, chunk, tail, m.KeyBlockSize, dl, dn, dLast)
	if dl > 5e-4 || dn > 1e-4 || dLast > 5e-4 {
		t.Errorf("kernel against key blocks: want the same logits and losses to float32 rounding (≤ 5e-4, ≤ 1e-4)")
	}
	for i := range kPad {
		checkVariant(t, "the kernel", "key blocks", kPad[i], gPad[i])
	}
	for i := range kPack {
		checkVariant(t, "the kernel", "key blocks", kPack[i], gPack[i])
	}
}
