package smollm

import (
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// tokensFor returns how many of the golden's tokens a test runs: fewer on
// the pure-Go backend.
func tokensFor(xla, goBackend int) int {
	if onGoBackend() {
		return goBackend
	}
	return xla
}

func meanNLL(nll []float32) float64 {
	s := 0.0
	for _, v := range nll[:len(nll)-1] { // the last token has no target
		s += float64(v)
	}
	return s / float64(len(nll)-1)
}

// TestLayoutsGiveTheSameLogits runs the two routes of lesson 4's
// "Converting checkpoints": the GGUF rows (llama.cpp's permutation, pairs
// adjacent) with interleaved RoPE, and the rows permuted back by
// posenc.ConvertQKWeightsTo (Hugging Face's, pairs in halves) with halves
// RoPE. They must agree to rounding (1e-3, the bar against Hugging Face; XLA sums
// in its own order). The third route, GGUF rows with halves
// RoPE, is the bug a wrong layout causes: it must change the logits, and
// raise the loss.
func TestLayoutsGiveTheSameLogits(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n := tokensFor(128, 16)
	halves, err := w.WithLayout(posenc.Halves)
	if err != nil {
		t.Fatal(err)
	}
	wrong := *w
	wrong.Layout = posenc.Halves
	var logits [3][][]float32
	var nll [3]float64
	for i, ws := range []*Weights{w, halves, &wrong} {
		m, err := New(posgraph.Backend(), ws, posenc.Scaling{})
		if err != nil {
			t.Fatal(err)
		}
		l, s := run(t, m, g.IDs, n)
		logits[i], nll[i] = l, meanNLL(s)
	}
	same, bug := maxAbsDiff(logits[0], logits[1]), maxAbsDiff(logits[0], logits[2])
	t.Logf("%d tokens: interleaved on GGUF rows vs halves on HF rows: max |Δlogit| %.3g; mean NLL %.4f and %.4f; halves on GGUF rows: max |Δlogit| %.3g, mean NLL %.4f",
		n, same, nll[0], nll[1], bug, nll[2])
	if same > 1e-3 {
		t.Errorf("the two layouts differ by %.3g, want ≤ 1e-3 (the bar against Hugging Face)", same)
	}
	if bug < 1 || nll[2] <= nll[0] {
		t.Errorf("halves RoPE on the GGUF rows changed the logits by only %.3g (NLL %.4f vs %.4f): the test cannot see a wrong layout", bug, nll[2], nll[0])
	}
}

// TestCacheMatchesPrefill runs the same tokens three ways: in one chunk, in
// chunks of 8 reading the cache of the earlier ones, and the last tokens
// one at a time (decoding with the cache). The logits must agree to
// rounding.
func TestCacheMatchesPrefill(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, tail := tokensFor(64, 16), 4
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize = n
	whole, _ := run(t, m, g.IDs, n)
	m.ChunkSize = 8
	chunked, _ := run(t, m, g.IDs, n)

	cache, err := m.NewCache(n)
	if err != nil {
		t.Fatal(err)
	}
	ids, pos := g.IDs[:n], positions(n)
	stepped, _, err := m.Forward(cache, ids[:n-tail], pos[:n-tail], allRows(n-tail), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := n - tail; i < n; i++ {
		l, _, err := m.Forward(cache, ids[i:i+1], pos[i:i+1], []int{0}, nil)
		if err != nil {
			t.Fatal(err)
		}
		stepped = append(stepped, l...)
	}
	if cache.Len != n {
		t.Errorf("cache holds %d positions after %d tokens", cache.Len, n)
	}
	dc, ds := maxAbsDiff(whole, chunked), maxAbsDiff(whole, stepped)
	t.Logf("%d tokens: chunks of 8 vs one chunk: max |Δlogit| %.3g; last %d decoded one by one: %.3g", n, dc, tail, ds)
	if dc > 1e-3 || ds > 1e-3 {
		t.Errorf("want ≤ 1e-3")
	}
}

// TestShiftedPositions: RoPE's scores depend only on m − n (lesson 4, §2),
// so shifting every position id by the same offset leaves the logits as
// they were, up to the rounding of larger angles.
func TestShiftedPositions(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n := tokensFor(64, 16)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := run(t, m, g.IDs, n)
	cache, _ := m.NewCache(n)
	shifted := positions(n)
	for i := range shifted {
		shifted[i] += 1000
	}
	moved, _, err := m.Forward(cache, g.IDs[:n], shifted, allRows(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	d := maxAbsDiff(base, moved)
	t.Logf("%d tokens at positions 1000… vs 0…: max |Δlogit| %.3g", n, d)
	if d > 1e-2 {
		t.Errorf("shifting the positions changed the logits by %.3g, want ≤ 1e-2", d)
	}
}

func TestForwardBadInput(t *testing.T) {
	w := loadForTest(t)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	cache, _ := m.NewCache(4)
	for _, c := range []struct {
		name        string
		tokens, pos []int32
		rows        []int
		want        string
	}{
		{"no tokens", nil, nil, nil, "no tokens"},
		{"positions", []int32{1, 2}, []int32{0}, nil, "1 positions for 2 tokens"},
		{"vocabulary", []int32{49152}, []int32{0}, nil, "token id 49152 outside"},
		{"rows", []int32{1, 2}, []int32{0, 1}, []int{1, 0}, "rows must be ascending"},
		{"capacity", make([]int32, 600), make([]int32, 600), nil, "do not fit a cache of 4"},
	} {
		_, _, err := m.Forward(cache, c.tokens, c.pos, c.rows, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
