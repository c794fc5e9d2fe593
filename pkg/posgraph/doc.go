// Package posgraph builds the positional encodings of package posenc as
// GoMLX graph operations (*graph.Node), usable inside a model on any GoMLX
// backend: XLA on CPU or GPU, or the pure-Go backend anywhere.
//
// It is the graph layer of the course's library; package posenc is the host
// layer, on plain slices, with no ML framework. Configurations are posenc's
// (posenc.Sinusoidal, posenc.RoPE with its scalings, posenc.Learned,
// posenc.T5Buckets), and tables that depend only on shapes and configuration
// are built by posenc in float64 and enter the graph as constants: sin and
// cos of float32 angles inside a graph are off by up to 6.6e-2 at position
// 1,000,000. Following GoMLX's convention, functions panic at
// graph-building time, with the *posenc.ParamError the host layer returns
// for the same input.
//
// Encodings, and the host functions they mirror:
//
//   - Sinusoidal (Vaswani et al. 2017, https://arxiv.org/abs/1706.03762):
//     [SinusoidalConst], [AddSinusoidal] (posenc.SinusoidalTo,
//     posenc.AddSinusoidalTo).
//   - Learned absolute positions (BERT, GPT-2): [LearnedTable],
//     [AddLearned], [AddLearnedAt] (posenc.LearnedLookupTo).
//   - RoPE (Su et al. 2021, https://arxiv.org/abs/2104.09864), any layout,
//     partial, scaled: [ApplyRoPE], [ApplyRoPEAt] (posenc.ApplyRoPETo,
//     posenc.ApplyRoPEAtTo).
//   - ALiBi (Press et al. 2022, https://arxiv.org/abs/2108.12409):
//     [ALiBiConst], [AddALiBi] (posenc.ALiBiBiasTo).
//   - T5 relative bias (Raffel et al. 2020, https://arxiv.org/abs/1910.10683):
//     [T5Bias] (posenc.T5Buckets.BucketsTo).
//   - Scaled dot-product attention, small and readable: [Attention],
//     [AttentionWeights], [SelfAttention].
//
// GoMLX's attention layers take positional encodings through the interfaces
// of its package ml/layers/attention/pos; [RoPEEncoder] (pos.QKEncoder),
// [SinusoidalEncoder] and [LearnedEncoder] (pos.PreEncoder), and
// [ALiBiEncoder] and [T5Encoder] ([BiasEncoder], for
// MultiHeadAttentionBuilder.WithAttentionBias) plug posenc's encodings into
// attention.MultiHeadAttention.
//
// [Backend] picks the GoMLX backend: GOMLX_BACKEND when set, else XLA on
// CPU when its PJRT plugin is already installed, else the pure-Go backend.
// It never downloads anything; [BackendSummary] says which one runs and why.
package posgraph
