package smollm

import (
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/internal/modeltest"
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

	stepped, cache := prefillThenDecode(t, m, g.IDs[:n], positions(n), allRows(n-tail), tail)
	if cache.Len != n {
		t.Errorf("cache holds %d positions after %d tokens", cache.Len, n)
	}
	dc, ds := maxAbsDiff(whole, chunked), maxAbsDiff(whole, stepped)
	t.Logf("%d tokens: chunks of 8 vs one chunk: max |Δlogit| %.3g; last %d decoded one by one: %.3g", n, dc, tail, ds)
	if dc > 1e-3 || ds > 1e-3 {
		t.Errorf("want ≤ 1e-3")
	}
}

// TestLastLayerOnlyAskedRows: when a call asks the logits of a few rows
// and no losses, the last layer runs only those rows past its keys and
// values (attentionAt). The logits must be those of the last layer run on
// every row, and the cache the same, so decoding after it gives the same
// logits too. Rows are asked in both chunks, one near the start of its
// chunk (a mask row other than the last), and two in the second.
func TestLastLayerOnlyAskedRows(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n, tail := tokensFor(64, 16), 2
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	m.ChunkSize = (n - tail) / 2
	ids, pos := g.IDs[:n], positions(n)
	rows := []int{2, m.ChunkSize + 1, n - tail - 1}
	defer func() { allLastRows = false }()
	asked, _ := prefillThenDecode(t, m, ids, pos, rows, tail)
	allLastRows = true
	clear(m.execs) // allLastRows is read when a graph is built
	every, _ := prefillThenDecode(t, m, ids, pos, rows, tail)
	d := maxAbsDiff(asked, every)
	t.Logf("%d tokens in chunks of %d, logits of rows %v, then %d decoded: the last layer on those rows only against every row: max |Δlogit| %.3g", n-tail, m.ChunkSize, rows, tail, d)
	if len(asked) != len(rows)+tail || d > 1e-4 {
		t.Errorf("want %d rows of logits within 1e-4 of the last layer run on every row, got %d rows, max |Δlogit| %.3g", len(rows)+tail, len(asked), d)
	}
}

// prefillThenDecode runs ids into a fresh cache: all but the last tail in
// one Forward asking the logits of rows, then the tail one token a call.
// It returns those rows' logits, then each decoded token's, and the cache.
func prefillThenDecode(t *testing.T, m *Model, ids, pos []int32, rows []int, tail int) ([][]float32, *Cache) {
	t.Helper()
	n := len(ids)
	cache, err := m.NewCache(n)
	if err != nil {
		t.Fatal(err)
	}
	logits, _, err := m.Forward(cache, ids[:n-tail], pos[:n-tail], rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := n - tail; i < n; i++ {
		l, _, err := m.Forward(cache, ids[i:i+1], pos[i:i+1], []int{0}, nil)
		if err != nil {
			t.Fatal(err)
		}
		logits = append(logits, l...)
	}
	return logits, cache
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

// TestScalingsApply runs posenc's scalings on the trained model: dynamic NTK
// below the trained length is no scaling at all (Hugging Face's rule: the
// base grows only past original_max_position_embeddings), while position
// interpolation by 2 (linear) moves every rotation and changes the logits.
func TestScalingsApply(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n := tokensFor(64, 16)
	logits := map[string][][]float32{}
	for name, sc := range map[string]posenc.Scaling{
		"none":    {},
		"dynamic": posenc.DynamicNTKScaling(2, w.ContextLen, n),
		"linear":  posenc.LinearScaling(2),
	} {
		m, err := New(posgraph.Backend(), w, sc)
		if err != nil {
			t.Fatal(err)
		}
		logits[name], _ = run(t, m, g.IDs, n)
	}
	dyn, lin := maxAbsDiff(logits["none"], logits["dynamic"]), maxAbsDiff(logits["none"], logits["linear"])
	t.Logf("%d tokens: dynamic NTK ×2 vs none: max |Δlogit| %.3g; linear ×2 vs none: %.3g", n, dyn, lin)
	if dyn > 1e-5 || lin < 0.1 {
		t.Errorf("want dynamic NTK below the trained length to change nothing (got %.3g) and linear ×2 to change the logits (got %.3g)", dyn, lin)
	}
}

// The model's tokenizer is pkg/bpe's, read from the same file: the chat
// prompt's special tokens stay whole, and decoding gives the text back.
func TestLoadTokenizer(t *testing.T) {
	path, err := Find()
	modeltest.Require(t, err)
	tok, err := LoadTokenizer(path)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := tok.Encode(ChatPrompt("Hello world 12"))
	if err != nil {
		t.Fatal(err)
	}
	if ids[0] != ImStart || !slices.Contains(ids, ImEnd) {
		t.Errorf("chat prompt ids %v: want <|im_start|> (%d) first and <|im_end|> (%d) whole", ids, ImStart, ImEnd)
	}
	// Hugging Face's tokenizers on SmolLM2: "Hello" 19556, " world" 905, " " 216, "1" 33, "2" 34.
	plain, err := tok.Encode("Hello world 12")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{19556, 905, 216, 33, 34}; !slices.Equal(plain, want) {
		t.Errorf("Encode(%q) = %v, want %v", "Hello world 12", plain, want)
	}
	if back, err := tok.Decode(plain); err != nil || back != "Hello world 12" {
		t.Errorf("Decode = %q, %v; want the text back", back, err)
	}
}

// TestWithScalingSharesCompiledCalls checks that a model WithScaling
// makes gives the logits of New under the same scaling (the same bits on
// the pure-Go backend, which runs each op as written; to 1e-4 on XLA,
// which fuses a constant table and one computed from inputs differently),
// and that every scaling runs the calls the first one compiled. Dynamic
// NTK with no SeqLen, and a rounded rotation, compile calls of their own.
func TestWithScalingSharesCompiledCalls(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	n := tokensFor(64, 16)
	base, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	base.ChunkSize = n / 2 // two chunks: the second reads the first's cache
	compiled := -1
	for _, c := range []struct {
		name string
		sc   posenc.Scaling
	}{
		{"none", posenc.Scaling{}},
		{"yarn", posenc.YaRNScaling(4, n/2)},
		{"linear", posenc.LinearScaling(2)},
		{"dynamic", posenc.DynamicNTKScaling(4, n/2, n)},
	} {
		shared, err := base.WithScaling(c.sc)
		if err != nil {
			t.Fatal(err)
		}
		own, err := New(posgraph.Backend(), w, c.sc)
		if err != nil {
			t.Fatal(err)
		}
		own.ChunkSize = n / 2
		got, _ := run(t, shared, g.IDs, n)
		want, _ := run(t, own, g.IDs, n)
		d, tol := maxAbsDiff(got, want), 1e-4
		if onGoBackend() {
			tol = 0
		}
		if d > tol {
			t.Errorf("%s: WithScaling's logits differ from New's by %.3g, want at most %g", c.name, d, tol)
		}
		if compiled < 0 {
			compiled = len(base.shared)
		} else if len(base.shared) != compiled {
			t.Errorf("%s: %d calls compiled after the first scaling's %d: want the same graphs for every scaling", c.name, len(base.shared), compiled)
		}
		t.Logf("%s: max |Δlogit| %.3g against New's, %d shared calls", c.name, d, len(base.shared))
	}
	if compiled < 1 {
		t.Fatalf("no call was compiled for WithScaling's models")
	}
	dyn, err := base.WithScaling(posenc.DynamicNTKScaling(4, n/2, 0))
	if err != nil {
		t.Fatal(err)
	}
	rounded, err := base.WithScaling(posenc.LinearScaling(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := rounded.SetRoPEPrecision(posenc.RoPEPrecision{}); err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]*Model{"dynamic NTK with no seq_len": dyn, "rounded rotation": rounded} {
		run(t, m, g.IDs, n)
		if m.vectors != nil || len(m.execs) == 0 || len(base.shared) != compiled {
			t.Errorf("%s: vectors %v, %d calls of its own, %d shared (was %d): want calls of its own", name, m.vectors != nil, len(m.execs), len(base.shared), compiled)
		}
	}
	if _, err := base.WithScaling(posenc.LinearScaling(0.5)); err == nil {
		t.Error("WithScaling(linear ×0.5): no error, want the scaling's")
	}
}
