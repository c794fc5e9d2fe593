// Attention on the CPU in the flash-attention way (Dao et al. 2022,
// "FlashAttention", https://arxiv.org/abs/2205.14135): each task takes one
// query head and a tile of QT queries, and reads the keys KT slots at a
// time, keeping the tile's scores (QT·KT floats, 64 KB) in its own core's
// cache through the maximum, the exponentials, the sum and the product
// with the values, with the running maximum and sum of the online softmax
// (Milakov and Gimelshein 2018, https://arxiv.org/abs/1805.02867). XLA's
// own attention passes over every block of scores five times through the
// shared cache (docs/performance.md); this is what closes that gap.
//
// The mask is read as given, so any mask works (causal, padding, packed
// sequences); the tiles no query of a tile may read are skipped, and the
// tiles every query reads whole skip the mask.
#include "attention.h"

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

enum { E = 64, QT = 64, KT = 256 };

int posenc_attention_supported(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

// ---- threads: tasks handed out from a shared counter ----

typedef void task_fn(void *ctx, int64_t task, int worker);

typedef struct {
  task_fn *fn;
  void *ctx;
  int64_t tasks;
  atomic_llong next;
} job;

typedef struct {
  job *j;
  int worker;
} job_arg;

static void *work(void *p) {
  job_arg *a = p;
  for (;;) {
    int64_t t = atomic_fetch_add(&a->j->next, 1);
    if (t >= a->j->tasks) return NULL;
    a->j->fn(a->j->ctx, t, a->worker);
  }
}

// run calls fn for tasks 0 … tasks−1 on up to threads threads, the
// caller's included, and returns when all are done.
static void run(int threads, int64_t tasks, task_fn *fn, void *ctx) {
  if (threads > tasks) threads = (int)tasks;
  if (threads < 1) threads = 1;
  job j = {.fn = fn, .ctx = ctx, .tasks = tasks};
  atomic_init(&j.next, 0);
  pthread_t th[threads];
  job_arg args[threads];
  int started = 0;
  for (int w = 1; w < threads; w++) {
    args[w] = (job_arg){&j, w};
    if (pthread_create(&th[w], NULL, work, &args[w]) != 0) break;
    started = w;
  }
  args[0] = (job_arg){&j, 0};
  work(&args[0]);
  for (int w = 1; w <= started; w++) pthread_join(th[w], NULL);
}

// ---- the call's shared state ----

typedef struct {
  float *o;
  const float *q, *k, *v;
  const uint8_t *mask;
  int64_t B, H, KV, C, N, MB;
  int64_t NP;       // slots of the transposed keys: the slots read, padded to 64
  int64_t qtiles;   // query tiles a head
  int64_t *first;   // [MB, C]: each query's first readable slot, −1 if none
  int64_t *last;    // [MB, C]: its last readable slot
  int64_t *count;   // [MB, C]: how many slots it may read
  float *kT;        // [B, KV, E, NP]: the keys transposed
  float **scores;   // per worker: [QT, KT]
  float **acc;      // per worker: [QT, E]
} call;

// rows finds each query's first and last readable slot and their count,
// 64 mask bytes at a time.
AVX512 static void rows(void *ctx, int64_t task, int worker) {
  (void)worker;
  call *c = ctx;
  int64_t lo = task * QT, hi = lo + QT < c->MB * c->C ? lo + QT : c->MB * c->C;
  for (int64_t r = lo; r < hi; r++) {
    const uint8_t *m = c->mask + r * c->N;
    int64_t first = -1, last = -1, count = 0;
    for (int64_t j = 0; j < c->N; j += 64) {
      __mmask64 valid = c->N - j >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (c->N - j)) - 1);
      __m512i x = _mm512_maskz_loadu_epi8(valid, m + j);
      __mmask64 on = _mm512_test_epi8_mask(x, x);
      if (!on) continue;
      count += __builtin_popcountll(on);
      if (first < 0) first = j + __builtin_ctzll(on);
      last = j + 63 - __builtin_clzll(on);
    }
    c->first[r] = first;
    c->last[r] = last;
    c->count[r] = count;
  }
}

// transpose writes the keys of one key/value head, 256 slots of it a task,
// as kT [E, NP], so that the score kernel reads 64 slots of one dimension
// in 4 vector loads; the padding slots are zero.
static void transpose(void *ctx, int64_t task, int worker) {
  (void)worker;
  call *c = ctx;
  int64_t blocks = c->NP / 256 + (c->NP % 256 != 0);
  int64_t head = task / blocks, j0 = (task % blocks) * 256;
  int64_t j1 = j0 + 256 < c->NP ? j0 + 256 : c->NP;
  int64_t n = c->N < c->NP ? c->N : c->NP;
  const float *k = c->k + head * c->N * E;
  float *kT = c->kT + head * E * c->NP;
  for (int64_t j = j0; j < j1; j++)
    for (int e = 0; e < E; e++) kT[e * c->NP + j] = j < n ? k[j * E + e] : 0;
}

// exp512 is exp(x) for x ≤ 0: 2^(x·log2 e) as 2^n · p(f), p a degree-6 fit
// of 2^f on [−0.5, 0.5]; below −100 it is exp(−100), which the caller's
// masks and sums treat as the zero it nearly is.
AVX512 static inline __m512 exp512(__m512 x) {
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

// span is the lanes of columns jj … jj+15 that fall in [a, b).
static inline __mmask16 span(int64_t a, int64_t b, int64_t jj) {
  int64_t lo = a - jj, hi = b - jj;
  if (lo < 0) lo = 0;
  if (hi > 16) hi = 16;
  if (hi <= lo) return 0;
  return (__mmask16)((((uint32_t)1 << hi) - 1) & ~(((uint32_t)1 << lo) - 1));
}

// head computes one task: query head h of batch row b, queries i0 …
// i0+QT−1.
AVX512 static void head(void *ctx, int64_t task, int worker) {
  call *c = ctx;
  int64_t heads = c->B * c->H;
  int64_t bh = task % heads, qt = task / heads; // neighbouring tasks share keys
  int64_t b = bh / c->H, h = bh % c->H, kv = h / (c->H / c->KV);
  int64_t i0 = qt * QT, nrows = c->C - i0 < QT ? c->C - i0 : QT;
  int64_t mb = c->MB == 1 ? 0 : b;
  const int64_t *first = c->first + mb * c->C + i0, *last = c->last + mb * c->C + i0;
  const int64_t *count = c->count + mb * c->C + i0;
  const float *q = c->q + ((b * c->H + h) * c->C + i0) * E;
  const float *v = c->v + (b * c->KV + kv) * c->N * E;
  const float *kT = c->kT + (b * c->KV + kv) * E * c->NP;
  const uint8_t *mask = c->mask + (mb * c->C + i0) * c->N;
  float *s = c->scores[worker], *acc = c->acc[worker];
  float m[QT], l[QT];
  int contiguous[QT];

  int64_t lo = c->N, hi = 0;
  for (int64_t i = 0; i < nrows; i++) {
    m[i] = -INFINITY;
    l[i] = 0;
    contiguous[i] = count[i] == last[i] - first[i] + 1;
    if (count[i] == 0) continue;
    if (first[i] < lo) lo = first[i];
    if (last[i] + 1 > hi) hi = last[i] + 1;
  }
  memset(acc, 0, sizeof(float) * QT * E);

  for (int64_t j0 = lo / 64 * 64; j0 < hi; j0 += KT) {
    int64_t cols = hi - j0 < KT ? hi - j0 : KT;
    int whole = 1; // every query reads every slot of the tile
    for (int64_t i = 0; i < nrows && whole; i++)
      whole = contiguous[i] && count[i] > 0 && first[i] <= j0 && last[i] >= j0 + cols - 1;

    // s = q kᵀ: 4 queries × 64 slots a step (the last step of a short tile
    // reads the zero padding of kT, and its spare rows repeat a query).
    for (int64_t i = 0; i < nrows; i += 4) {
      const float *qr[4];
      for (int r = 0; r < 4; r++) qr[r] = q + (i + r < nrows ? i + r : i) * E;
      for (int64_t j = 0; j < cols; j += 64) {
        __m512 a[4][4];
        for (int r = 0; r < 4; r++)
          for (int x = 0; x < 4; x++) a[r][x] = _mm512_setzero_ps();
        const float *kt = kT + j0 + j;
        for (int e = 0; e < E; e++) {
          const float *ke = kt + e * c->NP;
          __m512 k0 = _mm512_loadu_ps(ke), k1 = _mm512_loadu_ps(ke + 16);
          __m512 k2 = _mm512_loadu_ps(ke + 32), k3 = _mm512_loadu_ps(ke + 48);
          for (int r = 0; r < 4; r++) {
            __m512 x = _mm512_set1_ps(qr[r][e]);
            a[r][0] = _mm512_fmadd_ps(x, k0, a[r][0]);
            a[r][1] = _mm512_fmadd_ps(x, k1, a[r][1]);
            a[r][2] = _mm512_fmadd_ps(x, k2, a[r][2]);
            a[r][3] = _mm512_fmadd_ps(x, k3, a[r][3]);
          }
        }
        for (int r = 0; r < 4; r++)
          for (int x = 0; x < 4; x++) _mm512_store_ps(s + (i + r) * KT + j + 16 * x, a[r][x]);
      }
    }

    // The online softmax, query by query: the lanes each may read, the
    // tile's maximum, the exponentials in place of the scores, the sum.
    for (int64_t i = 0; i < nrows; i++) {
      float *si = s + i * KT;
      __mmask16 ok[KT / 16];
      __m512 vm = _mm512_set1_ps(-INFINITY);
      int any = 0;
      for (int64_t jj = 0; jj < cols; jj += 16) {
        __mmask16 valid = cols - jj >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (cols - jj)) - 1);
        __mmask16 lanes;
        if (whole) lanes = valid;
        else if (count[i] == 0) lanes = 0;
        else if (contiguous[i]) lanes = span(first[i] - j0, last[i] + 1 - j0, jj) & valid;
        else {
          __m128i x = _mm_maskz_loadu_epi8(valid, mask + i * c->N + j0 + jj);
          lanes = _mm_test_epi8_mask(x, x);
        }
        ok[jj / 16] = lanes;
        any |= lanes != 0;
        vm = _mm512_mask_max_ps(vm, lanes, vm, _mm512_loadu_ps(si + jj));
      }
      if (!any) { // nothing to read here: this query's row adds nothing
        memset(si, 0, sizeof(float) * KT);
        continue;
      }
      float top = _mm512_reduce_max_ps(vm);
      if (top < m[i]) top = m[i];
      float rescale = expf(m[i] - top); // 0 on the first tile read
      __m512 vtop = _mm512_set1_ps(top), vsum = _mm512_setzero_ps();
      for (int64_t jj = 0; jj < cols; jj += 16) {
        __m512 p = _mm512_maskz_mov_ps(ok[jj / 16], exp512(_mm512_sub_ps(_mm512_loadu_ps(si + jj), vtop)));
        _mm512_storeu_ps(si + jj, p);
        vsum = _mm512_add_ps(vsum, p);
      }
      l[i] = l[i] * rescale + _mm512_reduce_add_ps(vsum);
      m[i] = top;
      if (rescale != 1.0f)
        for (int e = 0; e < E; e++) acc[i * E + e] *= rescale;
    }

    // acc += p v: 4 queries × 64 dimensions a step.
    for (int64_t i = 0; i < nrows; i += 4) {
      __m512 a[4][4];
      for (int r = 0; r < 4; r++)
        for (int x = 0; x < 4; x++) a[r][x] = _mm512_load_ps(acc + (i + r) * E + 16 * x);
      for (int64_t j = 0; j < cols; j++) {
        const float *vj = v + (j0 + j) * E;
        __m512 v0 = _mm512_loadu_ps(vj), v1 = _mm512_loadu_ps(vj + 16);
        __m512 v2 = _mm512_loadu_ps(vj + 32), v3 = _mm512_loadu_ps(vj + 48);
        for (int r = 0; r < 4; r++) {
          __m512 x = _mm512_set1_ps(s[(i + r) * KT + j]);
          a[r][0] = _mm512_fmadd_ps(x, v0, a[r][0]);
          a[r][1] = _mm512_fmadd_ps(x, v1, a[r][1]);
          a[r][2] = _mm512_fmadd_ps(x, v2, a[r][2]);
          a[r][3] = _mm512_fmadd_ps(x, v3, a[r][3]);
        }
      }
      for (int r = 0; r < 4; r++)
        for (int x = 0; x < 4; x++) _mm512_store_ps(acc + (i + r) * E + 16 * x, a[r][x]);
    }
  }

  float *o = c->o + ((b * c->H + h) * c->C + i0) * E;
  for (int64_t i = 0; i < nrows; i++)
    for (int e = 0; e < E; e++) o[i * E + e] = acc[i * E + e] / l[i]; // 0/0: NaN for a query that reads nothing
}

// few computes one query head of one batch row for calls of a few queries
// (decoding): no transposed keys, each score a dot product of the query with
// a key row, and the online softmax over the key tiles as in head.
AVX512 static void few(void *ctx, int64_t task, int worker) {
  call *c = ctx;
  int64_t b = task / c->H, h = task % c->H, kv = h / (c->H / c->KV);
  int64_t mb = c->MB == 1 ? 0 : b;
  const float *k = c->k + (b * c->KV + kv) * c->N * E;
  const float *v = c->v + (b * c->KV + kv) * c->N * E;
  float *s = c->scores[worker];
  for (int64_t i = 0; i < c->C; i++) {
    int64_t r = mb * c->C + i, first = c->first[r], last = c->last[r];
    const uint8_t *mask = c->mask + r * c->N;
    int contiguous = c->count[r] == last - first + 1;
    const float *q = c->q + ((b * c->H + h) * c->C + i) * E;
    __m512 q0 = _mm512_loadu_ps(q), q1 = _mm512_loadu_ps(q + 16);
    __m512 q2 = _mm512_loadu_ps(q + 32), q3 = _mm512_loadu_ps(q + 48);
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    float m = -INFINITY, l = 0;
    for (int64_t j0 = first < 0 ? c->N : first; j0 <= last; j0 += KT) {
      int64_t cols = last + 1 - j0 < KT ? last + 1 - j0 : KT;
      for (int64_t j = 0; j < cols; j++) {
        const float *kj = k + (j0 + j) * E;
        __m512 d = _mm512_mul_ps(q0, _mm512_loadu_ps(kj));
        d = _mm512_fmadd_ps(q1, _mm512_loadu_ps(kj + 16), d);
        d = _mm512_fmadd_ps(q2, _mm512_loadu_ps(kj + 32), d);
        d = _mm512_fmadd_ps(q3, _mm512_loadu_ps(kj + 48), d);
        s[j] = _mm512_reduce_add_ps(d);
      }
      __mmask16 ok[KT / 16];
      __m512 vm = _mm512_set1_ps(-INFINITY);
      for (int64_t jj = 0; jj < cols; jj += 16) {
        __mmask16 valid = cols - jj >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (cols - jj)) - 1);
        __mmask16 lanes = valid; // the tile lies within [first, last]
        if (!contiguous) {
          __m128i x = _mm_maskz_loadu_epi8(valid, mask + j0 + jj);
          lanes = _mm_test_epi8_mask(x, x);
        }
        ok[jj / 16] = lanes;
        vm = _mm512_mask_max_ps(vm, lanes, vm, _mm512_loadu_ps(s + jj));
      }
      float top = _mm512_reduce_max_ps(vm);
      if (top == -INFINITY) continue; // nothing readable in this tile
      if (top < m) top = m;
      float rescale = expf(m - top);
      __m512 vtop = _mm512_set1_ps(top), vsum = _mm512_setzero_ps();
      for (int64_t jj = 0; jj < cols; jj += 16) {
        __m512 p = _mm512_maskz_mov_ps(ok[jj / 16], exp512(_mm512_sub_ps(_mm512_loadu_ps(s + jj), vtop)));
        _mm512_storeu_ps(s + jj, p);
        vsum = _mm512_add_ps(vsum, p);
      }
      l = l * rescale + _mm512_reduce_add_ps(vsum);
      m = top;
      __m512 vr = _mm512_set1_ps(rescale);
      a0 = _mm512_mul_ps(a0, vr), a1 = _mm512_mul_ps(a1, vr), a2 = _mm512_mul_ps(a2, vr), a3 = _mm512_mul_ps(a3, vr);
      for (int64_t j = 0; j < cols; j++) {
        const float *vj = v + (j0 + j) * E;
        __m512 p = _mm512_set1_ps(s[j]);
        a0 = _mm512_fmadd_ps(p, _mm512_loadu_ps(vj), a0);
        a1 = _mm512_fmadd_ps(p, _mm512_loadu_ps(vj + 16), a1);
        a2 = _mm512_fmadd_ps(p, _mm512_loadu_ps(vj + 32), a2);
        a3 = _mm512_fmadd_ps(p, _mm512_loadu_ps(vj + 48), a3);
      }
    }
    __m512 inv = _mm512_set1_ps(1.0f / l); // 1/0: ∞, and 0·∞ NaN, for a query that reads nothing
    float *o = c->o + ((b * c->H + h) * c->C + i) * E;
    if (l == 0) inv = _mm512_set1_ps(NAN);
    _mm512_storeu_ps(o, _mm512_mul_ps(a0, inv));
    _mm512_storeu_ps(o + 16, _mm512_mul_ps(a1, inv));
    _mm512_storeu_ps(o + 32, _mm512_mul_ps(a2, inv));
    _mm512_storeu_ps(o + 48, _mm512_mul_ps(a3, inv));
  }
}

// Calls of fewer queries than this take few's route.
enum { FEW = 8 };

// A call reading fewer query–slot pairs than this runs on one thread:
// starting threads would cost more than they save.
enum { ONE_THREAD_PAIRS = 1 << 16 };

void posenc_attention(float *o, const float *q, const float *k, const float *v,
                      const uint8_t *mask, int64_t B, int64_t H, int64_t KV,
                      int64_t C, int64_t N, int64_t e, int64_t MB, int threads) {
  (void)e; // checked by the caller: E
  call c = {.o = o, .q = q, .k = k, .v = v, .mask = mask, .B = B, .H = H, .KV = KV, .C = C, .N = N, .MB = MB};
  int64_t r = MB * C;
  c.first = malloc(sizeof(int64_t) * r);
  c.last = malloc(sizeof(int64_t) * r);
  c.count = malloc(sizeof(int64_t) * r);
  if (C * N * H * B < ONE_THREAD_PAIRS) threads = 1;
  run(threads, (r + QT - 1) / QT, rows, &c);

  if (C < FEW) {
    int workers = threads < B * H ? threads : (int)(B * H);
    float *scratch[workers];
    c.scores = scratch;
    for (int w = 0; w < workers; w++) c.scores[w] = aligned_alloc(64, sizeof(float) * KT);
    run(workers, B * H, few, &c);
    for (int w = 0; w < workers; w++) free(c.scores[w]);
    free(c.first);
    free(c.last);
    free(c.count);
    return;
  }

  // Only the slots some query reads are transposed.
  int64_t read = 0;
  for (int64_t i = 0; i < r; i++)
    if (c.last[i] + 1 > read) read = c.last[i] + 1;
  c.NP = (read + 63) / 64 * 64;
  if (c.NP == 0) c.NP = 64;
  c.kT = aligned_alloc(64, sizeof(float) * B * KV * E * c.NP);
  int64_t blocks = c.NP / 256 + (c.NP % 256 != 0);
  run(threads, B * KV * blocks, transpose, &c);

  c.qtiles = (C + QT - 1) / QT;
  int64_t tasks = B * H * c.qtiles;
  int workers = threads < tasks ? threads : (int)tasks;
  if (workers < 1) workers = 1;
  float *scratch[2 * workers];
  c.scores = scratch;
  c.acc = scratch + workers;
  for (int w = 0; w < workers; w++) {
    c.scores[w] = aligned_alloc(64, sizeof(float) * QT * KT);
    c.acc[w] = aligned_alloc(64, sizeof(float) * QT * E);
  }
  run(workers, tasks, head, &c);

  for (int w = 0; w < workers; w++) {
    free(c.scores[w]);
    free(c.acc[w]);
  }
  free(c.kT);
  free(c.first);
  free(c.last);
  free(c.count);
}
