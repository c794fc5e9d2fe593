package posenc

import (
	"fmt"
	"math"

	"github.com/posenc/course/internal/validate"
)

// ScalingKind names a RoPE frequency-scaling method, as Hugging Face
// transformers' rope_type does.
type ScalingKind int

const (
	// ScalingNone keeps the trained frequencies ("default").
	ScalingNone ScalingKind = iota
	// ScalingLinear divides every frequency by Factor: position
	// interpolation (Chen et al. 2023, https://arxiv.org/abs/2306.15595;
	// HF "linear").
	ScalingLinear
	// ScalingNTK raises the base to base·s^(d/(d−2)), d the rotary dimension
	// (bloc97's "NTK-aware" scaling, 2023): the highest frequency is kept,
	// the lowest is divided by exactly s.
	ScalingNTK
	// ScalingDynamic is NTK-aware scaling whose factor grows with the
	// current length (HF "dynamic"): base·(s·L/L₀ − (s−1))^(d/(d−2)) for
	// L = max(SeqLen, OriginalLen).
	ScalingDynamic
	// ScalingYaRN blends interpolated and original frequencies with a linear
	// ramp over wavelengths, and scales attention by 0.1·ln s + 1 (Peng et
	// al. 2023, https://arxiv.org/abs/2309.00071; HF "yarn").
	ScalingYaRN
	// ScalingLlama3 keeps high frequencies, divides low ones by Factor, and
	// blends in between (Meta's Llama 3.1; HF "llama3").
	ScalingLlama3
	// ScalingProportional is p-RoPE (HF "proportional", Gemma 4's global
	// layers): only the first, highest-frequency Proportion of the pairs
	// rotate, with the frequencies of full RoPE (the whole rotary width as
	// denominator); the other pairs get frequency 0 and pass through
	// unchanged. See rope_proportional.go.
	ScalingProportional
	// ScalingLongRoPE divides pair i's frequency by a searched per-pair
	// factor, ShortFactor[i] up to OriginalLen positions and LongFactor[i]
	// past it, and scales attention by √(1 + ln s / ln L₀) (Ding et al.
	// 2024, https://arxiv.org/abs/2402.13753; Phi-3, Phi-3.5, Phi-4-mini;
	// HF "longrope"). See rope_longrope.go.
	ScalingLongRoPE
)

var scalingNames = [...]string{"none", "linear", "ntk", "dynamic", "yarn", "llama3", "proportional", "longrope"}

// String returns the name used by the posenc command: none, linear, ntk,
// dynamic, yarn, llama3, proportional or longrope.
func (k ScalingKind) String() string {
	if k >= 0 && int(k) < len(scalingNames) {
		return scalingNames[k]
	}
	return fmt.Sprintf("ScalingKind(%d)", int(k))
}

// ParseScalingKind is the inverse of ScalingKind.String.
func ParseScalingKind(name string) (ScalingKind, error) {
	for i, n := range scalingNames {
		if n == name {
			return ScalingKind(i), nil
		}
	}
	return 0, validate.Err("scaling", name, "must be one of none, linear, ntk, dynamic, yarn, llama3, proportional, longrope")
}

// Scaling configures RoPE frequency scaling for contexts longer than the one
// a model was trained on. Field names follow Hugging Face's rope_scaling
// dictionary; as there, a zero BetaFast, BetaSlow, LowFreqFactor or
// HighFreqFactor means its default.
type Scaling struct {
	Kind ScalingKind
	// Factor s ≥ 1: how many times longer the target context is.
	Factor float64
	// OriginalLen is the trained context length L₀
	// (original_max_position_embeddings); needed by dynamic, YaRN and Llama 3.
	OriginalLen int
	// SeqLen is the current sequence length, for ScalingDynamic and
	// ScalingLongRoPE (which switches to LongFactor past OriginalLen).
	SeqLen int
	// BetaFast and BetaSlow (YaRN; defaults 32 and 1) are the numbers of
	// full rotations over OriginalLen above which a frequency is kept and
	// below which it is interpolated.
	BetaFast, BetaSlow float64
	// LowFreqFactor and HighFreqFactor (Llama 3; defaults 1 and 4): wavelengths
	// longer than OriginalLen/LowFreqFactor are divided by Factor, shorter
	// than OriginalLen/HighFreqFactor kept, and smoothly blended in between.
	LowFreqFactor, HighFreqFactor float64
	// AttentionFactor (YaRN) multiplies cos and sin, hence both q and k; 0
	// means 0.1·ln(Factor) + 1.
	AttentionFactor float64
	// Proportion (ScalingProportional) is the fraction of the pairs that
	// rotate, in [0, 1]: HF's partial_rotary_factor under rope_type
	// "proportional". For this kind a zero Factor means 1.
	Proportion float64
	// MScale and MScaleAllDim (YaRN, DeepSeek-V2/V3): when both are set and
	// AttentionFactor is 0, the factor on cos and sin is
	// mscale(s, MScale)/mscale(s, MScaleAllDim), mscale(s, m) = 0.1·m·ln s + 1,
	// and MScaleAllDim also corrects the softmax scale (SoftmaxScale).
	MScale, MScaleAllDim float64
	// NoTruncate (YaRN, gpt-oss's truncate: false) keeps the ends of YaRN's
	// ramp fractional instead of flooring and ceiling them.
	NoTruncate bool
	// LongRoPE (ScalingLongRoPE) holds the per-pair divisors. It is a
	// pointer so that Scaling, and RoPE, stay comparable with ==.
	LongRoPE *LongRoPEFactors
}

// LinearScaling returns position interpolation by factor.
func LinearScaling(factor float64) Scaling {
	return Scaling{Kind: ScalingLinear, Factor: factor}
}

// NTKScaling returns static NTK-aware base scaling by factor.
func NTKScaling(factor float64) Scaling {
	return Scaling{Kind: ScalingNTK, Factor: factor}
}

// DynamicNTKScaling returns dynamic NTK scaling for a model trained on
// originalLen positions, now run on seqLen positions.
func DynamicNTKScaling(factor float64, originalLen, seqLen int) Scaling {
	return Scaling{Kind: ScalingDynamic, Factor: factor, OriginalLen: originalLen, SeqLen: seqLen}
}

// YaRNScaling returns YaRN with the default betas (32, 1) and attention
// factor (0.1·ln factor + 1).
func YaRNScaling(factor float64, originalLen int) Scaling {
	return Scaling{Kind: ScalingYaRN, Factor: factor, OriginalLen: originalLen, BetaFast: 32, BetaSlow: 1}
}

// Llama3Scaling returns Llama 3.1's scaling with the default band factors
// (low 1, high 4).
func Llama3Scaling(factor float64, originalLen int) Scaling {
	return Scaling{Kind: ScalingLlama3, Factor: factor, OriginalLen: originalLen, LowFreqFactor: 1, HighFreqFactor: 4}
}

// orDefault returns v, or def when v is 0: HF's `rope_scaling.get(key) or def`.
func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// betas returns YaRN's beta_fast and beta_slow, defaults applied.
func (sc Scaling) betas() (fast, slow float64) {
	return orDefault(sc.BetaFast, 32), orDefault(sc.BetaSlow, 1)
}

// llama3Factors returns Llama 3's low and high frequency factors, defaults applied.
func (sc Scaling) llama3Factors() (low, high float64) {
	return orDefault(sc.LowFreqFactor, 1), orDefault(sc.HighFreqFactor, 4)
}

// validate checks sc for a rotary dimension rot.
func (sc Scaling) validate(rot int) error {
	if sc.Kind < ScalingNone || sc.Kind > ScalingLongRoPE {
		return validate.Err("scaling", int(sc.Kind), "must be a known ScalingKind")
	}
	if sc.Kind == ScalingNone {
		return nil
	}
	if sc.Kind == ScalingProportional {
		return sc.validateProportional()
	}
	if sc.Kind == ScalingLongRoPE {
		return sc.validateLongRoPE(rot)
	}
	if err := validate.Finite("factor", sc.Factor); err != nil {
		return err
	}
	if sc.Factor < 1 {
		return validate.Err("factor", sc.Factor, "must be >= 1")
	}
	switch sc.Kind {
	case ScalingNTK, ScalingDynamic:
		if rot <= 2 {
			return validate.Err("rotary_dim", rot, "must be > 2 for NTK scaling (the exponent is d/(d−2))")
		}
	}
	switch sc.Kind {
	case ScalingDynamic, ScalingYaRN, ScalingLlama3:
		if err := validate.Positive("original_len", sc.OriginalLen); err != nil {
			return err
		}
		if sc.OriginalLen > validate.MaxPosition {
			return validate.Err("original_len", sc.OriginalLen, "must be <= 2^40")
		}
	}
	switch sc.Kind {
	case ScalingDynamic:
		if err := validate.Position("seq_len", sc.SeqLen); err != nil {
			return err
		}
	case ScalingYaRN:
		if err := checkOptional(optional{"beta_fast", sc.BetaFast}, optional{"beta_slow", sc.BetaSlow},
			optional{"attention_factor", sc.AttentionFactor}, optional{"mscale", sc.MScale},
			optional{"mscale_all_dim", sc.MScaleAllDim}); err != nil {
			return err
		}
		if fast, slow := sc.betas(); fast <= slow {
			return validate.Err("beta_fast", fast, fmt.Sprintf("must be > beta_slow (%g)", slow))
		}
	case ScalingLlama3:
		if err := checkOptional(optional{"low_freq_factor", sc.LowFreqFactor}, optional{"high_freq_factor", sc.HighFreqFactor}); err != nil {
			return err
		}
		if low, high := sc.llama3Factors(); high <= low {
			return validate.Err("high_freq_factor", high, fmt.Sprintf("must be > low_freq_factor (%g)", low))
		}
	}
	return nil
}

// optional is an optional parameter: 0 means its default.
type optional struct {
	name string
	v    float64
}

// checkOptional checks that each optional parameter is finite and positive,
// or 0 for its default.
func checkOptional(params ...optional) error {
	for _, p := range params {
		if err := validate.Finite(p.name, p.v); err != nil {
			return err
		}
		if p.v < 0 {
			return validate.Err(p.name, p.v, "must be > 0 (or 0 for the default)")
		}
	}
	return nil
}

// attentionFactor is the factor HF multiplies cos and sin by.
func (sc Scaling) attentionFactor() float64 {
	switch sc.Kind {
	case ScalingLongRoPE:
		return sc.longRoPEAttentionFactor()
	case ScalingYaRN:
	default:
		return 1
	}
	if sc.AttentionFactor != 0 {
		return sc.AttentionFactor
	}
	if sc.MScale != 0 && sc.MScaleAllDim != 0 {
		return yarnMScale(sc.Factor, sc.MScale) / yarnMScale(sc.Factor, sc.MScaleAllDim)
	}
	return yarnMScale(sc.Factor, 1)
}

// yarnMScale is YaRN's attention temperature, HF's get_mscale: 1 for s ≤ 1,
// else 0.1·m·ln s + 1.
func yarnMScale(s, m float64) float64 {
	if s <= 1 {
		return 1
	}
	return 0.1*m*math.Log(s) + 1
}

// yarnRange returns the ramp's ends, as pair indices, following HF's
// find_correction_range: the pair whose wavelength fits beta rotations into
// OriginalLen, floored (fast end) and ceiled (slow end) unless NoTruncate,
// clamped to [0, rot−1].
func (sc Scaling) yarnRange(rot int, base float64) (low, high float64) {
	fast, slow := sc.betas()
	corr := func(rotations float64) float64 {
		return float64(rot) * math.Log(float64(sc.OriginalLen)/(rotations*2*math.Pi)) / (2 * math.Log(base))
	}
	low, high = corr(fast), corr(slow)
	if !sc.NoTruncate {
		low, high = math.Floor(low), math.Ceil(high)
	}
	low = math.Max(low, 0)
	high = math.Min(high, float64(rot-1))
	if low == high {
		high += 0.001 // HF's linear_ramp_factor guard against a zero-width ramp
	}
	return low, high
}

// invFreq returns the scaled frequency of pair i of rot rotary dimensions.
// sc must be valid for rot.
func (sc Scaling) invFreq(i, rot int, base float64) float64 {
	exponent := float64(2*i) / float64(rot)
	w := math.Pow(base, -exponent)
	s := sc.Factor
	switch sc.Kind {
	case ScalingLinear:
		return w / s
	case ScalingNTK:
		b := base * math.Pow(s, float64(rot)/float64(rot-2))
		return math.Pow(b, -exponent)
	case ScalingDynamic:
		l := float64(max(sc.SeqLen, sc.OriginalLen))
		b := base * math.Pow(s*l/float64(sc.OriginalLen)-(s-1), float64(rot)/float64(rot-2))
		return math.Pow(b, -exponent)
	case ScalingYaRN:
		low, high := sc.yarnRange(rot, base)
		ramp := math.Min(math.Max((float64(i)-low)/(high-low), 0), 1)
		keep := 1 - ramp // share of the original (extrapolated) frequency
		return (w/s)*(1-keep) + w*keep
	case ScalingProportional:
		return sc.proportionalInvFreq(i, rot, w)
	case ScalingLongRoPE:
		return w / sc.longRoPEFactors()[i]
	case ScalingLlama3:
		low, high := sc.llama3Factors()
		l0 := float64(sc.OriginalLen)
		wavelen := 2 * math.Pi / w
		switch {
		case wavelen < l0/high:
			return w
		case wavelen > l0/low:
			return w / s
		}
		smooth := (l0/wavelen - low) / (high - low)
		return (1-smooth)*w/s + smooth*w
	}
	return w
}
