// Package posenc implements the positional encodings of Transformer models,
// exactly and fast, on plain Go slices and as GoMLX graph operations.
//
// It has two layers with one meaning:
//
//   - The host layer works on []float32 and []float64. Angles are always
//     computed in float64 and rounded once, at the end, to the destination
//     type. Functions are destination-first (SinusoidalTo(dst, ...)), allocate
//     nothing when given dst, spread rows over goroutines, and return an
//     error naming the parameter for any bad size or configuration: no input
//     makes them panic.
//   - The graph layer builds the same encodings as GoMLX operations
//     (*graph.Node), usable inside a model on any backend. Tables that depend
//     only on shapes and configuration are built by the host layer in float64
//     and enter the graph as constants: sin and cos of float32 angles inside a
//     graph are off by up to 6.6e-2 at position 1,000,000. Following GoMLX's
//     convention, graph functions panic at graph-building time, with the same
//     *ParamError message the host layer returns.
//
// Encodings:
//
//   - Sinusoidal (Vaswani et al. 2017, "Attention Is All You Need",
//     https://arxiv.org/abs/1706.03762), in the interleaved layout or in
//     tensor2tensor's [sin | cos] layout: [Sinusoidal], [SinusoidalTo],
//     [AddSinusoidalTo], [ShiftMatrix], [AddSinusoidal].
//   - Learned absolute positions (BERT, GPT-2): [Learned].
//   - Rotary position embeddings (Su et al. 2021, "RoFormer",
//     https://arxiv.org/abs/2104.09864), interleaved or half-split, partial,
//     at explicit positions, with the frequency scalings of Hugging Face
//     transformers (linear, NTK-aware, dynamic NTK, YaRN, Llama 3):
//     [RoPE], [Scaling], [RoPECache], [RotateTo], [ConvertQKWeightsTo],
//     [ApplyRoPE], [ApplyRoPEAt].
//   - ALiBi (Press et al. 2022, "Train Short, Test Long",
//     https://arxiv.org/abs/2108.12409): [ALiBiSlopes], [ALiBiBiasTo],
//     [AddALiBi].
//   - T5 relative position buckets (Raffel et al. 2020,
//     https://arxiv.org/abs/1910.10683): [T5Buckets], [T5Bias].
//   - Scaled dot-product attention, small and readable, to show what
//     attention does without positions: [Attention], [SelfAttention].
//
// [Backend] picks the GoMLX backend: GOMLX_BACKEND when set, else XLA on CPU
// when its PJRT plugin is already installed, else the pure-Go backend. It
// never downloads anything.
package posenc
