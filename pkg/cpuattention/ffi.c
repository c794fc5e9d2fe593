// The kernel as an XLA FFI handler ("typed" custom call, API version 4),
// registered with the PJRT CPU plugin through the plugin's FFI extension.
//
// The structs below are the few of the XLA FFI C API (xla/ffi/api/c_api.h)
// and of the PJRT C API (xla/pjrt/c/pjrt_c_api.h and
// pjrt_c_api_ffi_extension.h) that this file reads or fills, declared with
// the same layout. Both APIs keep their layouts across minor versions, and
// every struct carries its size, which the plugin checks: a plugin that
// expects another layout refuses the registration with a message, and the
// Go side then falls back to GoMLX's own attention.
#define _GNU_SOURCE // sched_getaffinity, CPU_COUNT
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attention.h"

// ---- XLA FFI ----

typedef struct ffi_ext {
  size_t struct_size;
  int type; // 1: the metadata extension
  struct ffi_ext *next;
} ffi_ext;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  int major, minor;
} ffi_version;

typedef struct {
  size_t struct_size;
  ffi_version api_version;
  uint32_t traits;
} ffi_metadata;

typedef struct {
  ffi_ext base;
  ffi_metadata *metadata;
} ffi_metadata_ext;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  int dtype; // 1 PRED, 11 F32
  void *data;
  int64_t rank;
  int64_t *dims;
} ffi_buffer;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  int64_t size;
  int *types; // 1: a buffer
  void **items;
} ffi_list;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  int64_t size;
  int *types;
  void **names;
  void **attrs;
} ffi_attrs;

typedef struct ffi_error ffi_error;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  const char *message;
  int code;
} ffi_error_create_args;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  ffi_version api_version;
  void *internal_api;
  ffi_error *(*error_create)(ffi_error_create_args *);
} ffi_api;

typedef struct {
  size_t struct_size;
  ffi_ext *ext;
  const ffi_api *api;
  void *ctx;
  int stage; // 3: execute
  ffi_list args;
  ffi_list rets;
  ffi_attrs attrs;
  void *future;
} ffi_call_frame;

enum { FFI_PRED = 1, FFI_F32 = 11, FFI_BUFFER = 1, FFI_STAGE_EXECUTE = 3, FFI_INVALID_ARGUMENT = 3 };

static int threads = 1;

static ffi_error *fail(ffi_call_frame *cf, const char *msg) {
  ffi_error_create_args a = {offsetof(ffi_error_create_args, code) + sizeof(int), NULL, msg, FFI_INVALID_ARGUMENT};
  return cf->api->error_create(&a);
}

static ffi_buffer *item(ffi_list *l, int64_t i, int dtype, int64_t rank) {
  if (i >= l->size || l->types[i] != FFI_BUFFER) return NULL;
  ffi_buffer *b = l->items[i];
  return b->dtype == dtype && b->rank == rank ? b : NULL;
}

// posenc_attention_ffi is the handler: args q [B, H, C, E], k and v [B,
// KV, N, E] (float32), mask [MB, C, N] (pred); result o [B, H, C, E].
static ffi_error *posenc_attention_ffi(ffi_call_frame *cf) {
  for (ffi_ext *e = cf->ext; e; e = e->next)
    if (e->type == 1) { // XLA asks which FFI version the handler speaks
      ffi_metadata *m = ((ffi_metadata_ext *)e)->metadata;
      m->api_version.major = 0;
      m->api_version.minor = 1;
      m->traits = 0;
      return NULL;
    }
  if (cf->stage != FFI_STAGE_EXECUTE) return NULL;
  ffi_buffer *q = item(&cf->args, 0, FFI_F32, 4), *k = item(&cf->args, 1, FFI_F32, 4);
  ffi_buffer *v = item(&cf->args, 2, FFI_F32, 4), *mask = item(&cf->args, 3, FFI_PRED, 3);
  ffi_buffer *o = item(&cf->rets, 0, FFI_F32, 4);
  if (cf->args.size != 4 || cf->rets.size != 1 || !q || !k || !v || !mask || !o)
    return fail(cf, "posenc attention: want q, k, v (float32, rank 4) and mask (bool, rank 3), one float32 result");
  int64_t B = q->dims[0], H = q->dims[1], C = q->dims[2], E = q->dims[3];
  int64_t KV = k->dims[1], N = k->dims[2], MB = mask->dims[0];
  for (int i = 0; i < 4; i++)
    if (k->dims[i] != v->dims[i] || o->dims[i] != q->dims[i])
      return fail(cf, "posenc attention: k and v, or q and the result, differ in shape");
  if (k->dims[0] != B || k->dims[3] != E || E != 64 || KV == 0 || H % KV != 0 ||
      (MB != 1 && MB != B) || mask->dims[1] != C || mask->dims[2] != N)
    return fail(cf, "posenc attention: shapes do not fit (head dimension 64, H a multiple of KV, mask [1 or B, C, N])");
  posenc_attention(o->data, q->data, k->data, v->data, mask->data, B, H, KV, C, N, E, MB, threads);
  return NULL;
}

// ---- PJRT ----

typedef struct pjrt_ext {
  size_t struct_size;
  int type; // 5: the FFI extension
  struct pjrt_ext *next;
} pjrt_ext;

typedef struct pjrt_error pjrt_error;

typedef struct {
  size_t struct_size;
  pjrt_ext *ext;
  pjrt_error *error;
} pjrt_error_destroy_args;

typedef struct {
  size_t struct_size;
  pjrt_ext *ext;
  const pjrt_error *error;
  const char *message;
  size_t message_size;
} pjrt_error_message_args;

typedef struct {
  size_t struct_size;
  pjrt_ext *ext;
  struct {
    size_t struct_size;
    pjrt_ext *ext;
    int major, minor;
  } version;
  void (*error_destroy)(pjrt_error_destroy_args *);
  void (*error_message)(pjrt_error_message_args *);
} pjrt_api;

typedef struct {
  size_t struct_size;
  const char *target_name;
  size_t target_name_size;
  void *handler;
  const char *platform_name;
  size_t platform_name_size;
  uint32_t traits;
} pjrt_register_args;

typedef struct {
  pjrt_ext base;
  void *type_register;
  void *user_data_add;
  pjrt_error *(*register_handler)(pjrt_register_args *);
} pjrt_ffi_ext;

int posenc_attention_register(const char *plugin_path, const char *target, char *err, size_t err_len) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) threads = CPU_COUNT(&set);
  if (threads < 1) threads = 1;

  void *lib = dlopen(plugin_path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (!lib) {
    snprintf(err, err_len, "the PJRT plugin %s is not loaded", plugin_path);
    return -1;
  }
  const pjrt_api *(*get)(void) = (const pjrt_api *(*)(void))dlsym(lib, "GetPjrtApi");
  if (!get) {
    snprintf(err, err_len, "%s has no GetPjrtApi", plugin_path);
    return -1;
  }
  const pjrt_api *api = get();
  pjrt_ffi_ext *ffi = NULL;
  for (pjrt_ext *e = api->ext; e; e = e->next)
    if (e->type == 5) ffi = (pjrt_ffi_ext *)e;
  if (!ffi || ffi->base.struct_size < sizeof(pjrt_ffi_ext) || !ffi->register_handler) {
    snprintf(err, err_len, "the PJRT plugin (API %d.%d) has no FFI handler registration",
             api->version.major, api->version.minor);
    return -1;
  }
  pjrt_register_args a = {offsetof(pjrt_register_args, traits) + sizeof(uint32_t), target, strlen(target),
                          (void *)posenc_attention_ffi, "Host", 4, 0};
  pjrt_error *e = ffi->register_handler(&a);
  if (e) {
    pjrt_error_message_args m = {sizeof m, NULL, e, NULL, 0};
    api->error_message(&m);
    snprintf(err, err_len, "registering %s with the PJRT plugin (API %d.%d): %.*s", target,
             api->version.major, api->version.minor, (int)m.message_size, m.message);
    pjrt_error_destroy_args d = {sizeof d, NULL, e};
    api->error_destroy(&d);
    return -1;
  }
  return 0;
}
