package bandview

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/posenc/course/pkg/posenc/modelconfigs"
)

// refRegimes counts the pairs each method keeps, blends and interpolates,
// from the methods' own definitions in float64, independently of posenc:
//
//   - YaRN, the reference code (jquesnelle/yarn, scaled_rope/
//     LlamaYaRNScaledRotaryEmbedding.py; Hugging Face
//     modeling_rope_utils._compute_yarn_parameters): the ramp over the pair
//     index between floor(d·ln(L/(2π·32))/(2 ln b)) and
//     ceil(d·ln(L/(2π·1))/(2 ln b)); a pair at or below the low bound keeps
//     its frequency, at or above the high one it is divided by s.
//   - Llama 3 (Hugging Face _compute_llama3_parameters): λ < L/4 keeps,
//     λ > L interpolates, the rest blends.
//   - PI divides every pair by s; none keeps them all.
func refRegimes(c Config) (kept, blended, interpolated int) {
	half := c.HeadDim / 2
	lambda := func(i int) float64 { return 2 * math.Pi * math.Pow(c.Base, float64(2*i)/float64(c.HeadDim)) }
	L := float64(c.TrainLen)
	for i := range half {
		switch c.Method {
		case "none":
			kept++
		case "PI":
			interpolated++
		case "YaRN":
			bound := func(turns float64) float64 {
				return float64(c.HeadDim) * math.Log(L/(turns*2*math.Pi)) / (2 * math.Log(c.Base))
			}
			low, high := math.Max(math.Floor(bound(32)), 0), math.Min(math.Ceil(bound(1)), float64(c.HeadDim-1))
			switch {
			case float64(i) <= low:
				kept++
			case float64(i) >= high:
				interpolated++
			default:
				blended++
			}
		case "Llama 3":
			switch l := lambda(i); {
			case l < L/4:
				kept++
			case l > L:
				interpolated++
			default:
				blended++
			}
		}
	}
	return kept, blended, interpolated
}

func TestRegimesMatchTheMethodsDefinitions(t *testing.T) {
	for _, c := range []Config{
		{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4},    // lesson 5's head
		{HeadDim: 128, Base: 500000, TrainLen: 8192, Factor: 8},   // Llama 3.1
		{HeadDim: 64, Base: 10000, TrainLen: 2048, Factor: 16},    // a small head
		{HeadDim: 256, Base: 1000000, TrainLen: 32768, Factor: 2}, // a large base
	} {
		for _, m := range []string{"none", "PI", "YaRN", "Llama 3"} {
			c.Method = m
			b, err := Compute(c)
			if err != nil {
				t.Fatalf("%+v: %v", c, err)
			}
			k, bl, in := refRegimes(c)
			got := []int{b.Count(Kept), b.Count(Blended), b.Count(Interpolated), b.Count(Beyond)}
			if want := []int{k, bl, in, 0}; !slices.Equal(got, want) {
				t.Errorf("%+v: kept, blended, interpolated, beyond = %v, want %v", c, got, want)
			}
		}
	}
}

func TestLessonFivesNumbers(t *testing.T) {
	// Lesson 5, section 7: d = 128, base 10000, L = 4096, s = 4.
	for _, c := range []struct {
		method string
		counts []int // kept, blended, interpolated, beyond
		past   int
	}{
		{"none", []int{64, 0, 0, 0}, 18},
		{"PI", []int{0, 0, 64, 0}, 0},
		{"NTK", []int{1, 62, 1, 0}, 17},
		{"dynamic NTK", []int{1, 34, 0, 29}, 0},
		{"YaRN", []int{21, 25, 18, 0}, 0},
		{"Llama 3", []int{36, 10, 18, 0}, 0},
	} {
		b, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: c.method})
		if err != nil {
			t.Fatal(err)
		}
		got := []int{b.Count(Kept), b.Count(Blended), b.Count(Interpolated), b.Count(Beyond)}
		if !slices.Equal(got, c.counts) || len(b.Past) != c.past {
			t.Errorf("%s: regimes %v and %d pairs past their trained angle, want %v and %d", c.method, got, len(b.Past), c.counts, c.past)
		}
	}
}

// TestLongRoPEIsPhi35s checks the LongRoPE method against Phi-3.5-mini's
// config.json read here with encoding/json: ω_i = b^(−2i/d) / long_factor[i]
// (Hugging Face's _compute_longrope_parameters) on a head of 96 whatever
// the view's d, the long factors beyond the trained length.
func TestLongRoPEIsPhi35s(t *testing.T) {
	data, err := modelconfigs.Config("phi-3.5-mini")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		RopeScaling struct {
			LongFactor []float64 `json:"long_factor"`
		} `json:"rope_scaling"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	long := cfg.RopeScaling.LongFactor
	b, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 32, Method: "LongRoPE (Phi-3.5)"})
	if err != nil {
		t.Fatal(err)
	}
	if b.HeadDim != 96 || len(b.Scaled) != 48 || len(long) != 48 {
		t.Fatalf("d = %d with %d pairs, %d long factors: want Phi-3.5's head of 96", b.HeadDim, len(b.Scaled), len(long))
	}
	for i, f := range long {
		want := 2 * math.Pi * math.Pow(10000, float64(2*i)/96) * f
		if math.Abs(b.Scaled[i]-want) > 1e-9*want {
			t.Errorf("pair %d: wavelength %g, want %g", i, b.Scaled[i], want)
		}
	}
	if !strings.HasPrefix(b.Readout(PastTrained), "LongRoPE (Phi-3.5): d = 96, base = 10000, L = 4096, factor s = 32") {
		t.Errorf("readout %q", b.Readout(PastTrained))
	}
}

func TestPastTrainedAndWavelengths(t *testing.T) {
	b, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "none"})
	if err != nil {
		t.Fatal(err)
	}
	// Without scaling, the pairs past their trained angle at 4L are the
	// ones that never finish a turn in L: λ_i = 2π·b^(2i/d) > L.
	var unfinished []int
	for i := range 64 {
		if 2*math.Pi*math.Pow(10000, float64(2*i)/128) > 4096 {
			unfinished = append(unfinished, i)
		}
	}
	if !slices.Equal(b.Past, unfinished) || !slices.Equal(b.Unfinished(), unfinished) {
		t.Errorf("past %v, unfinished %v, want %v", b.Past, b.Unfinished(), unfinished)
	}
	if math.Abs(b.Wavelength[63]-54410) > 0.5 || math.Abs(b.Wavelength[0]-2*math.Pi) > 1e-12 {
		t.Errorf("λ_0 = %g, λ_63 = %g, want 2π and 54410", b.Wavelength[0], b.Wavelength[63])
	}
	pi, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "PI"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pi.Scaled {
		if math.Abs(pi.Scaled[i]/pi.Wavelength[i]-4) > 1e-12 {
			t.Fatalf("PI: pair %d stretched ×%g, want ×4", i, pi.Scaled[i]/pi.Wavelength[i])
		}
	}
}

func TestReadouts(t *testing.T) {
	b, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "YaRN"})
	if err != nil {
		t.Fatal(err)
	}
	want := "YaRN: d = 128, base = 10000, L = 4096, factor s = 4 (target 16384 tokens)\n" +
		"wavelengths: 6.3 to 54410 tokens unscaled, 6.3 to 217641 scaled\n" +
		"pairs kept 21, blended 25, interpolated 18, divided by more than s 0\n" +
		"pairs past their trained angle at 16384 tokens: 0\n" +
		"logit multiplier 1/t = 1.2965"
	if got := b.Readout(PastTrained); got != want {
		t.Errorf("readout:\n%s\nwant:\n%s", got, want)
	}
	none, err := Compute(Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 1, Method: "none"})
	if err != nil {
		t.Fatal(err)
	}
	r := none.Readout(Relative)
	if !strings.Contains(r, "pairs that turn less than once in L = 4096 tokens: 18 (pairs 46 to 63)\n") ||
		!strings.Contains(r, "relative property: max |q(m)·k(n) − q(m+t)·k(n+t)| = ") {
		t.Errorf("relative readout:\n%s", r)
	}
}

func TestRelativeErrorIsRounding(t *testing.T) {
	for _, m := range MethodNames() {
		for _, base := range []float64{500, 10000, 1e7} {
			e, err := RelativeError(Config{HeadDim: 128, Base: base, TrainLen: 4096, Factor: 8, Method: m})
			if err != nil {
				t.Fatal(err)
			}
			if !(e < 1e-10) {
				t.Errorf("%s, base %g: relative error %g, want rounding (< 1e-10)", m, base, e)
			}
		}
	}
}

func TestBadConfigs(t *testing.T) {
	ok := Config{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4, Method: "YaRN"}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Method = "yarn" }, `method must be one of none, PI, NTK, dynamic NTK, YaRN, Llama 3, LongRoPE (Phi-3.5), got "yarn"`},
		{func(c *Config) { c.Factor = 0.5 }, "factor must be a finite number ≥ 1, got 0.5"},
		{func(c *Config) { c.Factor = math.NaN() }, "factor must be a finite number ≥ 1, got NaN"},
		{func(c *Config) { c.TrainLen = 0 }, "training length must be at least 1, got 0"},
		{func(c *Config) { c.HeadDim = 7 }, "7"},
		{func(c *Config) { c.Base = -1 }, "-1"},
	} {
		cfg := ok
		c.edit(&cfg)
		if _, err := Compute(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", cfg, err, c.want)
		}
	}
}

func TestFigureDrawsEveryMethod(t *testing.T) {
	for _, m := range MethodNames() {
		for _, c := range []Config{
			{HeadDim: 128, Base: 10000, TrainLen: 4096, Factor: 4},
			{HeadDim: 64, Base: 500, TrainLen: 131072, Factor: 64},
			{HeadDim: 256, Base: 1e7, TrainLen: 256, Factor: 1},
		} {
			c.Method = m
			b, err := Compute(c)
			if err != nil {
				t.Fatal(err)
			}
			png, err := b.Figure().PNG(0, 0)
			if err != nil || len(png) < 1000 {
				t.Errorf("%+v: %d bytes of PNG, %v", c, len(png), err)
			}
		}
	}
}

func TestWith(t *testing.T) {
	values := []float64{1, 2, 4}
	if got, i := with(values, 2); !slices.Equal(got, values) || i != 1 {
		t.Errorf("with(2) = %v, %d", got, i)
	}
	if got, i := with(values, 3); !slices.Equal(got, []float64{1, 2, 3, 4}) || i != 2 || len(values) != 3 {
		t.Errorf("with(3) = %v, %d (values now %v)", got, i, values)
	}
}
