package lab

import (
	"bytes"
	"math"
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
		{"\x7f\r", []int32{TokenOther, TokenOther}, "¤¤"},              // control characters other than tab and newline
	} {
		got := Encode([]byte(c.in))
		if !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v; want %v", c.in, got, c.want)
		}
		if back := Decode(got); back != c.back {
			t.Errorf("Decode(Encode(%q)) = %q; want %q", c.in, back, c.back)
		}
	}
	for _, c := range []struct {
		tokens []int32
		want   string
	}{
		{[]int32{TokenKey0 + 7, Symbols[16], TokenKey0 + 7}, "⟨k7⟩q⟨k7⟩"},
		{[]int32{TokenKey0, TokenKey0 + NumKeys - 1}, "⟨k0⟩⟨k15⟩"},
		{[]int32{VocabSize, -1}, "??"}, // not tokens
	} {
		if got := Decode(c.tokens); got != c.want {
			t.Errorf("Decode(%v) = %q; want %q", c.tokens, got, c.want)
		}
	}
	for _, c := range []struct {
		tok  int32
		want bool
	}{{TokenKey0 - 1, false}, {TokenKey0, true}, {VocabSize - 1, true}, {VocabSize, false}, {TokenOther, false}} {
		if got := IsKey(c.tok); got != c.want {
			t.Errorf("IsKey(%d) = %t; want %t", c.tok, got, c.want)
		}
	}
	if got := Decode(Symbols); got != "abcdefghijklmnopqrstuvwxyz" {
		t.Errorf("Symbols are %q; want the letters a–z", got)
	}
	for _, tok := range Encode(CorpusText()) {
		if tok < 0 || tok >= TokenKey0 {
			t.Fatalf("the corpus has token %d, outside the text tokens [0, %d): a key would occur in the text", tok, TokenKey0)
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
	// The first validation block is the corpus's 10th, and the training
	// text resumes with the 11th.
	if !slices.Equal(text.Valid[:splitBlock], all[9*splitBlock:10*splitBlock]) {
		t.Error("validation does not start with the 10th block")
	}
	if !slices.Equal(text.Train[9*splitBlock:10*splitBlock], all[10*splitBlock:11*splitBlock]) {
		t.Error("training text does not go on with the 11th block after the 9th")
	}
	c := DefaultConfig()
	if _, err := NewWindows(text.Valid, c.EvalWindows, c.Multiples[len(c.Multiples)-1]*c.TrainLen); err != nil {
		t.Errorf("validation text too short for DefaultConfig's windows: %v", err)
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

// Every length's window ends on the same target: the last L targets of
// windows of L, 2L, … tokens are the same characters.
func TestWindows(t *testing.T) {
	tokens := make([]int32, 1000) // token i is i: a window shows where it was cut
	for i := range tokens {
		tokens[i] = int32(i)
	}
	for _, c := range []struct {
		name           string
		count, longest int
	}{
		{"spread", 5, 128},
		{"one", 1, 100},
		{"longest possible", 3, 999}, // no room to spread: every window ends on the last token
		{"many", 64, 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := NewWindows(tokens, c.count, c.longest)
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Ends) != c.count || w.Ends[0] != c.longest || !slices.IsSorted(w.Ends) {
				t.Fatalf("ends %v; want %d, increasing, from %d", w.Ends, c.count, c.longest)
			}
			if c.count > 1 && w.Ends[c.count-1] != len(tokens)-1 {
				t.Errorf("last end %d; want the last token, %d", w.Ends[c.count-1], len(tokens)-1)
			}
			for n := 1; n <= c.longest; n *= 2 {
				b := w.Batch(tokens, n)
				if len(b.Inputs) != c.count || len(b.Targets) != c.count || len(b.Weights) != c.count {
					t.Fatalf("n %d: %d inputs, %d targets, %d weights; want %d", n, len(b.Inputs), len(b.Targets), len(b.Weights), c.count)
				}
				for i, e := range w.Ends {
					in, tg := b.Inputs[i], b.Targets[i]
					if len(in) != n || len(tg) != n || in[0] != int32(e-n) || tg[n-1] != int32(e) || !slices.Equal(in[1:], tg[:n-1]) {
						t.Fatalf("n %d, end %d: inputs %v…, targets …%v; want tokens %d… and targets ending on %d",
							n, e, in[:1], tg[n-1:], e-n, e)
					}
					if slices.ContainsFunc(b.Weights[i], func(v float32) bool { return v != 1 }) || len(b.Weights[i]) != n {
						t.Fatalf("n %d: weights %v; want %d ones", n, b.Weights[i], n)
					}
				}
			}
		})
	}
	for _, c := range []struct{ count, longest int }{{0, 10}, {-1, 10}, {1, 1000}, {4, 5000}} {
		if _, err := NewWindows(tokens, c.count, c.longest); err == nil || !strings.Contains(err.Error(), "do not fit") {
			t.Errorf("NewWindows(1000 tokens, %d, %d) error = %v; want \"do not fit\"", c.count, c.longest, err)
		}
	}
}

func TestScheduleAt(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Schedule
	}{
		{"lab", Schedule{Peak: 3e-3, Warmup: 100, Steps: 2500, MinFraction: 0.1}},
		{"no warm-up", Schedule{Peak: 1, Warmup: 0, Steps: 49, MinFraction: 0.2}}, // a decay of 48 steps
		{"one warm-up step", Schedule{Peak: 1, Warmup: 1, Steps: 11, MinFraction: 0}},
		{"cosine", Schedule{Peak: 2, Warmup: 10, Steps: 91, MinFraction: 0.5}}, // a decay of 80 steps
		{"lab's fine-tune", Schedule{Peak: 1e-3, Warmup: 30, Steps: 300, MinFraction: 0.1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			low := s.MinFraction * s.Peak
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*s.Peak }
			for step := range s.Warmup {
				if got, want := s.At(step), s.Peak*float64(step+1)/float64(s.Warmup); !near(got, want) {
					t.Errorf("warm-up step %d: %g; want %g (linear up to the peak)", step, got, want)
				}
			}
			if got := s.At(max(s.Warmup-1, 0)); !near(got, s.Peak) {
				t.Errorf("at the end of the warm-up (step %d): %g; want the peak %g", max(s.Warmup-1, 0), got, s.Peak)
			}
			if got := s.At(s.Warmup); !near(got, s.Peak) {
				t.Errorf("first step of the decay (%d): %g; want the peak %g", s.Warmup, got, s.Peak)
			}
			if got := s.At(s.Steps - 1); !near(got, low) {
				t.Errorf("last step (%d): %g; want MinFraction·Peak = %g", s.Steps-1, got, low)
			}
			if got := s.At(s.Steps + 10); !near(got, low) {
				t.Errorf("past the last step: %g; want it to stay at %g", got, low)
			}
			// A half cosine: half-way through the decay, half-way down; a
			// quarter of the way, (1+cos π/4)/2 of the way from the bottom
			// (checked where the decay's steps fall on those points).
			decay := s.Steps - s.Warmup - 1
			if decay%4 == 0 {
				if got, want := s.At(s.Warmup+decay/2), (s.Peak+low)/2; !near(got, want) {
					t.Errorf("half-way: %g; want %g", got, want)
				}
				if got, want := s.At(s.Warmup+decay/4), low+(s.Peak-low)*(1+math.Cos(math.Pi/4))/2; !near(got, want) {
					t.Errorf("a quarter of the way: %g; want %g (a cosine, not a line)", got, want)
				}
			}
			for step := s.Warmup + 1; step < s.Steps; step++ {
				if a, b := s.At(step-1), s.At(step); b > a || (s.MinFraction < 1 && b == a) {
					t.Fatalf("steps %d and %d: %g, %g; want a decrease after the warm-up", step-1, step, a, b)
				}
			}
		})
	}
}

func TestScheduleValidate(t *testing.T) {
	ok := Schedule{Peak: 1e-3, Warmup: 10, Steps: 100, MinFraction: 0.1}
	for _, c := range []struct {
		edit func(*Schedule)
		want string // "" for valid
	}{
		{func(*Schedule) {}, ""},
		{func(s *Schedule) { s.Warmup, s.MinFraction = 0, 0 }, ""},
		{func(s *Schedule) { s.MinFraction = 1 }, ""}, // a constant rate after the warm-up
		{func(s *Schedule) { s.Peak = 0 }, "learning rate must be positive, got 0"},
		{func(s *Schedule) { s.Peak = -1e-3 }, "learning rate must be positive"},
		{func(s *Schedule) { s.Peak = math.NaN() }, "learning rate must be positive, got NaN"},
		{func(s *Schedule) { s.Warmup = -1 }, "warm-up steps must not be negative, got -1"},
		{func(s *Schedule) { s.MinFraction = -0.1 }, "minimum learning-rate fraction must be in [0, 1], got -0.1"},
		{func(s *Schedule) { s.MinFraction = 1.5 }, "minimum learning-rate fraction must be in [0, 1]"},
		{func(s *Schedule) { s.MinFraction = math.NaN() }, "minimum learning-rate fraction must be in [0, 1], got NaN"},
	} {
		s := ok
		c.edit(&s)
		err := s.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: Validate() = %v; want %q", s, err, c.want)
		}
	}
	// The lab's training uses its config's schedule.
	c := DefaultConfig()
	if got, want := c.training(2).Schedule, (Schedule{Peak: c.LearningRate, Warmup: c.Warmup, Steps: c.Steps, MinFraction: c.MinLRFrac}); got != want {
		t.Errorf("DefaultConfig's schedule %+v; want %+v", got, want)
	}
}

func TestMethodScaling(t *testing.T) {
	const L, f = 64, 2.0
	for _, method := range Methods {
		for _, n := range []int{1, L / 2, L} {
			if s := MethodScaling(method, n, L, f); s != (posenc.Scaling{}) {
				t.Errorf("%s at n = %d ≤ L: %+v; want no scaling", method, n, s)
			}
		}
	}
	for _, c := range []struct {
		method string
		want   posenc.Scaling
	}{
		{"pi", posenc.LinearScaling(4)},
		{"ntk", posenc.NTKScaling(4)},
		{"dynamic", posenc.DynamicNTKScaling(f, L, 0)}, // SeqLen 0: the graph's sequence length
		{"ntk-eff", posenc.NTKScaling(7)},              // f·n/L − (f−1) = 2·4 − 1
		{"yarn", posenc.YaRNScaling(4, L)},
		{"yarn-notemp", func() posenc.Scaling { s := posenc.YaRNScaling(4, L); s.AttentionFactor = 1; return s }()},
	} {
		if got := MethodScaling(c.method, 4*L, L, f); got != c.want {
			t.Errorf("%s at 4L: %+v; want %+v", c.method, got, c.want)
		}
	}
	// ntk-eff is dynamic's control: static NTK at the factor dynamic NTK
	// reaches at n gives the very frequencies dynamic NTK gives there, in
	// the lab's RoPE model (head 16) and in rope-hd8 (head 8).
	for _, m := range []Model{DefaultConfig().Model(RoPE), DefaultConfig().VariantModel(DefaultConfig().Variants[0])} {
		for _, k := range []int{2, 4, 8} {
			n := k * L
			freqs := func(method string) []float64 {
				m.Scaling = MethodScaling(method, n, L, f)
				r := m.rope()
				if r.Scaling.Kind == posenc.ScalingDynamic {
					r.Scaling.SeqLen = n // as posgraph sets it from the sequence axis
				}
				fr, err := r.InvFreq()
				if err != nil {
					t.Fatal(err)
				}
				return fr
			}
			dyn, eff, ntk := freqs("dynamic"), freqs("ntk-eff"), freqs("ntk")
			if !slices.Equal(dyn, eff) {
				t.Errorf("head %d at %d×L: dynamic NTK's frequencies\n%v\nntk-eff's\n%v\nwant them equal", m.Dim/m.Heads, k, dyn, eff)
			}
			if slices.Equal(dyn, ntk) {
				t.Errorf("head %d at %d×L: dynamic NTK equals static NTK at n/L: the control would control nothing", m.Dim/m.Heads, k)
			}
		}
	}
	// yarn-notemp is yarn's control: the same frequencies, temperature 1.
	m := DefaultConfig().Model(RoPE)
	m.Scaling = MethodScaling("yarn", 4*L, L, f)
	yarn := m.rope()
	m.Scaling = MethodScaling("yarn-notemp", 4*L, L, f)
	notemp := m.rope()
	yf, _ := yarn.InvFreq()
	nf, err := notemp.InvFreq()
	if err != nil || !slices.Equal(yf, nf) {
		t.Errorf("yarn-notemp's frequencies %v (%v); want yarn's %v", nf, err, yf)
	}
	if got, want := yarn.AttentionFactor(), 0.1*math.Log(4)+1; math.Abs(got-want) > 1e-12 {
		t.Errorf("yarn's attention factor at 4L: %g; want 0.1·ln 4 + 1 = %g", got, want)
	}
	if got := notemp.AttentionFactor(); got != 1 {
		t.Errorf("yarn-notemp's attention factor: %g; want 1", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "longrope") {
			t.Errorf("MethodScaling(\"longrope\") recovered %v; want a panic naming the method", r)
		}
	}()
	MethodScaling("longrope", 4*L, L, f)
}

func TestConfigValidate(t *testing.T) {
	for name, c := range map[string]Config{
		"DefaultConfig": DefaultConfig(), "LayersConfig": LayersConfig(),
		"Quick(DefaultConfig)": Quick(DefaultConfig()), "Quick(LayersConfig)": Quick(LayersConfig()),
	} {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"no models", func(c *Config) { c.Encodings, c.Variants = nil, nil }, "no encodings"},
		{"variants only", func(c *Config) { c.Encodings = nil }, ""},
		{"no seeds", func(c *Config) { c.Seeds = nil }, "no seeds"},
		{"unknown encoding", func(c *Config) { c.Encodings = []Encoding{"xpos"} }, `unknown encoding "xpos"`},
		{"odd head", func(c *Config) { c.Dim = 30 }, "dim must be a multiple of 2·heads"},
		{"no layers", func(c *Config) { c.Layers = 0 }, "layers must be positive, got 0"},
		{"multiples from 2", func(c *Config) { c.Multiples = []int{2, 4} }, "multiples must start at 1"},
		{"multiples unsorted", func(c *Config) { c.Multiples = []int{1, 4, 2} }, "multiples must start at 1 and increase"},
		{"no multiples", func(c *Config) { c.Multiples = nil }, "multiples must start at 1"},
		{"depth past 1", func(c *Config) { c.Depths = []float64{0, 1.5} }, "depths must be in [0, 1], got 1.5"},
		{"depth NaN", func(c *Config) { c.Depths = []float64{math.NaN()} }, "depths must be in [0, 1], got NaN"},
		{"unknown method", func(c *Config) { c.Methods = []string{"pi", "longrope"} }, `unknown scaling method "longrope"`},
		{"no methods", func(c *Config) { c.Methods = nil }, ""},
		{"learning rate", func(c *Config) { c.LearningRate = math.NaN() }, "learning rate must be positive"},
		{"warm-up", func(c *Config) { c.Warmup = -1 }, "warm-up steps must not be negative"},
		{"min fraction", func(c *Config) { c.MinLRFrac = 2 }, "minimum learning-rate fraction must be in [0, 1]"},
		{"clip", func(c *Config) { c.Clip = -1 }, "gradient clip must not be negative"},
		{"no clip", func(c *Config) { c.Clip = 0 }, ""},
		{"recall fraction", func(c *Config) { c.RecallFrac = 1.5 }, "recall fraction must be in [0, 1]"},
		{"no pairs", func(c *Config) { c.Recall.Pairs = 0 }, "recall pairs must be in [1, 16], got 0"},
		{"more pairs than keys", func(c *Config) { c.Recall.Pairs = NumKeys + 1 }, "recall pairs must be in [1, 16], got 17"},
		{"no queries", func(c *Config) { c.Recall.Queries = 0 }, "recall queries must be in [1, pairs = 8] (each key asked once), got 0"},
		{"a key asked twice", func(c *Config) { c.Recall = Recall{Pairs: 4, Queries: 12} }, "recall queries must be in [1, pairs = 4]"},
		{"recall too long", func(c *Config) { c.Recall = Recall{Pairs: 9, Queries: 8} }, "need 68 tokens of room (twice the 34 they take), more than the length 64"},
		{"probe pairs", func(c *Config) { c.ProbePairs = NumKeys + 1 }, "probe pairs must be in [0, 16] and fit in 64 tokens, got 17"},
		{"first offset", func(c *Config) { c.FirstOffset = 62 }, "first offset must be in [0, 61], got 62"},
		{"distractors", func(c *Config) { c.Distractors = []int{0, 16} }, "distractors must be in [0, 15] and fit in 64 tokens, got 16"},
		{"sweep depth", func(c *Config) { c.SweepDepth = 2 }, "depths must be in [0, 1], got 2"},
		{"variant steps", func(c *Config) { c.Variants = []Variant{{Name: "s", Encoding: RoPE, Steps: -1}} }, "variant s: steps must not be negative, got -1"},
		{"variant lengths", func(c *Config) { c.Variants = []Variant{{Name: "s", Encoding: RoPE, Lengths: -1}} }, "variant s: lengths must not be negative, got -1"},
		{"variant seeds", func(c *Config) { c.Variants = []Variant{{Name: "s", Encoding: RoPE, Seeds: -1}} }, "variant s: seeds must not be negative, got -1"},
		{"scaled embeddings of RoPE", func(c *Config) { c.Variants = []Variant{{Name: "s", Encoding: RoPE, ScaleEmbeddings: true}} }, "scaled embeddings apply to sinusoidal only, not rope"},
		{"recall unused", func(c *Config) { c.RecallFrac, c.Recall = 0, Recall{} }, ""},
		{"answer weight", func(c *Config) { c.AnswerWeight = -1 }, "answer weight must not be negative"},
		{"valid every", func(c *Config) { c.ValidEvery = -1 }, "validation interval must not be negative"},
		{"curve windows", func(c *Config) { c.CurveWindows = 0 }, "curve windows must be positive"},
		{"no curve", func(c *Config) { c.ValidEvery, c.CurveWindows = 0, 0 }, ""},
		{"eval windows", func(c *Config) { c.EvalWindows = 0 }, "eval windows must be positive"},
		{"probes", func(c *Config) { c.Probes = 0 }, "probes must be positive"},
		{"fine-tune steps", func(c *Config) { c.FinetuneSteps = -1 }, "fine-tune steps must not be negative"},
		{"fine-tune multiple", func(c *Config) { c.FinetuneMultiple = 1 }, "multiple ≥ 2"},
		{"fine-tune batch", func(c *Config) { c.FinetuneBatch = 0 }, "positive batch"},
		{"no fine-tune", func(c *Config) { c.FinetuneSteps, c.FinetuneMultiple = 0, 1 }, ""},
		{"dynamic factor", func(c *Config) { c.DynamicNTKFactor = 0.5 }, "dynamic NTK factor must be at least 1"},
		{"unnamed variant", func(c *Config) { c.Variants = []Variant{{Encoding: RoPE, Heads: 8}} }, `a variant needs a name of its own, got ""`},
		{"variant named as an encoding", func(c *Config) { c.Variants = []Variant{{Name: "rope", Encoding: RoPE, Heads: 8}} }, `a name of its own, got "rope"`},
		{"variant's heads", func(c *Config) { c.Variants = []Variant{{Name: "rope-h3", Encoding: RoPE, Heads: 3}} }, "variant rope-h3: lab: dim must be a multiple of 2·heads"},
		{"NoPE layers of ALiBi", func(c *Config) { c.Variants = []Variant{{Name: "a", Encoding: ALiBi, NoPEEvery: 4}} }, "variant a: lab: NoPE layers and p-RoPE apply to rope only, not alibi"},
		{"p-RoPE of T5", func(c *Config) { c.Variants = []Variant{{Name: "p", Encoding: T5, Proportion: 0.5}} }, "apply to rope only, not t5"},
		{"proportion past 1", func(c *Config) { c.Variants = []Variant{{Name: "p", Encoding: RoPE, Proportion: 1.5}} }, "variant p: lab: rope proportion must be in [0, 1], got 1.5"},
		{"seed twice", func(c *Config) { c.Seeds = []int64{1, 2, 1} }, "seeds must differ, got 1 twice"},
		{"encoding twice", func(c *Config) { c.Encodings = []Encoding{RoPE, ALiBi, RoPE} }, "encodings must differ, got rope twice"},
		{"variant twice", func(c *Config) {
			c.Variants = []Variant{{Name: "v", Encoding: RoPE, Heads: 8}, {Name: "v", Encoding: ALiBi}}
		}, `variant names must differ, got "v" twice`},
		{"variant named as a scaled evaluation", func(c *Config) { c.Variants = []Variant{{Name: "rope+pi", Encoding: RoPE}} }, `got "rope+pi"`},
		{"NoPE every past the layers", func(c *Config) { c.Variants = []Variant{{Name: "n", Encoding: RoPE, NoPEEvery: 3}} }, "variant n: nope_every must be at most the layers (2), got 3"},
		{"negative NoPE every", func(c *Config) { c.Variants = []Variant{{Name: "n", Encoding: RoPE, NoPEEvery: -4}} }, "NoPE every must not be negative, got -4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			c.edit(&cfg)
			err := cfg.Validate()
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("Validate() = %v; want %q", err, c.want)
			}
		})
	}
}

func TestModelValidate(t *testing.T) {
	base := DefaultConfig().Model(RoPE)
	for _, c := range []struct {
		name string
		edit func(*Model)
		want string // "" for valid
	}{
		{"rope", func(*Model) {}, ""},
		{"NoPE every 4th layer", func(m *Model) { m.NoPEEvery = 4 }, ""},
		{"p-RoPE", func(m *Model) { m.Proportion = 0.25 }, ""},
		{"p-RoPE, all pairs", func(m *Model) { m.Proportion = 1 }, ""},
		{"NoPE layers and p-RoPE", func(m *Model) { m.NoPEEvery, m.Proportion = 4, 0.25 }, ""},
		{"scaled", func(m *Model) { m.Scaling = posenc.YaRNScaling(4, 64) }, ""},
		{"unknown encoding", func(m *Model) { m.Encoding = "xpos" }, `unknown encoding "xpos"`},
		{"no heads", func(m *Model) { m.Heads = 0 }, "heads must be positive, got 0"},
		{"no dim", func(m *Model) { m.Dim = 0 }, "dim must be positive, got 0"},
		{"no train length", func(m *Model) { m.TrainLen = 0 }, "train length must be positive, got 0"},
		{"odd head dimension", func(m *Model) { m.Dim = 36 }, "dim must be a multiple of 2·heads"},
		{"ALiBi scaled", func(m *Model) { m.Encoding, m.Scaling = ALiBi, posenc.LinearScaling(2) }, "applies to rope only, not alibi"},
		{"ALiBi with NoPE layers", func(m *Model) { m.Encoding, m.NoPEEvery = ALiBi, 4 }, "NoPE layers and p-RoPE apply to rope only, not alibi"},
		{"learned p-RoPE", func(m *Model) { m.Encoding, m.Proportion = Learned, 0.5 }, "apply to rope only, not learned"},
		{"NoPE with NoPE layers", func(m *Model) { m.Encoding, m.NoPEEvery = NoPE, 2 }, "apply to rope only, not none"},
		{"negative NoPE every", func(m *Model) { m.NoPEEvery = -1 }, "NoPE every must not be negative, got -1"},
		{"proportion past 1", func(m *Model) { m.Proportion = 1.25 }, "rope proportion must be in [0, 1], got 1.25"},
		{"negative proportion", func(m *Model) { m.Proportion = -0.25 }, "rope proportion must be in [0, 1], got -0.25"},
		{"proportion NaN", func(m *Model) { m.Proportion = math.NaN() }, "rope proportion must be in [0, 1], got NaN"},
		{"p-RoPE scaled", func(m *Model) { m.Proportion, m.Scaling = 0.25, posenc.LinearScaling(2) }, "a p-RoPE model cannot also take scaling"},
		// T5's last bucket must begin past its exact ones (buckets/2 for a
		// causal model): an error, not NewT5Encoder's panic.
		{"T5 too short", func(m *Model) { m.Encoding, m.T5MaxLen = T5, 16 }, "max_distance must be > max_exact (16), got 16"},
		{"ALiBi with T5's bad buckets", func(m *Model) { m.Encoding, m.T5MaxLen = ALiBi, 16 }, ""}, // the buckets matter to T5 only
	} {
		t.Run(c.name, func(t *testing.T) {
			m := base
			c.edit(&m)
			err := m.Validate()
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("Validate() = %v; want %q", err, c.want)
			}
		})
	}
	if _, err := ParseEncoding("RoPE"); err == nil {
		t.Error("ParseEncoding is case-insensitive; want exact names")
	}
}

// The variants are the models lessons 8 and 9 describe, and Quick keeps
// them what they are at its small size.
func TestVariants(t *testing.T) {
	rotating := func(m Model) []bool {
		var at []bool
		for i := range m.Layers {
			at = append(at, m.ropeAt(i))
		}
		return at
	}
	variant := func(c Config, name string) Model {
		i := slices.IndexFunc(c.Variants, func(v Variant) bool { return v.Name == name })
		if i < 0 {
			t.Fatalf("no variant %q in %+v", name, c.Variants)
		}
		return c.VariantModel(c.Variants[i])
	}
	for _, c := range []struct {
		name      string
		m         Model
		headDim   int
		rotating  []bool
		rotations int // pairs of each head that rotate
	}{
		{"rope", DefaultConfig().Model(RoPE), 16, []bool{true, true}, 8},
		{"none", DefaultConfig().Model(NoPE), 16, []bool{false, false}, 8},
		{"rope-hd8", variant(DefaultConfig(), "rope-hd8"), 8, []bool{true, true}, 4},
		{"rope-nope-3:1", variant(LayersConfig(), "rope-nope-3:1"), 16, []bool{true, true, true, false}, 8},
		{"p-rope", variant(LayersConfig(), "p-rope"), 16, []bool{true, true, true, true}, 2},
		{"quick rope-hd8", variant(Quick(DefaultConfig()), "rope-hd8"), 4, []bool{true}, 2},
		{"quick rope-nope-3:1", variant(Quick(LayersConfig()), "rope-nope-3:1"), 8, []bool{true, false}, 4},
		{"quick p-rope", variant(Quick(LayersConfig()), "p-rope"), 8, []bool{true, true}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.m.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := c.m.Dim / c.m.Heads; got != c.headDim {
				t.Errorf("head dimension %d; want %d", got, c.headDim)
			}
			if got := rotating(c.m); !slices.Equal(got, c.rotating) {
				t.Errorf("layers rotating %v; want %v", got, c.rotating)
			}
			if got := c.m.rope().RotatedPairs(); got != c.rotations {
				t.Errorf("%d pairs rotate; want %d", got, c.rotations)
			}
		})
	}
}

// TotalSteps counts every model's and fine-tune's steps for every seed:
// the progress bar's ETA.
func TestTotalSteps(t *testing.T) {
	d, l, q := DefaultConfig(), LayersConfig(), Quick(DefaultConfig())
	noRoPE := DefaultConfig()
	noRoPE.Encodings = []Encoding{ALiBi, T5}
	for _, c := range []struct {
		name string
		c    Config
		want int
	}{
		// Five seeds of six encodings and rope-hd8, and the two fine-tunes;
		// three of the controls: five of 2,000 steps, two of 4,000.
		{"DefaultConfig", d, 5*(7*d.Steps+2*d.FinetuneSteps) + 3*(5*d.Steps+2*4000)},
		{"LayersConfig", l, 5 * 4 * l.Steps},                         // no fine-tune, no controls
		{"without rope", noRoPE, 5*3*d.Steps + 3*(5*d.Steps+2*4000)}, // alibi, t5, rope-hd8: no fine-tune
		// Two seeds of the models, one of the controls, the long ones twice the steps.
		{"Quick", q, 2*(7*q.Steps+2*q.FinetuneSteps) + (5*q.Steps + 2*2*q.Steps)},
	} {
		if got := c.c.TotalSteps(); got != c.want {
			t.Errorf("%s: %d; want %d", c.name, got, c.want)
		}
	}
}

// TestQuickLeavesItsArgument checks that Quick returns a copy: the
// caller's variants keep their heads and NoPE layers.
func TestQuickLeavesItsArgument(t *testing.T) {
	c := LayersConfig()
	before := slices.Clone(c.Variants)
	Quick(c)
	if !slices.Equal(c.Variants, before) {
		t.Errorf("Quick changed its argument's variants: %+v; were %+v", c.Variants, before)
	}
}

// TestTrainingNeedsValidBatch checks that a learning curve without a
// validation batch is a clear error, not a panic in the first evaluation.
func TestTrainingNeedsValidBatch(t *testing.T) {
	tr := DefaultConfig().training(1)
	err := tr.Validate()
	if err == nil || !strings.Contains(err.Error(), "validation every 100 steps needs a validation batch") {
		t.Errorf("Validate() = %v; want the missing validation batch named", err)
	}
	tr.Valid = Batch{Inputs: [][]int32{{1, 2, 3, 4}}}
	if err := tr.Validate(); err != nil {
		t.Errorf("with a validation batch: %v", err)
	}
}
