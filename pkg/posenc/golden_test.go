package posenc_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// goldenFile is modelconfigs/golden.json, written by scripts/golden/golden.py
// (make golden) from Hugging Face transformers' own rotary-embedding modules
// and decoder layers for every fixture.
type goldenFile struct {
	Transformers, Torch string
	// Models are the position-only fixtures, Full the whole published
	// configs of full/, Rules made-up configs that exercise a rule of a
	// configuration class (each with its config).
	Models, Full, Rules, Designs map[string]goldenModel
}

// goldenModel is what transformers computes for one config.
type goldenModel struct {
	Config json.RawMessage `json:"config"` // Rules only
	RoPE   map[string]struct {
		InvFreq          []float64 `json:"inv_freq"`
		InvFreqLong      []float64 `json:"inv_freq_long"`
		AttentionScaling float64   `json:"attention_scaling"`
		// Layout is the pair layout of the model's own rotation
		// function, found by rotating unit vectors with it;
		// IndexerLayout that of DeepSeek Sparse Attention's indexer.
		Layout        string `json:"layout"`
		IndexerLayout string `json:"indexer_layout"`
		// MRoPESection is the mrope_section of a multimodal text model.
		MRoPESection []int `json:"mrope_section"`
	} `json:"rope"`
	Layers []struct {
		Type           string  `json:"type"`
		RoPE           bool    `json:"rope"`
		SlidingWindow  int     `json:"sliding_window"`
		AttnScale      float64 `json:"attn_scale"`
		FloorScale     float64 `json:"floor_scale"`
		SoftmaxScaling float64 `json:"softmax_scaling"`
		QKHeadDim      int     `json:"qk_head_dim"`
		// QueryScale is Ministral 3's get_llama_4_attn_scale at
		// QueryScalePositions.
		QueryScale          []float64 `json:"query_scale"`
		QueryScalePositions []int     `json:"query_scale_positions"`
		// Indexer says whether the layer runs a lightning indexer
		// (DeepSeek-V3.2, GLM-5); absent for other models.
		Indexer *bool `json:"indexer"`
		// Sinks says the layer's attention has learned sink logits.
		Sinks bool `json:"sinks"`
	} `json:"layers"`
}

// goldenTransformers is the transformers version of golden.json, as
// scripts/golden/requirements.in pins it.
const goldenTransformers = "5.25.0"

func readGolden(t *testing.T) goldenFile {
	t.Helper()
	data, err := modelconfigs.Golden()
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if g.Transformers != goldenTransformers {
		t.Errorf("golden.json is from transformers %s; the lock pins %s", g.Transformers, goldenTransformers)
	}
	return g
}

// goldenRelTol bounds the relative error against transformers. HF computes
// inverse frequencies in float32 (torch.arange(...).float(), base ** x in
// float32), the library in float64: float32 rounds to a relative 6e-8, and
// a float32 pow is within a few ulps, so 1e-6 leaves room without hiding a
// wrong formula (a wrong exponent or factor is off by far more).
//
// Who is right where they differ: the largest difference over all fixtures
// is 3.2e-7, on Llama 3.1's smoothed band (pairs 29–34, the pairs whose
// wavelength lies between 8192/4 and 8192 positions; largest at pair 33),
// where HF's wavelength, smoothing factor and blend are each rounded to
// float32. HF's
// own _compute_llama3_parameters run in float64 (torch.float patched to
// torch.float64 in modeling_rope_utils) agrees with the library to 8e-16:
// the difference is HF's float32 rounding, and the library's value is the
// exact one of the same formula. Every other decision — which layers
// rotate, windows, the p-RoPE zeros, LongRoPE's long factors, attention and
// softmax scales — agrees exactly. The two real disagreements found lie
// outside the fixtures; TestGoldenDisagreement (YaRN's truncate in a
// per-layer-type dictionary) and TestGoldenDisagreementDBRX (DBRX's
// attn_config.rope_theta) show transformers is wrong there.
const goldenRelTol = 1e-6

// TestGoldenHuggingFace reads every fixture with ParseHFConfig and compares
// each layer with what transformers computes for it: which layers rotate,
// their sliding windows, inverse frequencies (short and long for LongRoPE),
// attention scaling, Llama 4's temperature and DeepSeek's softmax scale.
func TestGoldenHuggingFace(t *testing.T) {
	g := readGolden(t)
	names := modelconfigs.Names()
	if len(names) < 10 || len(g.Models) != len(names) {
		t.Fatalf("%d fixtures, %d golden models; want at least 10, one golden entry each", len(names), len(g.Models))
	}
	worst := worstDiff{}
	for _, name := range names {
		cfg, err := modelconfigs.Config(name)
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, name, cfg, g.Models, &worst)
	}
	t.Logf("largest relative difference from transformers %s: %.3g (%s)", g.Transformers, worst.rel, worst.at)
}

// TestGoldenFullConfigs reads every whole published config of full/, as
// released (every field, not only the position ones), and compares it with
// transformers like the fixtures.
func TestGoldenFullConfigs(t *testing.T) {
	g := readGolden(t)
	compareGroup(t, g, "full configs", 8, modelconfigs.FullNames(), modelconfigs.Full, g.Full)
}

// TestGoldenDesigns compares the 2025–26 designs of designs/ (hybrid
// stacks, NoPE global layers, DeepSeek's indexers and V4's rope types,
// Ministral 3's query scaling) like the fixtures.
func TestGoldenDesigns(t *testing.T) {
	g := readGolden(t)
	compareGroup(t, g, "designs", 4, modelconfigs.DesignNames(), modelconfigs.Design, g.Designs)
}

// compareGroup compares every config of a folder of modelconfigs with its
// golden entry, and wants at least least of them.
func compareGroup(t *testing.T, g goldenFile, what string, least int, names []string, read func(string) ([]byte, error), golden map[string]goldenModel) {
	t.Helper()
	if len(names) < least || len(golden) != len(names) {
		t.Fatalf("%d %s, %d golden entries; want at least %d, one golden entry each", len(names), what, len(golden), least)
	}
	worst := worstDiff{}
	for _, name := range names {
		cfg, err := read(name)
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, name, cfg, golden, &worst)
	}
	t.Logf("largest relative difference from transformers %s: %.3g (%s)", g.Transformers, worst.rel, worst.at)
}

// TestGoldenRules compares the made-up configs of golden.py's RULES, each
// of which exercises one rule of a configuration class that no shipped
// config does (Qwen2's max_window_layers with use_sliding_window on,
// Qwen2-MoE's even layers, DeepSeek-V2's pair layout, …).
func TestGoldenRules(t *testing.T) {
	g := readGolden(t)
	if len(g.Rules) < 15 {
		t.Fatalf("%d rules in golden.json; want 15 (run make golden)", len(g.Rules))
	}
	worst := worstDiff{}
	for name, want := range g.Rules {
		compareGolden(t, name, want.Config, g.Rules, &worst)
	}
}

type worstDiff struct {
	rel float64
	at  string
}

// compareGolden reads cfg with ParseHFConfig and compares each layer with
// what transformers computes for it (golden[name]): which layers rotate,
// their sliding windows, pair layouts, inverse frequencies (short and long
// for LongRoPE), attention scaling, Llama 4's temperature and DeepSeek's
// softmax scale.
func compareGolden(t *testing.T, name string, cfg []byte, golden map[string]goldenModel, worst *worstDiff) {
	t.Helper()
	want, ok := golden[name]
	if !ok {
		t.Errorf("%s: no golden values (run make golden)", name)
		return
	}
	m, err := posenc.ParseHFConfig(cfg)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if len(m.Layers) != len(want.Layers) {
		t.Errorf("%s: %d layers; HF has %d", name, len(m.Layers), len(want.Layers))
		return
	}
	for i, wl := range want.Layers {
		l := m.Layers[i]
		if wl.Type != "" && l.Type != wl.Type {
			t.Errorf("%s layer %d: type %s; HF %s", name, i, l.Type, wl.Type)
		}
		if l.Sinks != wl.Sinks {
			t.Errorf("%s layer %d: sinks %v; HF's attention has learned sinks: %v", name, i, l.Sinks, wl.Sinks)
		}
		if (l.RoPE != nil) != wl.RoPE {
			t.Errorf("%s layer %d (%s): RoPE %v; HF applies RoPE: %v", name, i, l.Type, l.RoPE != nil, wl.RoPE)
			continue
		}
		if l.Window != wl.SlidingWindow && l.Type != "chunked_attention" {
			t.Errorf("%s layer %d: window %d; HF sliding_window %d", name, i, l.Window, wl.SlidingWindow)
		}
		for j, p := range wl.QueryScalePositions {
			if l.Temperature == nil {
				t.Errorf("%s layer %d: no query scale; HF scales queries by %v at position %d", name, i, wl.QueryScale[j], p)
				break
			}
			// HF computes it in float32.
			if got := l.Temperature.At(p); relErr(got, wl.QueryScale[j]) > 1e-7 {
				t.Errorf("%s layer %d: query scale at %d = %v; HF %v", name, i, p, got, wl.QueryScale[j])
			}
		}
		if wl.FloorScale != 0 {
			if l.Temperature == nil || l.Temperature.Scale != wl.AttnScale || l.Temperature.FloorScale != wl.FloorScale {
				t.Errorf("%s layer %d: temperature %+v; HF attn_scale %v, floor_scale %v", name, i, l.Temperature, wl.AttnScale, wl.FloorScale)
			}
		} else if l.Temperature != nil && wl.QueryScalePositions == nil {
			t.Errorf("%s layer %d: temperature %+v; HF has none", name, i, l.Temperature)
		}
		if wl.SoftmaxScaling != 0 {
			got := l.RoPE.SoftmaxScale() / math.Sqrt(float64(wl.QKHeadDim))
			if e := relErr(got, wl.SoftmaxScaling); e > 1e-12 {
				t.Errorf("%s layer %d: softmax scale %v; HF %v", name, i, got, wl.SoftmaxScaling)
			}
		}
		if l.RoPE == nil {
			continue
		}
		wr, ok := want.RoPE[l.Type]
		if wl.Type == "" { // no layer_types in the config: one set for all layers
			wr, ok = want.RoPE["all"]
		}
		if !ok {
			t.Errorf("%s layer %d: HF has no rotary values for %s", name, i, l.Type)
			continue
		}
		r := *l.RoPE
		layoutName := map[posenc.Layout]string{posenc.Interleaved: "interleaved", posenc.Halves: "halves"}
		if layout := layoutName[r.Layout]; layout != wr.Layout {
			t.Errorf("%s layer %d (%s): pair layout %s; HF's rotation pairs coordinates as %q", name, i, l.Type, layout, wr.Layout)
		}
		if !slices.Equal(l.MRoPESection, wr.MRoPESection) {
			t.Errorf("%s layer %d: mrope_section %v; HF %v", name, i, l.MRoPESection, wr.MRoPESection)
		}
		if wl.Indexer != nil && *wl.Indexer != (l.Indexer != nil) {
			t.Errorf("%s layer %d: indexer %v; HF runs one: %v", name, i, l.Indexer != nil, *wl.Indexer)
		}
		if wl.Indexer == nil && l.Indexer != nil {
			t.Errorf("%s layer %d: indexer %+v; HF has none", name, i, *l.Indexer)
		}
		if l.Indexer != nil {
			if layout := layoutName[l.Indexer.Layout]; layout != wr.IndexerLayout {
				t.Errorf("%s layer %d: indexer layout %s; HF's indexer rotation pairs coordinates as %q", name, i, layout, wr.IndexerLayout)
			}
			if l.Indexer.Base != r.Base || l.Indexer.Scaling != r.Scaling || l.Indexer.HeadDim != r.HeadDim {
				t.Errorf("%s layer %d: indexer %+v; want the layer's frequencies %+v", name, i, *l.Indexer, r)
			}
		}
		check := func(what string, got, want []float64) {
			if len(got) != len(want) {
				t.Errorf("%s %s %s: %d frequencies; HF %d", name, l.Type, what, len(got), len(want))
				return
			}
			for j := range want {
				if want[j] == 0 || got[j] == 0 {
					if got[j] != want[j] {
						t.Errorf("%s %s %s[%d] = %v; HF %v", name, l.Type, what, j, got[j], want[j])
					}
					continue
				}
				e := relErr(got[j], want[j])
				if e > worst.rel {
					worst.rel, worst.at = e, fmt.Sprintf("%s %s %s[%d]", name, l.Type, what, j)
				}
				if e > goldenRelTol {
					t.Errorf("%s %s %s[%d] = %v; HF %v (relative error %.2g)", name, l.Type, what, j, got[j], want[j], e)
				}
			}
		}
		freq, err := r.InvFreq()
		if err != nil {
			t.Fatal(err)
		}
		check("inv_freq", freq, wr.InvFreq)
		if wr.InvFreqLong != nil {
			long := r
			long.Scaling.SeqLen = long.Scaling.OriginalLen + 1
			freq, _ := long.InvFreq()
			check("inv_freq_long", freq, wr.InvFreqLong)
		}
		if e := relErr(r.AttentionFactor(), wr.AttentionScaling); e > 1e-12 {
			t.Errorf("%s %s: attention factor %v; HF %v", name, l.Type, r.AttentionFactor(), wr.AttentionScaling)
		}
	}
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

// TestGoldenDisagreement covers the one configuration found where
// transformers 5.25.0 and the library disagree, and shows who is right.
//
// With YaRN inside a per-layer-type rope_parameters, transformers'
// _compute_yarn_parameters takes every key from the layer type's dictionary
// except truncate, which it reads as config.rope_parameters.get("truncate",
// True): the top-level dictionary, keyed by layer type, which has no such
// key. So it truncates the ramp whatever the layer's dictionary says. The
// config asks for truncate false on that layer, as gpt-oss's flat config
// does and transformers honours there; the library honours it in both
// forms. transformers is wrong here (a bug in its lookup), and the test
// proves that its frequencies are exactly those of truncate true.
func TestGoldenDisagreement(t *testing.T) {
	d := readDisagreement(t, "nested_yarn_truncate_false")
	m, err := posenc.ParseHFConfig(d.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := *m.Layers[1].RoPE
	if m.Layers[1].Type != d.LayerType || !r.Scaling.NoTruncate {
		t.Fatalf("layer 1: %s, %+v; want %s with truncate false", m.Layers[1].Type, r.Scaling, d.LayerType)
	}
	ours, _ := r.InvFreq()
	truncated := r
	truncated.Scaling.NoTruncate = false
	hfSays, _ := truncated.InvFreq()
	differ := 0
	for i, want := range d.InvFreq {
		if e := relErr(hfSays[i], want); e > goldenRelTol {
			t.Errorf("ω[%d]: transformers %v, library with truncate true %v: transformers did not just ignore truncate", i, want, hfSays[i])
		}
		if relErr(ours[i], want) > 1e-3 {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the library's truncate-false frequencies equal transformers': the disagreement is gone (fixed upstream?)")
	}
}

// TestGoldenDisagreementDBRX covers the second disagreement found: DBRX's
// released config.json keeps its RoPE base in attn_config.rope_theta
// (500000, the base of Databricks' own model). DbrxAttentionConfig of
// transformers 5.25.0 has no rope_theta field, so the value stays an extra
// attribute of the sub-config and DbrxRotaryEmbedding rotates with the
// default base 10000. transformers is wrong (its port loses the authors'
// base); the reader uses 500000 and warns. The test proves transformers'
// frequencies are exactly those of base 10000.
func TestGoldenDisagreementDBRX(t *testing.T) {
	d := readDisagreement(t, "dbrx_attn_config_rope_theta")
	m, err := posenc.ParseHFConfig(d.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := *m.Layers[0].RoPE
	if r.Base != 500000 || len(m.Warnings) == 0 || !strings.HasPrefix(m.Warnings[0], "attn_config.rope_theta") {
		t.Fatalf("base %v, warnings %q; want 500000 and a warning naming attn_config.rope_theta", r.Base, m.Warnings)
	}
	hf := r.WithBase(10000)
	hfSays, _ := hf.InvFreq()
	ours, _ := r.InvFreq()
	if msg := compareFreqs(hfSays, d.InvFreq); msg != "" {
		t.Errorf("transformers' DBRX frequencies are not base 10000's: %s", msg)
	}
	if compareFreqs(ours, d.InvFreq) == "" {
		t.Error("the reader's base-500000 frequencies equal transformers': the disagreement is gone (fixed upstream?)")
	}
}

// disagreement is an entry of golden.json's disagreements: a config and
// the frequencies transformers computes for it.
type disagreement struct {
	Config    json.RawMessage `json:"config"`
	LayerType string          `json:"layer_type"`
	InvFreq   []float64       `json:"inv_freq"`
}

// readDisagreement returns golden.json's disagreements[name].
func readDisagreement(t *testing.T, name string) disagreement {
	t.Helper()
	var g struct {
		Disagreements map[string]disagreement `json:"disagreements"`
	}
	data, err := modelconfigs.Golden()
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	d, ok := g.Disagreements[name]
	if !ok {
		t.Fatalf("golden.json has no %s entry (run make golden)", name)
	}
	return d
}
