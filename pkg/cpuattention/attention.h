// The C side of package cpuattention: the attention kernel, and its
// registration as an XLA FFI handler with the CPU plugin that GoMLX loaded.
#ifndef POSENC_CPUATTENTION_H_
#define POSENC_CPUATTENTION_H_

#include <stddef.h>
#include <stdint.h>

// posenc_attention_supported says whether this CPU has the instructions the
// kernel is written in (AVX-512 F, BW and VL).
int posenc_attention_supported(void);

// posenc_attention computes o = softmax(q·kᵀ, masked) v for every query
// head, with grouped-query heads: query head h reads key/value head
// h / (H/KV). Shapes, row-major, float32 unless said:
//
//	o, q  [B, H, C, E]
//	k, v  [B, KV, N, E]
//	mask  [MB, C, N] bytes, nonzero where query i may read slot j; MB is 1
//	      (shared by the batch) or B
//
// q is already scaled (by 1/√E). A query that may read no slot gets NaN, as
// the softmax of an all-masked row does. E must be 64. It runs on threads
// threads (at least 1).
void posenc_attention(float *o, const float *q, const float *k, const float *v,
                      const uint8_t *mask, int64_t B, int64_t H, int64_t KV,
                      int64_t C, int64_t N, int64_t E, int64_t MB, int threads);

// posenc_attention_register registers the kernel under target with the
// PJRT CPU plugin already loaded from plugin_path, for the platform
// "Host". It returns 0, or -1 with a message in err.
int posenc_attention_register(const char *plugin_path, const char *target,
                              char *err, size_t err_len);

#endif  // POSENC_CPUATTENTION_H_
