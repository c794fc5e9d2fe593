package posenc

import (
	"math"
	"strconv"

	"github.com/posenc/course/internal/validate"
)

// LongRoPE (Ding et al. 2024, "LongRoPE: Extending LLM Context Window Beyond
// 2 Million Tokens", https://arxiv.org/abs/2402.13753), as Phi-3, Phi-3.5
// and Phi-4-mini ship it and Hugging Face transformers computes it
// (_compute_longrope_parameters and dynamic_rope_update's
// longrope_frequency_update):
//
//	ω_i = base^(−2i/d) / λ_i,   λ = short_factor while the sequence fits
//	                            OriginalLen, long_factor beyond it
//
// The per-pair factors λ were found by an evolutionary search rather than a
// formula. The attention factor √(1 + ln s / ln L₀) multiplies cos and sin
// for every length, s being the extension factor (max_position_embeddings /
// original_max_position_embeddings when the config gives no factor).
//
// The switch is per forward pass: once the sequence grows past OriginalLen,
// every position — including those whose keys were rotated with the short
// factors and cached — should be rotated with the long ones. A KV cache
// built before the switch holds keys rotated by the wrong frequencies;
// Hugging Face recomputes the frequencies, not the cached keys.

// LongRoPEFactors are LongRoPE's searched divisors, one per rotary pair:
// Short up to OriginalLen positions, Long beyond (HF's short_factor and
// long_factor).
type LongRoPEFactors struct {
	Short, Long []float64
}

// LongRoPEScaling returns LongRoPE for a model trained on originalLen
// positions and extended factor times, with one short and one long divisor
// per rotary pair, at sequence length seqLen (LongFactor applies when
// seqLen > originalLen).
func LongRoPEScaling(factor float64, originalLen, seqLen int, short, long []float64) Scaling {
	return Scaling{Kind: ScalingLongRoPE, Factor: factor, OriginalLen: originalLen, SeqLen: seqLen,
		LongRoPE: &LongRoPEFactors{Short: short, Long: long}}
}

// UsesLongFactor reports whether LongRoPE uses its long factors: the
// sequence is longer than OriginalLen.
func (sc Scaling) UsesLongFactor() bool {
	return sc.Kind == ScalingLongRoPE && sc.SeqLen > sc.OriginalLen
}

// longRoPEFactors returns the divisors in force at SeqLen.
func (sc Scaling) longRoPEFactors() []float64 {
	if sc.UsesLongFactor() {
		return sc.LongRoPE.Long
	}
	return sc.LongRoPE.Short
}

// longRoPEAttentionFactor is HF's default attention factor for LongRoPE,
// √(1 + ln s / ln L₀) (1 for s ≤ 1), unless AttentionFactor is given.
func (sc Scaling) longRoPEAttentionFactor() float64 {
	if sc.AttentionFactor != 0 {
		return sc.AttentionFactor
	}
	if sc.Factor <= 1 {
		return 1
	}
	return math.Sqrt(1 + math.Log(sc.Factor)/math.Log(float64(sc.OriginalLen)))
}

// validateLongRoPE checks the factor lists (rot/2 finite positive values
// each), OriginalLen (> 1, so that ln L₀ > 0), SeqLen and AttentionFactor.
func (sc Scaling) validateLongRoPE(rot int) error {
	if err := validate.Finite("factor", sc.Factor); err != nil {
		return err
	}
	if sc.Factor < 1 {
		return validate.Err("factor", sc.Factor, "must be >= 1")
	}
	if sc.OriginalLen < 2 || sc.OriginalLen > validate.MaxPosition {
		return validate.Err("original_len", sc.OriginalLen, "must be in [2, 2^40]")
	}
	if err := validate.Position("seq_len", sc.SeqLen); err != nil {
		return err
	}
	if err := checkOptional(optional{"attention_factor", sc.AttentionFactor}); err != nil {
		return err
	}
	if sc.LongRoPE == nil {
		return validate.Err("long_rope", "nil", "must hold the short and long factors")
	}
	for _, l := range []struct {
		name string
		v    []float64
	}{{"short_factor", sc.LongRoPE.Short}, {"long_factor", sc.LongRoPE.Long}} {
		if len(l.v) != rot/2 {
			return validate.Err("len("+l.name+")", len(l.v), "must be rotary_dim/2 = "+strconv.Itoa(rot/2))
		}
		for i, v := range l.v {
			if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
				return validate.Err(l.name+"["+strconv.Itoa(i)+"]", v, "must be finite and > 0")
			}
		}
	}
	return nil
}
