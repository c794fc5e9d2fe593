package lab

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc"
)

func TestEncodeDecode(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int32
		back string
	}{
		{"", []int32{}, ""},
		{"a", []int32{3 + 'a' - ' '}, "a"},
		{" ~\t\n", []int32{3, 3 + '~' - ' ', 1, 2}, " ~\t\n"},
		{"α-β", []int32{TokenOther, 3 + '-' - ' ', TokenOther}, "¤-¤"}, // one token per non-ASCII character
	} {
		got := Encode([]byte(c.in))
		if !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v; want %v", c.in, got, c.want)
		}
		if back := Decode(got); back != c.back {
			t.Errorf("Decode(Encode(%q)) = %q; want %q", c.in, back, c.back)
		}
	}
	if got := Decode([]int32{TokenKey, TokenValue0 + 7, TokenQuery, TokenValue0 + NumValues - 1}); got != "⟨key⟩⟨v7⟩⟨query⟩⟨v15⟩" {
		t.Errorf("Decode(passkey tokens) = %q", got)
	}
	for _, tok := range Encode(CorpusText()) {
		if tok < 0 || tok >= TokenKey {
			t.Fatalf("the corpus has token %d, outside the text tokens [0, %d)", tok, TokenKey)
		}
	}
}

func TestLoadTextSplit(t *testing.T) {
	text := LoadText()
	all := Encode(CorpusText())
	if len(text.Train)+len(text.Valid) != len(all) {
		t.Fatalf("train %d + valid %d tokens ≠ corpus %d", len(text.Train), len(text.Valid), len(all))
	}
	frac := float64(len(text.Valid)) / float64(len(all))
	if frac < 0.08 || frac > 0.12 {
		t.Errorf("validation is %.3f of the corpus; want about 0.1", frac)
	}
	// The first validation block is the corpus's 10th.
	if !slices.Equal(text.Valid[:100], all[9*splitBlock:9*splitBlock+100]) {
		t.Error("validation does not start at the 10th block")
	}
	if len(text.Valid) < 8*64+1 {
		t.Errorf("validation has %d tokens: too few for windows of 8L", len(text.Valid))
	}
}

func TestPasskey(t *testing.T) {
	filler := Encode([]byte(strings.Repeat("the quick brown fox jumps over the lazy dog. ", 10)))
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ seqLen, distance int }{{8, 1}, {8, 6}, {64, 30}} {
		in, tg, v, err := Passkey(rng, filler, 3, c.seqLen, c.distance)
		if err != nil {
			t.Fatal(err)
		}
		q := c.seqLen - 1
		if len(in) != c.seqLen || len(tg) != c.seqLen {
			t.Fatalf("lengths %d, %d; want %d", len(in), len(tg), c.seqLen)
		}
		if in[q] != TokenQuery || in[q-c.distance] != v || in[q-c.distance-1] != TokenKey || tg[q] != v {
			t.Errorf("seqLen %d distance %d: %s → last target %s", c.seqLen, c.distance, Decode(in), Decode(tg[q:]))
		}
		if v < TokenValue0 || v >= VocabSize {
			t.Errorf("value token %d out of range", v)
		}
		if !slices.Equal(in[1:], tg[:c.seqLen-1]) {
			t.Error("targets are not the inputs shifted by one")
		}
		if n := slices.Index(in, TokenKey); n != q-c.distance-1 {
			t.Errorf("first key at %d; want only at %d", n, q-c.distance-1)
		}
	}
	for _, c := range []struct {
		seqLen, distance, start int
		want                    string
	}{
		{8, 0, 0, "distance must be in [1, 6]"},
		{8, 7, 0, "distance must be in [1, 6]"},
		{8, 3, len(filler), "start must be in"},
		{8, 3, -1, "start must be in"},
	} {
		if _, _, _, err := Passkey(rng, filler, c.start, c.seqLen, c.distance); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Passkey(seqLen %d, distance %d, start %d) error = %v; want %q", c.seqLen, c.distance, c.start, err, c.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []Config{DefaultConfig(), QuickConfig(), XLAConfig()} {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Encodings = nil }, "no encodings"},
		{func(c *Config) { c.Encodings = []Encoding{"xpos"} }, `unknown encoding "xpos"`},
		{func(c *Config) { c.Dim = 30 }, "dim must be a multiple of 2·heads"},
		{func(c *Config) { c.Layers = 0 }, "layers must be positive, got 0"},
		{func(c *Config) { c.Multiples = []int{2, 4} }, "multiples must start at 1"},
		{func(c *Config) { c.PasskeyDistances = []int{511} }, "passkey distance must be in [1, 510]"},
		{func(c *Config) { c.LearningRate = math.NaN() }, "learning rate must be positive"},
		{func(c *Config) { c.PasskeyFraction = 1.5 }, "passkey fraction must be in [0, 1]"},
		{func(c *Config) { c.FinetuneMultiple = 1 }, "multiple ≥ 2"},
	} {
		cfg := DefaultConfig()
		c.edit(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate() = %v; want an error containing %q", err, c.want)
		}
	}
}

func TestModelValidate(t *testing.T) {
	m := DefaultConfig().Model(ALiBi)
	m.Scaling = posenc.LinearScaling(2)
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "applies to rope only") {
		t.Errorf("ALiBi with PI: %v", err)
	}
	// T5's last bucket must begin past its exact ones (buckets/2 for a causal
	// model): an error, not NewT5Encoder's panic.
	m = DefaultConfig().Model(T5)
	m.T5MaxLen = 16
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "max_distance must be > max_exact (16), got 16") {
		t.Errorf("T5 with 32 buckets up to 16: %v", err)
	}
	m.Encoding = ALiBi // the buckets matter to T5 only
	if err := m.Validate(); err != nil {
		t.Errorf("ALiBi with T5 buckets no T5 could use: %v", err)
	}
	if _, err := ParseEncoding("RoPE"); err == nil {
		t.Error("ParseEncoding is case-insensitive; want exact names")
	}
}

func TestMethodScaling(t *testing.T) {
	for _, method := range Methods {
		if s := methodScaling(method, 64, 64, 2); s.Kind != posenc.ScalingNone {
			t.Errorf("%s at n = L: %v; want no scaling", method, s)
		}
	}
	for _, c := range []struct {
		method string
		kind   posenc.ScalingKind
		factor float64
	}{
		{"pi", posenc.ScalingLinear, 4}, {"ntk", posenc.ScalingNTK, 4}, {"yarn", posenc.ScalingYaRN, 4}, {"dynamic", posenc.ScalingDynamic, 2},
	} {
		s := methodScaling(c.method, 256, 64, 2)
		if s.Kind != c.kind || s.Factor != c.factor {
			t.Errorf("%s at 4L: %v; want %v with factor %g", c.method, s, c.kind, c.factor)
		}
	}
}

func TestUsableContext(t *testing.T) {
	run := Run{Passkey: []PasskeyAt{
		{Distance: 4, Defined: true, Accuracy: 1}, {Distance: 16, Defined: true, Accuracy: 0.95},
		{Distance: 62, Defined: true, Accuracy: 0.5}, {Distance: 126, Defined: true, Accuracy: 0.99},
	}}
	for _, c := range []struct {
		threshold float64
		want      int
	}{{0.9, 16}, {0.4, 126}, {1.0, 4}, {1.01, 0}} {
		if got := run.UsableContext(c.threshold); got != c.want {
			t.Errorf("UsableContext(%g) = %d; want %d", c.threshold, got, c.want)
		}
	}
	run.Passkey[1].Defined = false
	if got := run.UsableContext(0.4); got != 4 {
		t.Errorf("with an undefined distance: %d; want 4 (undefined stops it)", got)
	}
}

// The quick lab runs end to end: every encoding and method, results that
// round-trip through JSON, checkpoints that load, figures.
func TestQuickLab(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every model")
	}
	dir := t.TempDir()
	c := QuickConfig()
	c.SaveCheckpoints = true
	res, err := RunLab(c, Options{Backend: testBackend(t), BackendConfig: "go", OutDir: dir, Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadResults(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	wantRuns := []string{"none", "sinusoidal", "learned", "rope", "alibi", "t5", "rope+pi", "rope+ntk", "rope+dynamic", "rope+yarn", "rope+pi-finetune"}
	var names []string
	for _, r := range back.Runs {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, wantRuns) || len(res.Runs) != len(back.Runs) {
		t.Fatalf("runs %v; want %v", names, wantRuns)
	}
	learned, _ := back.Run("learned")
	if _, ok := learned.Loss(2); ok {
		t.Error("learned: loss at 2L is defined; want undefined (no table rows past L)")
	}
	for _, r := range back.Runs {
		l, ok := r.Loss(1)
		if !ok || !(l > 0 && l < 6) {
			t.Errorf("%s: loss at L = %v (%v)", r.Name, l, ok)
		}
	}
	// Scaling is the identity at L: the scaled runs equal the plain RoPE there.
	rope, _ := back.Run("rope")
	for _, m := range Methods {
		r, _ := back.Run("rope+" + m)
		if a, b := r.Lengths[0].Mean, rope.Lengths[0].Mean; a != b {
			t.Errorf("rope+%s at L: %v; want rope's %v", m, a, b)
		}
	}
	store, err := LoadCheckpoint(filepath.Join(dir, "checkpoints", "rope.gob"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(testBackend(t), store, c.Model(RoPE))
	if err != nil {
		t.Fatal(err)
	}
	per, err := e.LossByPosition(LoadText().Valid, c.TrainLen, c.EvalWindows)
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, v := range per {
		mean += v / float64(len(per))
	}
	if math.Abs(mean-rope.Lengths[0].Mean) > 1e-3 {
		t.Errorf("the loaded checkpoint's loss at L = %.4f; want the run's %.4f", mean, rope.Lengths[0].Mean)
	}
	paths, err := WriteFigures(back, dir)
	if err != nil || len(paths) != 6 {
		t.Fatalf("WriteFigures: %v, %v", paths, err)
	}
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || info.Size() < 1000 {
			t.Errorf("figure %s: %v", p, err)
		}
	}
	if s := Summary(back); !strings.Contains(s, "rope+pi-finetune") {
		t.Errorf("Summary lacks the fine-tune:\n%s", s)
	}
}

// The committed text is what BuildCorpus makes from Go 1.26.8's documents;
// another Go's documents are refused, naming the file.
func TestBuildCorpus(t *testing.T) {
	goroot := runtime.GOROOT()
	data, err := BuildCorpus(goroot)
	if strings.HasPrefix(runtime.Version(), "go1.26.8") && err == nil {
		if !bytes.Equal(data, CorpusText()) {
			t.Errorf("BuildCorpus(%s) differs from the committed corpus/go-docs.txt", goroot)
		}
	} else if err == nil || !strings.Contains(err.Error(), "doc/") {
		t.Errorf("BuildCorpus(%s) with %s: error %v; want a sha256 mismatch naming a doc/ file", goroot, runtime.Version(), err)
	}
	if _, err := BuildCorpus(t.TempDir()); err == nil || !strings.Contains(err.Error(), "go_spec.html") {
		t.Errorf("BuildCorpus(empty dir) = %v; want an error naming go_spec.html", err)
	}
}
