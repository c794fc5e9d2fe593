package smollm

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posgraph"
)

// experimentIDs returns the first n of the golden's tokens (an English
// text), skipping on the pure-Go backend, where the experiments' dozens of
// forward passes take minutes (xla-test.sh runs them on XLA's CPU plugin).
func experimentIDs(t *testing.T, n int) (*Weights, []int32) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the lesson's experiments load the model several times")
	}
	w := loadForTest(t)
	if onGoBackend() {
		t.Skip("the lesson's experiments run on XLA (scripts/xla-test.sh); the pure-Go backend takes minutes for them")
	}
	return w, readHFGolden(t).IDs[:n]
}

func TestLayoutExperiment(t *testing.T) {
	w, ids := experimentIDs(t, 128)
	l, err := LayoutExperiment(posgraph.Backend(), w, ids)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", l)
	if math.Abs(l.GGUFInterleaved-l.HFHalves) > 1e-3 {
		t.Errorf("the two right routes differ: %.5f and %.5f", l.GGUFInterleaved, l.HFHalves)
	}
	if l.GGUFHalves < l.GGUFInterleaved+0.5 || l.HFInterleaved < l.HFHalves+0.5 {
		t.Errorf("a wrong layout costs less than 0.5 nats: %+v", l)
	}
}

func TestRelativeExperiment(t *testing.T) {
	w, ids := experimentIDs(t, 128)
	r, err := RelativeExperiment(posgraph.Backend(), w, ids, []int{1000, 7000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.MaxShiftDiff > 2e-3 || math.Abs(r.PIStride-r.Base) > 2e-3 {
		t.Errorf("shifted or PI-strided positions change the NLL: %+v", r)
	}
	if r.Stride4 < r.Base+0.3 || r.AllZero < r.Base+0.3 {
		t.Errorf("stride 4 or all-zero positions cost less than 0.3 nats: %+v", r)
	}
}

// find returns the variant whose name holds all of parts.
func find(t *testing.T, vs []Variant, parts ...string) float64 {
	t.Helper()
	for _, v := range vs {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(v.Name, p)
		}
		if ok {
			return v.MaxDiff
		}
	}
	t.Fatalf("no variant %v in %+v", parts, vs)
	return 0
}

func TestPaddingAndPackingExperiments(t *testing.T) {
	w, ids := experimentIDs(t, 96)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	pad, err := PaddingExperiment(m, ids[:48], 16, EndOfText)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("padding: %+v", pad)
	for _, good := range [][]string{{"left", "from the mask, mask"}, {"left", "0…c−1, mask"}} {
		if d := find(t, pad, good...); d > 1e-3 {
			t.Errorf("%v: max |Δlogit| %.3g, want ≤ 1e-3 (a shift, under the mask)", good, d)
		}
	}
	for _, bad := range [][]string{{"left", "0…c−1", "no mask"}, {"left", "from the mask", "no mask"}, {"left", "at its slot"}} {
		if d := find(t, pad, bad...); d < 0.1 {
			t.Errorf("%v: max |Δlogit| %.3g, want a visible change (≥ 0.1)", bad, d)
		}
	}
	if d := find(t, pad, "right", "0…c−1", "no mask"); d > 1e-3 {
		t.Errorf("right padding needs no mask under a causal one: max |Δlogit| %.3g", d)
	}
	pack, err := PackingExperiment(m, ids[48:80], ids[:48])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("packing: %+v", pack)
	if d := find(t, pack, "reset", "block"); d > 1e-3 {
		t.Errorf("packing with reset ids and a block-diagonal mask: max |Δlogit| %.3g, want ≤ 1e-3", d)
	}
	if d := find(t, pack, "continue", "block"); d > 1e-2 {
		t.Errorf("continuing ids under a block-diagonal mask are a shift, which RoPE ignores: max |Δlogit| %.3g", d)
	}
	for _, bad := range [][]string{{"continue", "causal"}, {"reset", "causal"}} {
		if d := find(t, pack, bad...); d < 0.1 {
			t.Errorf("%v: max |Δlogit| %.3g, want a visible change (≥ 0.1)", bad, d)
		}
	}
}

// TestProbeLayers checks the shapes and ranges of the probe, and that the
// pair norms do not depend on the layout the rows are stored in: the GGUF
// rows with adjacent pairs and the Hugging Face rows with halves are the
// same pairs.
func TestProbeLayers(t *testing.T) {
	w, ids := experimentIDs(t, 64)
	m, err := New(posgraph.Backend(), w, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ProbeLayers(m, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.FirstTokenAttn) != len(w.Layers) || len(p.FirstTokenAttn[0]) != w.Heads || len(p.QPairNorm[0]) != w.HeadDim/2 || len(p.KPairNorm) != len(w.Layers) {
		t.Fatalf("probe shapes: %d×%d attention, %d×%d norms", len(p.FirstTokenAttn), len(p.FirstTokenAttn[0]), len(p.QPairNorm), len(p.QPairNorm[0]))
	}
	var sinks, largest []string
	for l := range p.FirstTokenAttn {
		mean, top := 0.0, 0
		for _, a := range p.FirstTokenAttn[l] {
			mean += a / float64(len(p.FirstTokenAttn[l]))
		}
		for i, v := range p.QPairNorm[l] {
			if v > p.QPairNorm[l][top] {
				top = i
			}
		}
		sinks, largest = append(sinks, fmt.Sprintf("%.2f", mean)), append(largest, fmt.Sprint(top))
	}
	t.Logf("attention to the first token, mean over heads, per layer: %s", strings.Join(sinks, " "))
	t.Logf("largest query pair per layer (0 the fastest of %d): %s", w.HeadDim/2, strings.Join(largest, " "))
	for l, heads := range p.FirstTokenAttn {
		for h, a := range heads {
			if !(a >= 0 && a <= 1) {
				t.Errorf("layer %d head %d: attention to the first token %g, want in [0, 1]", l, h, a)
			}
		}
	}
	hf, err := w.WithLayout(posenc.Halves)
	if err != nil {
		t.Fatal(err)
	}
	mh, err := New(posgraph.Backend(), hf, posenc.Scaling{})
	if err != nil {
		t.Fatal(err)
	}
	ph, err := ProbeLayers(mh, ids)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for l := range p.QPairNorm {
		for i := range p.QPairNorm[l] {
			worst = math.Max(worst, math.Abs(p.QPairNorm[l][i]-ph.QPairNorm[l][i])/p.QPairNorm[l][i])
			worst = math.Max(worst, math.Abs(p.KPairNorm[l][i]-ph.KPairNorm[l][i])/p.KPairNorm[l][i])
		}
	}
	if worst > 1e-4 {
		t.Errorf("pair norms differ between the layouts by up to %.3g (relative)", worst)
	}
}

// TestRotationPrecision: at offset 0 the ids are exact in bfloat16, so
// rounding them changes nothing, while the autocast rounding of ω and the
// angles does; at 4,096 (16 neighbours share a bfloat16 id) rounding the
// ids must cost, and the exact rotation must give offset 0's NLL.
func TestRotationPrecision(t *testing.T) {
	w, ids := experimentIDs(t, 64)
	rows, err := RotationPrecision(posgraph.Backend(), w, ids, []int{0, 4096}, Roundings[:2])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rows)
	if rows[0].MaxLogitDiff[0] > 1e-3 {
		t.Errorf("positions below 256 are exact in bf16, yet the logits moved by %.3g", rows[0].MaxLogitDiff[0])
	}
	if rows[0].MaxLogitDiff[1] < 1e-2 {
		t.Errorf("autocast at offset 0 moved the logits by only %.3g: ω and the angles were not rounded", rows[0].MaxLogitDiff[1])
	}
	if math.Abs(rows[1].NLLExact-rows[0].NLLExact) > 2e-3 {
		t.Errorf("exact positions at 4096: NLL %.5f, at 0: %.5f; want equal", rows[1].NLLExact, rows[0].NLLExact)
	}
	if rows[1].MaxLogitDiff[0] < 0.1 || rows[1].NLL[0] <= rows[1].NLLExact {
		t.Errorf("bf16 positions at 4096 (16 tokens share an id): %+v, want worse", rows[1])
	}
}

func TestDynamicNTKStaleCache(t *testing.T) {
	w, ids := experimentIDs(t, 192)
	sc, err := DynamicNTKStaleCache(posgraph.Backend(), w, ids, 128, 64, 2, 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", sc)
	if math.Abs(sc.Stale-sc.Fresh) < 1e-3 || len(sc.StaleGen) != 8 || len(sc.FreshGen) != 8 {
		t.Errorf("the stale cache changes nothing: %+v", sc)
	}
}

func TestShortPromptCost(t *testing.T) {
	w, ids := experimentIDs(t, 128)
	costs, err := ShortPromptCost(posgraph.Backend(), w, ids)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", costs)
	for _, c := range costs[1:] {
		if math.Abs(c.NLL-costs[0].NLL) < 1e-3 {
			t.Errorf("%s leaves a short prompt's NLL as it was: %.4f against %.4f unscaled", c.Name, c.NLL, costs[0].NLL)
		}
	}
}
