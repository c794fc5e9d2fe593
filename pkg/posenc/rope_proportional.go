package posenc

import (
	"math"

	"github.com/posenc/course/internal/validate"
)

// p-RoPE, "proportional" RoPE (Barbero et al. 2024, "Round and Round We Go!
// What makes Rotary Positional Encodings useful?",
// https://arxiv.org/abs/2410.06205, section 6; Hugging Face transformers'
// _compute_proportional_rope_parameters, used by Gemma 4's global layers).
//
// Of the d/2 pairs of a head of rotary width d, the first
// ⌊Proportion·d/2⌋ rotate with the frequencies full RoPE gives them,
// ω_i = base^(−2i/d): the denominator stays d, so the rotating pairs are
// exactly the highest-frequency ones of full RoPE. The remaining pairs get
// frequency 0: cos 0 = 1 and sin 0 = 0, so they carry no position at all
// and serve as position-free "semantic" channels.
//
// This is not partial rotary (RoPE.RotaryDim, GPT-NeoX's rotary_pct,
// Phi-2's partial_rotary_factor under "default"), which recomputes the
// frequencies over the rotated width alone, ω_i = base^(−2i/RotaryDim): its
// slowest pair turns as slowly as full RoPE's slowest one. p-RoPE drops the
// slow pairs instead.

// ProportionalScaling returns p-RoPE rotating the given fraction of the
// pairs (HF's partial_rotary_factor under rope_type "proportional"), with no
// further frequency scaling.
func ProportionalScaling(proportion float64) Scaling {
	return Scaling{Kind: ScalingProportional, Factor: 1, Proportion: proportion}
}

// RotatedPairs returns how many pairs of r turn with position (a non-zero
// frequency): Rot()/2, or ⌊Proportion·Rot()/2⌋ for p-RoPE.
func (r RoPE) RotatedPairs() int {
	half := r.Rot() / 2
	if r.Scaling.Kind != ScalingProportional {
		return half
	}
	return proportionalPairs(r.Scaling.Proportion, r.Rot())
}

// proportionalPairs is HF's rope_angles = int(proportion * head_dim // 2).
func proportionalPairs(proportion float64, rot int) int {
	return int(math.Floor(proportion * float64(rot) / 2))
}

// validateProportional checks Proportion and Factor (0 meaning 1).
func (sc Scaling) validateProportional() error {
	if err := validate.Finite("proportion", sc.Proportion); err != nil {
		return err
	}
	if sc.Proportion < 0 || sc.Proportion > 1 {
		return validate.Err("proportion", sc.Proportion, "must be in [0, 1]")
	}
	if err := validate.Finite("factor", sc.Factor); err != nil {
		return err
	}
	if sc.Factor != 0 && sc.Factor < 1 {
		return validate.Err("factor", sc.Factor, "must be >= 1 (or 0 for 1)")
	}
	return nil
}

// proportionalInvFreq returns pair i's frequency under p-RoPE, w being full
// RoPE's base^(−2i/rot): w/Factor for the rotating pairs, 0 for the rest.
func (sc Scaling) proportionalInvFreq(i, rot int, w float64) float64 {
	if i >= proportionalPairs(sc.Proportion, rot) {
		return 0
	}
	return w / orDefault(sc.Factor, 1)
}
