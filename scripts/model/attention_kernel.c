// attention_kernel.c: a prototype of causal attention on the CPU for
// SmolLM2-135M's shapes (9 query heads, 3 key/value heads, head dimension
// 64), float32, AVX-512, in the flash-attention way: each thread takes one
// head and a tile of 64 queries and reads the keys in tiles of 256, keeping
// the tile's scores (64 KB) in its own cache through the maximum, the
// exponentials, the sum and the product with the values, with the running
// maximum and sum of the online softmax (Milakov and Gimelshein 2018; Dao et
// al. 2022). It measures what a kernel of our own could do against XLA's
// attention (pkg/smollm BenchmarkAttentionPrefill) and PyTorch's
// (attention_sdpa.py): scripts/model/attention-bench.sh runs all three. Not
// part of the model: GoMLX cannot call it yet (docs/performance.md, "Where
// the 2,048-token prefill spends its time").
//
// Build: gcc -O3 -march=native -fopenmp -o attention_kernel attention_kernel.c -lm
// Run:   OMP_NUM_THREADS=2 ./attention_kernel [tokens 2048] [layers 30] [repeats 5] [chunk 0]
// It checks 8 query rows against a float64 reference, then times the
// layers' attention over the whole causal prompt, and in chunks of queries
// when chunk > 0 (the engine's way), the best of the repeats.
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <omp.h>

#define E 64
enum { QT = 64, KT = 256 };

// exp(x) for x ≤ 0, AVX-512: 2^(x·log2 e) as 2^n · p(f), p a degree-6 fit of 2^f on [-0.5, 0.5].
static inline __m512 exp512(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-100.0f));
  __m512 t = _mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f));
  __m512 n = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 f = _mm512_sub_ps(t, n);
  __m512 p = _mm512_set1_ps(1.535336188319500e-4f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.339887440266574e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.618437357674640e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.550332471162809e-2f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.402264791363012e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.931472028550421e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

// o[h][i][:] = softmax_j(q[h][i]·k[h/g][j]) v[h/g][j], j ≤ start+i. q is scaled.
void attention(float *o, const float *q, const float *k, const float *v, int H, int KV, int C, int N, int start) {
  int g = H / KV, tiles = (C + QT - 1) / QT, NP = (N + 63) / 64 * 64;
  // The keys transposed once a call, [KV][E][NP], so that the score
  // microkernel reads 64 slots of one dimension in 4 vector loads.
  float *kT = aligned_alloc(64, sizeof(float) * KV * E * NP); // [KV][E][NP]
#pragma omp parallel for collapse(2)
  for (int kv = 0; kv < KV; kv++)
    for (int j = 0; j < N; j++)
      for (int e = 0; e < E; e++) kT[((size_t)kv * E + e) * NP + j] = k[((size_t)kv * N + j) * E + e];
#pragma omp parallel
  {
    float *s = aligned_alloc(64, sizeof(float) * QT * KT);
    float *acc = aligned_alloc(64, sizeof(float) * QT * E);
    float m[QT], l[QT];
#pragma omp for schedule(dynamic)
    for (int task = 0; task < H * tiles; task++) {
      int h = task / tiles, i0 = (task % tiles) * QT, rows = C - i0 < QT ? C - i0 : QT;
      const float *qh = q + ((size_t)h * C + i0) * E, *vh = v + (size_t)(h / g) * N * E;
      for (int i = 0; i < rows; i++) { m[i] = -INFINITY; l[i] = 0; }
      memset(acc, 0, sizeof(float) * QT * E);
      int last = start + i0 + rows; // slots read: < last
      for (int j0 = 0; j0 < last; j0 += KT) {
        int cols = last - j0 < KT ? last - j0 : KT;
        const float *kt = kT + (size_t)(h / g) * E * NP + j0; // row e at kt + e*NP
        // s = q kᵀ: 4 rows × 64 columns a step
        for (int i = 0; i < rows; i += 4) {
          for (int j = 0; j < cols; j += 64) {
            __m512 a[4][4];
            for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) a[r][c] = _mm512_setzero_ps();
            for (int e = 0; e < E; e++) {
              __m512 b0 = _mm512_loadu_ps(kt + (size_t)e * NP + j), b1 = _mm512_loadu_ps(kt + (size_t)e * NP + j + 16);
              __m512 b2 = _mm512_loadu_ps(kt + (size_t)e * NP + j + 32), b3 = _mm512_loadu_ps(kt + (size_t)e * NP + j + 48);
              for (int r = 0; r < 4; r++) {
                __m512 x = _mm512_set1_ps(qh[(size_t)(i + r < rows ? i + r : i) * E + e]);
                a[r][0] = _mm512_fmadd_ps(x, b0, a[r][0]); a[r][1] = _mm512_fmadd_ps(x, b1, a[r][1]);
                a[r][2] = _mm512_fmadd_ps(x, b2, a[r][2]); a[r][3] = _mm512_fmadd_ps(x, b3, a[r][3]);
              }
            }
            for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) _mm512_store_ps(s + (i + r) * KT + j + 16 * c, a[r][c]);
          }
        }
        // online softmax over the tile
        for (int i = 0; i < rows; i++) {
          float *si = s + i * KT;
          int lim = start + i0 + i - j0 + 1; // columns allowed: < lim
          if (lim > cols) lim = cols;
          int full = cols; // columns with data, padded to 64 in s
          __m512 vm = _mm512_set1_ps(m[i]);
          for (int j = 0; j < full; j += 16) {
            __mmask16 ok = j + 16 <= lim ? 0xffff : (j >= lim ? 0 : (__mmask16)((1u << (lim - j)) - 1));
            vm = _mm512_mask_max_ps(vm, ok, vm, _mm512_loadu_ps(si + j));
          }
          float mx = _mm512_reduce_max_ps(vm);
          float scale = expf(m[i] - mx);
          __m512 vs = _mm512_setzero_ps(), vmx = _mm512_set1_ps(mx);
          for (int j = 0; j < full; j += 16) {
            __mmask16 ok = j + 16 <= lim ? 0xffff : (j >= lim ? 0 : (__mmask16)((1u << (lim - j)) - 1));
            __m512 p = _mm512_maskz_mov_ps(ok, exp512(_mm512_sub_ps(_mm512_loadu_ps(si + j), vmx)));
            _mm512_storeu_ps(si + j, p);
            vs = _mm512_add_ps(vs, p);
          }
          float sum = _mm512_reduce_add_ps(vs);
          l[i] = l[i] * scale + sum; m[i] = mx;
          for (int e = 0; e < E; e++) acc[i * E + e] *= scale;
        }
        // acc += p v: 4 rows × 64 a step
        for (int i = 0; i < rows; i += 4) {
          __m512 a[4][4];
          for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) a[r][c] = _mm512_load_ps(acc + (i + r) * E + 16 * c);
          for (int j = 0; j < cols; j++) {
            const float *vj = vh + (size_t)(j0 + j) * E;
            __m512 b0 = _mm512_loadu_ps(vj), b1 = _mm512_loadu_ps(vj + 16), b2 = _mm512_loadu_ps(vj + 32), b3 = _mm512_loadu_ps(vj + 48);
            for (int r = 0; r < 4; r++) {
              __m512 x = _mm512_set1_ps(s[(i + r) * KT + j]);
              a[r][0] = _mm512_fmadd_ps(x, b0, a[r][0]); a[r][1] = _mm512_fmadd_ps(x, b1, a[r][1]);
              a[r][2] = _mm512_fmadd_ps(x, b2, a[r][2]); a[r][3] = _mm512_fmadd_ps(x, b3, a[r][3]);
            }
          }
          for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) _mm512_store_ps(acc + (i + r) * E + 16 * c, a[r][c]);
        }
      }
      for (int i = 0; i < rows; i++)
        for (int e = 0; e < E; e++) o[((size_t)h * C + i0 + i) * E + e] = acc[i * E + e] / l[i];
    }
    free(s); free(acc);
  }
  free(kT);
}

// plain float64 reference for checking
static void reference(double *o, const float *q, const float *k, const float *v, int H, int KV, int C, int N, int start, int h, int i) {
  int g = H / KV; const float *qi = q + ((size_t)h * C + i) * E;
  double mx = -INFINITY, *sc = malloc(sizeof(double) * N);
  int n = start + i + 1;
  for (int j = 0; j < n; j++) { double d = 0; for (int e = 0; e < E; e++) d += (double)qi[e] * k[((size_t)(h / g) * N + j) * E + e]; sc[j] = d; if (d > mx) mx = d; }
  double sum = 0; for (int j = 0; j < n; j++) { sc[j] = exp(sc[j] - mx); sum += sc[j]; }
  for (int e = 0; e < E; e++) { double a = 0; for (int j = 0; j < n; j++) a += sc[j] * v[((size_t)(h / g) * N + j) * E + e]; o[e] = a / sum; }
  free(sc);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2048, layers = argc > 2 ? atoi(argv[2]) : 30, reps = argc > 3 ? atoi(argv[3]) : 5;
  int H = 9, KV = 3, C = n, N = n;
  float *q = aligned_alloc(64, sizeof(float) * H * C * E), *k = aligned_alloc(64, sizeof(float) * KV * N * E);
  float *v = aligned_alloc(64, sizeof(float) * KV * N * E), *o = aligned_alloc(64, sizeof(float) * H * C * E);
  srand(1);
  for (size_t x = 0; x < (size_t)H * C * E; x++) q[x] = ((float)rand() / RAND_MAX - 0.5f) * 0.5f;
  for (size_t x = 0; x < (size_t)KV * N * E; x++) { k[x] = ((float)rand() / RAND_MAX - 0.5f) * 4; v[x] = (float)rand() / RAND_MAX - 0.5f; }
  attention(o, q, k, v, H, KV, C, N, 0);
  double worst = 0, ref[E];
  int checks[][2] = {{0, 0}, {4, 1}, {8, n / 2}, {2, n - 1}, {7, 63}, {5, 64}, {3, 255}, {1, 256}};
  for (int c = 0; c < 8; c++) {
    reference(ref, q, k, v, H, KV, C, N, 0, checks[c][0], checks[c][1]);
    for (int e = 0; e < E; e++) { double d = fabs(ref[e] - o[((size_t)checks[c][0] * C + checks[c][1]) * E + e]); if (d > worst) worst = d; }
  }
  double best = 1e9;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    for (int L = 0; L < layers; L++) attention(o, q, k, v, H, KV, C, N, 0);
    double t = now() - t0; if (t < best) best = t;
  }
  int chunk = argc > 4 ? atoi(argv[4]) : 0;
  if (chunk > 0) { // the engine's way: chunks of queries, each reading the slots before it and its own
    float *qc = aligned_alloc(64, sizeof(float) * H * chunk * E), *oc = aligned_alloc(64, sizeof(float) * H * chunk * E);
    for (int h = 0; h < H; h++) memcpy(qc + (size_t)h * chunk * E, q + (size_t)h * C * E, sizeof(float) * chunk * E);
    double cbest = 1e9;
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      for (int L = 0; L < layers; L++)
        for (int st = 0; st < n; st += chunk) attention(oc, qc, k, v, H, KV, chunk, N, st);
      double t = now() - t0; if (t < cbest) cbest = t;
    }
    printf("C kernel in chunks of %d (each chunk's queries at slots start..start+%d): best %.3f s\n", chunk, chunk - 1, cbest);
  }
  double flops = 4.0 * E * H * ((double)n * (n + 1) / 2) * layers;
  printf("C kernel: %d tokens causal, %d layers, %d threads: best %.3f s, %.0f GFLOP/s (causal pairs); max |diff| vs float64 %.2e\n",
         n, layers, omp_get_max_threads(), best, flops / best / 1e9, worst);
  return 0;
}
