package main

import (
	"slices"

	"github.com/posenc/course/pkg/posenc"
)

// scalingKinds are the -scaling words, as posenc.ScalingKind.String spells
// them (Hugging Face's rope_type, with "none" for "default").
var scalingKinds = []string{"none", "linear", "ntk", "dynamic", "yarn", "llama3"}

// scalingFlags are the RoPE frequency-scaling flags shared by rope-freqs,
// rope and plot -kind rope.
type scalingFlags struct {
	kind                       *string
	factor                     *float64
	origLen, seqLen            *int
	betaFast, betaSlow, attn   *float64
	lowFreqFactor, highFreqFac *float64
}

// scalingApplies says which -scaling kinds use each scaling flag: giving
// one that the chosen kind ignores is an error rather than a silent no-op.
// It is a list, not a map, so that the first offending flag is always the
// same one.
var scalingApplies = []struct {
	flag  string
	kinds []string
}{
	{"factor", []string{"linear", "ntk", "dynamic", "yarn", "llama3"}},
	{"orig-len", []string{"dynamic", "yarn", "llama3"}},
	{"seq-len", []string{"dynamic"}},
	{"beta-fast", []string{"yarn"}},
	{"beta-slow", []string{"yarn"}},
	{"attention-factor", []string{"yarn"}},
	{"low-freq-factor", []string{"llama3"}},
	{"high-freq-factor", []string{"llama3"}},
}

// scalingRequires lists the flags each kind needs.
var scalingRequires = map[string][]string{
	"linear":  {"factor"},
	"ntk":     {"factor"},
	"dynamic": {"factor", "orig-len"},
	"yarn":    {"factor", "orig-len"},
	"llama3":  {"factor", "orig-len"},
}

func defineScalingFlags(f *flags) *scalingFlags {
	s := &scalingFlags{}
	s.kind = f.Choice("scaling", "none", scalingKinds,
		"frequency scaling `KIND` for longer contexts (Hugging Face's rope_type):\n"+orList(scalingKinds))
	s.factor = f.Finite("factor", 0, "scaling factor `S` ≥ 1: how many times longer the context is (required with -scaling)")
	s.origLen = f.Int("orig-len", 0,
		"trained context length `L` (original_max_position_embeddings); required by dynamic, yarn, llama3")
	s.seqLen = f.Int("seq-len", 0, "dynamic: current sequence length `L`; 0 means -orig-len")
	s.betaFast = f.Finite("beta-fast", 32, "yarn: rotations `F` over -orig-len above which a frequency is kept")
	s.betaSlow = f.Finite("beta-slow", 1, "yarn: rotations `F` over -orig-len below which a frequency is interpolated")
	s.attn = f.Finite("attention-factor", 0, "yarn: factor `A` on cos and sin; 0 means 0.1·ln(S)+1")
	s.lowFreqFactor = f.Finite("low-freq-factor", 1, "llama3: wavelengths above orig-len/`F` are divided by S")
	s.highFreqFac = f.Finite("high-freq-factor", 4, "llama3: wavelengths below orig-len/`F` are kept")
	return s
}

// build checks the scaling flags against each other and returns the
// Scaling they describe. The library validates the rest.
func (s *scalingFlags) build(f *flags) (posenc.Scaling, error) {
	kind := *s.kind
	for _, a := range scalingApplies {
		if f.given(a.flag) && !slices.Contains(a.kinds, kind) {
			return posenc.Scaling{}, usagef("-%s applies only to -scaling %s, not %s", a.flag, orList(a.kinds), kind)
		}
	}
	for _, name := range scalingRequires[kind] {
		if !f.given(name) {
			return posenc.Scaling{}, usagef("-%s is required with -scaling %s", name, kind)
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"beta-fast", *s.betaFast}, {"beta-slow", *s.betaSlow}, {"low-freq-factor", *s.lowFreqFactor}, {"high-freq-factor", *s.highFreqFac}} {
		if p.v <= 0 {
			return posenc.Scaling{}, usagef("-%s must be > 0, got %g", p.name, p.v)
		}
	}
	if kind == "yarn" && *s.betaFast <= *s.betaSlow {
		return posenc.Scaling{}, usagef("-beta-fast must be greater than -beta-slow (%g), got %g", *s.betaSlow, *s.betaFast)
	}
	if kind == "llama3" && *s.highFreqFac <= *s.lowFreqFactor {
		return posenc.Scaling{}, usagef("-high-freq-factor must be greater than -low-freq-factor (%g), got %g",
			*s.lowFreqFactor, *s.highFreqFac)
	}
	k, err := posenc.ParseScalingKind(kind)
	if err != nil {
		return posenc.Scaling{}, paramError(err, ropeParams)
	}
	sc := posenc.Scaling{Kind: k}
	if k == posenc.ScalingNone {
		return sc, nil
	}
	sc.Factor = *s.factor
	sc.OriginalLen = *s.origLen
	sc.SeqLen = *s.seqLen
	if k == posenc.ScalingYaRN {
		sc.BetaFast, sc.BetaSlow, sc.AttentionFactor = *s.betaFast, *s.betaSlow, *s.attn
	}
	if k == posenc.ScalingLlama3 {
		sc.LowFreqFactor, sc.HighFreqFactor = *s.lowFreqFactor, *s.highFreqFac
	}
	return sc, nil
}

// ropeParams maps posenc's RoPE parameter names to flags. head_dim is -dim
// for rope-freqs and plot; rope replaces it (see ropeParamsFor).
var ropeParams = map[string]string{
	"head_dim": "dim", "rotary_dim": "rotary-dim", "base": "base", "layout": "layout",
	"scaling": "scaling", "factor": "factor", "original_len": "orig-len", "seq_len": "seq-len",
	"beta_fast": "beta-fast", "beta_slow": "beta-slow", "attention_factor": "attention-factor",
	"low_freq_factor": "low-freq-factor", "high_freq_factor": "high-freq-factor",
}

// ropeParamsFor returns ropeParams with head_dim named headDimFlag, and
// rotary_dim named headDimFlag too when -rotary-dim was not given (the
// rotary dimension is then the head dimension).
func ropeParamsFor(f *flags, headDimFlag string) map[string]string {
	m := make(map[string]string, len(ropeParams))
	for k, v := range ropeParams {
		m[k] = v
	}
	m["head_dim"] = headDimFlag
	if !f.given("rotary-dim") {
		m["rotary_dim"] = headDimFlag
	}
	return m
}

// checkRotaryDim checks -rotary-dim against the head dimension, with a
// message naming both flags.
func checkRotaryDim(rotaryDim, headDim int, headDimFlag string) error {
	if rotaryDim < 0 || rotaryDim > headDim {
		return usagef("-rotary-dim must be between 0 and -%s (%d), got %d", headDimFlag, headDim, rotaryDim)
	}
	if rotaryDim%2 != 0 {
		return usagef("-rotary-dim must be even, got %d", rotaryDim)
	}
	return nil
}
