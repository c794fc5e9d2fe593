package posenc

// YaRN as shipped models configure it, beyond the paper's defaults:
//
//   - DeepSeek-V2/V3 set mscale and mscale_all_dim. Hugging Face then
//     multiplies cos and sin by mscale(s, mscale)/mscale(s, mscale_all_dim)
//     (1 when the two are equal, as in DeepSeek-V3) and moves YaRN's
//     temperature into the softmax scale instead: 1/√d_qk times
//     mscale(s, mscale_all_dim)², DeepseekV3Attention's yarn_apply_mscale.
//     DeepSeek's own inference code does the same (softmax_scale *=
//     mscale²). Logits come out as YaRN's paper has them, with the factor
//     applied once to the whole q·k, including its position-free part.
//   - gpt-oss sets truncate: false, which keeps the ramp's ends fractional
//     (Scaling.NoTruncate).
//   - Some configs give attention_factor explicitly (Scaling.AttentionFactor).

// SoftmaxScale returns the factor by which a model multiplies its softmax
// scale 1/√d because of the position scaling: mscale(s, MScaleAllDim)² for
// YaRN with MScaleAllDim set (DeepSeek-V2/V3), 1 otherwise.
func (r RoPE) SoftmaxScale() float64 {
	sc := r.Scaling
	if sc.Kind != ScalingYaRN || sc.MScaleAllDim == 0 {
		return 1
	}
	m := yarnMScale(sc.Factor, sc.MScaleAllDim)
	return m * m
}
