package smollm

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gomlx/compute/gobackend"
	"github.com/posenc/course/internal/modeltest"
	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// hfGolden is testdata/logits.json and logits.f32, written by
// scripts/model/golden_logits.py: Hugging Face transformers' LlamaForCausalLM
// on the same GGUF file, float32 on the CPU.
type hfGolden struct {
	Source    string    `json:"source"`
	IDs       []int32   `json:"ids"`
	Argmax    []int     `json:"argmax"`
	TopIDs    [][]int   `json:"top_ids"`
	Columns   []int     `json:"columns"`
	WholeRows []int     `json:"whole_rows"`
	Vocab     int       `json:"vocab"`
	NLL       []float64 `json:"nll"`
	MeanNLL   float64   `json:"mean_nll"`

	colLogits, topLogits, rowLogits [][]float32 // [n][C], [n][K], [R][V]
}

func readHFGolden(t *testing.T) *hfGolden {
	t.Helper()
	b, err := os.ReadFile("testdata/logits.json")
	if err != nil {
		t.Fatal(err)
	}
	g := &hfGolden{}
	if err := json.Unmarshal(b, g); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/logits.f32")
	if err != nil {
		t.Fatal(err)
	}
	next := func(rows, cols int) [][]float32 {
		out := make([][]float32, rows)
		for i := range out {
			out[i] = make([]float32, cols)
			for j := range out[i] {
				out[i][j] = math.Float32frombits(binary.LittleEndian.Uint32(raw))
				raw = raw[4:]
			}
		}
		return out
	}
	n := len(g.IDs)
	g.colLogits = next(n, len(g.Columns))
	g.topLogits = next(n, len(g.TopIDs[0]))
	g.rowLogits = next(len(g.WholeRows), g.Vocab)
	if len(raw) != 0 {
		t.Fatalf("logits.f32 has %d bytes too many", len(raw))
	}
	return g
}

// testWeights loads the model once for every test of the package.
var testWeights = sync.OnceValues(func() (*Weights, error) {
	path, err := Find()
	if err != nil {
		return nil, err
	}
	return Load(path)
})

// loadForTest returns the weights, skipping (or failing on CI) without the
// model, and skipping with -short (make check): these are end-to-end runs.
func loadForTest(t *testing.T) *Weights {
	t.Helper()
	if testing.Short() {
		t.Skip("runs SmolLM2-135M (-short)")
	}
	_, err := Find()
	modeltest.Require(t, err)
	w, err := testWeights()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// onGoBackend reports whether the tests run on the pure-Go backend, where
// they run fewer tokens (about 100 times slower than XLA on the CPU).
func onGoBackend() bool {
	return posgraph.Backend().String() == gobackend.BackendName
}

func positions(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// run returns the logits of every row and the NLL of each next token for
// the first n ids, in one Forward (chunks of m.ChunkSize).
func run(t *testing.T, m *Model, ids []int32, n int) ([][]float32, []float32) {
	t.Helper()
	cache, err := m.NewCache(n)
	if err != nil {
		t.Fatal(err)
	}
	targets := append(append([]int32(nil), ids[1:n]...), -1)
	logits, nll, err := m.Forward(cache, ids[:n], positions(n), allRows(n), targets)
	if err != nil {
		t.Fatal(err)
	}
	return logits, nll
}

// TestLogitsMatchHuggingFace compares the logits with transformers' on the
// committed tokens: 512 on XLA (every chunk of 128 reads the cache of the
// earlier ones), 32 on the pure-Go backend. Wanted: |Δlogit| ≤ 1e-3 at
// the fixed columns, the top 8 and the whole rows kept, the same argmax at
// every position, and the NLL of each next token within 1e-3. It runs
// twice: in key blocks of DefaultKeyBlockSize (a chunk reads at most 512
// slots: one block before the chunk, one on its diagonal) and of 96 slots
// (XLA; 6 on the Go backend), where a chunk reads up to 6, two of them cut short.
func TestLogitsMatchHuggingFace(t *testing.T) {
	w := loadForTest(t)
	g := readHFGolden(t)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []int{DefaultKeyBlockSize, tokensFor(96, 6)} {
		m.KeyBlockSize = block
		matchHuggingFace(t, m, g)
	}
}

// matchHuggingFace is TestLogitsMatchHuggingFace on model m.
func matchHuggingFace(t *testing.T, m *Model, g *hfGolden) {
	t.Helper()
	n := len(g.IDs)
	if onGoBackend() {
		n = 32
	}
	m.ChunkSize = 128
	start := time.Now()
	logits, nll := run(t, m, g.IDs, n)
	elapsed := time.Since(start)

	maxDiff, where := 0.0, ""
	check := func(got, want float32, what string, row, col int) {
		if d := math.Abs(float64(got) - float64(want)); d > maxDiff || math.IsNaN(d) {
			maxDiff, where = d, fmt.Sprintf("%s: row %d, token %d", what, row, col)
		}
	}
	agree := 0
	for i := range n {
		for j, c := range g.Columns {
			check(logits[i][c], g.colLogits[i][j], "column", i, c)
		}
		for j, c := range g.TopIDs[i] {
			check(logits[i][c], g.topLogits[i][j], "top", i, c)
		}
		if Argmax(logits[i]) == g.Argmax[i] {
			agree++
		}
	}
	for k, r := range g.WholeRows {
		if r < n {
			for c := range g.Vocab {
				check(logits[r][c], g.rowLogits[k][c], "whole row", r, c)
			}
		}
	}
	maxNLL := 0.0
	for i := range n - 1 {
		maxNLL = math.Max(maxNLL, math.Abs(float64(nll[i])-g.NLL[i]))
	}
	t.Logf("%d tokens on %s in %.1f s (chunks of %d, key blocks of %d, compilation included): max |Δlogit| %.3g (%s), argmax agrees at %d/%d, max |ΔNLL| %.3g; HF: %s",
		n, posgraph.Backend().String(), elapsed.Seconds(), m.ChunkSize, m.KeyBlockSize, maxDiff, where, agree, n, maxNLL, g.Source)
	if !(maxDiff <= 1e-3) || agree != n || !(maxNLL <= 1e-3) {
		t.Errorf("key blocks of %d: want max |Δlogit| ≤ 1e-3, every argmax equal, max |ΔNLL| ≤ 1e-3", m.KeyBlockSize)
	}
}

// maxAbsDiff returns the largest |a−b| over the rows.
func maxAbsDiff(a, b [][]float32) float64 {
	d := 0.0
	for i := range a {
		for j := range a[i] {
			d = math.Max(d, math.Abs(float64(a[i][j])-float64(b[i][j])))
		}
	}
	return d
}
