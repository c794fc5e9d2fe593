// Package gguf reads GGUF v3 files, the format of llama.cpp and the GGML
// project (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): the
// metadata, the tensor directory, and each tensor's values dequantized to
// float32.
//
// It dequantizes the types SmolLM2-135M-Instruct's Q4_1 file holds (F32,
// Q8_0, Q4_1), with the arithmetic of the GGML project's own
// Python package gguf (gguf-py, quants.py), product and sum each rounded to
// float32, so that the values agree bit for bit: the tests compare golden
// slices that gguf-py wrote (scripts/model/golden_dequant.py).
//
// GoMLX v0.28's GGML support has no Q4_1. github.com/gomlx/go-huggingface
// v0.4.0's reader has, and builds against our GoMLX, but keeps its
// dequantizers unexported behind tensors on a backend, and computes
// float32(q)*d + m in one expression, which Go may fuse into one rounding
// (an FMA, as on arm64) where gguf-py rounds twice.
package gguf
