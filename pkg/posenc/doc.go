// Package posenc implements the positional encodings of Transformer models,
// exactly and fast, on plain Go slices, with no ML framework: it imports the
// standard library and golang.org/x/sys/cpu only.
//
// Angles are always computed in float64 and rounded once, at the end, to
// the destination type. Functions are destination-first
// (SinusoidalTo(dst, ...)), allocate nothing when given dst, spread rows
// over goroutines, and return a *ParamError naming the parameter and its
// value for any bad size or configuration: no input makes them panic.
//
// The files of this package state the formulas and check the inputs; the
// loops that make them fast live under internal/, each documented by the
// plain loop it must equal and tested against it: sincos fills tables of
// sines and cosines (the sinusoidal table and the RoPE cache), asm holds the
// AVX2 kernels with their Go loops, and parallel spreads rows over a pool of
// goroutines without allocating.
//
// Package posgraph (github.com/posenc/course/pkg/posgraph) builds the same
// encodings as GoMLX graph operations, with this package's configurations
// and host-built tables, and plugs them into GoMLX's attention layers.
//
// Encodings:
//
//   - Sinusoidal (Vaswani et al. 2017, "Attention Is All You Need",
//     https://arxiv.org/abs/1706.03762), in the interleaved layout or in
//     tensor2tensor's [sin | cos] layout: [Sinusoidal], [SinusoidalTo],
//     [AddSinusoidalTo], [ShiftMatrix].
//   - Learned absolute positions (BERT, GPT-2): [Learned].
//   - Rotary position embeddings (Su et al. 2021, "RoFormer",
//     https://arxiv.org/abs/2104.09864), interleaved or half-split, partial,
//     at explicit positions, with the frequency scalings of Hugging Face
//     transformers (linear, NTK-aware, dynamic NTK, YaRN, Llama 3):
//     [RoPE], [Scaling], [RoPECache], [RotateTo], [ApplyRoPETo],
//     [ApplyRoPEAtTo], [ConvertQKWeightsTo], [RoPETablesTo]; and as today's
//     models ship it: p-RoPE ([ProportionalScaling]), LongRoPE
//     ([LongRoPEScaling]), YaRN's mscale and truncate options, DeepSeek's
//     decoupled RoPE ([DecoupledScore]), and a reader of Hugging Face
//     config.json files that gives each layer its RoPE, window and
//     temperature, or none ([ParseHFConfig], [ModelPositions]).
//   - ALiBi (Press et al. 2022, "Train Short, Test Long",
//     https://arxiv.org/abs/2108.12409): [ALiBiSlopes], [ALiBiBiasTo].
//   - T5 relative position buckets (Raffel et al. 2020,
//     https://arxiv.org/abs/1910.10683): [T5Buckets].
package posenc
