/*
 * Natives behind the js-pdk globals that reach past the call's input and
 * output: Memory (Extism blocks), Http.request (the kernel's http_request)
 * and host functions (`Host.getFunctions()`). Installed on `globalThis.__hb`
 * beside natives.c's; prelude-host.js wraps them.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "extism.h"

/* An Extism block offset from a JS number or BigInt. */
static int offset_arg(JSContext *ctx, JSValueConst v, uint64_t *out) {
  int64_t n;
  if (JS_IsBigInt(ctx, v) ? JS_ToBigInt64(ctx, &n, v) : JS_ToInt64(ctx, &n, v)) return -1;
  if (n < 0) {
    JS_ThrowRangeError(ctx, "Memory: a block offset cannot be negative");
    return -1;
  }
  *out = (uint64_t)n;
  return 0;
}

static JSValue hb_mem_alloc(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Memory");
  int64_t len;
  if (JS_ToInt64(ctx, &len, argv[0])) return JS_EXCEPTION;
  if (len < 0) return JS_ThrowRangeError(ctx, "Memory: a length cannot be negative");
  uint64_t offs = extism_alloc((uint64_t)len);
  if (offs == 0 && len > 0) return JS_ThrowOutOfMemory(ctx);
  return JS_NewInt64(ctx, (int64_t)offs);
}

/* store(offset, ArrayBuffer, byteOffset, byteLength): copies bytes into the block, which must be big enough. */
static JSValue hb_mem_store(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Memory");
  uint64_t offs;
  uint8_t *data;
  size_t len;
  if (offset_arg(ctx, argv[0], &offs) || hb_buffer_arg(ctx, argv + 1, &data, &len)) return JS_EXCEPTION;
  if (len > extism_length(offs)) return JS_ThrowRangeError(ctx, "Memory: %zu bytes do not fit the block", len);
  hb_write_block(offs, data, len);
  return JS_UNDEFINED;
}

/* load(offset): a copy of the whole block as an ArrayBuffer (the block stays). */
static JSValue hb_mem_load(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Memory");
  uint64_t offs;
  if (offset_arg(ctx, argv[0], &offs)) return JS_EXCEPTION;
  size_t len = (size_t)extism_length(offs);
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return JS_ThrowOutOfMemory(ctx);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t word = extism_load_u64(offs + i);
    memcpy(buf + i, &word, 8);
  }
  for (; i < len; i++) buf[i] = extism_load_u8(offs + i);
  return hb_adopt_buffer(ctx, buf, len);
}

static JSValue hb_mem_length(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Memory");
  uint64_t offs;
  if (offset_arg(ctx, argv[0], &offs)) return JS_EXCEPTION;
  return JS_NewInt64(ctx, (int64_t)extism_length(offs));
}

static JSValue hb_mem_free(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Memory");
  uint64_t offs;
  if (offset_arg(ctx, argv[0], &offs)) return JS_EXCEPTION;
  if (offs) extism_free(offs);
  return JS_UNDEFINED;
}

/*
 * httpRequest(requestJson, body?, byteOffset, byteLength) → [status, body ArrayBuffer | null, headers JSON | null].
 * A host that refuses the request (hookbox's runner: a host outside the grant) answers status 0 with the
 * reason as the body; other Extism hosts fail the whole call instead.
 */
static JSValue hb_http_request(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Http.request");
  size_t req_len;
  const char *req = JS_ToCStringLen(ctx, &req_len, argv[0]);
  if (!req) return JS_EXCEPTION;
  uint64_t req_offs = hb_store((const uint8_t *)req, req_len);
  JS_FreeCString(ctx, req);
  if (!req_offs) return JS_ThrowOutOfMemory(ctx);
  uint64_t body_offs = 0;
  if (!JS_IsUndefined(argv[1])) {
    uint8_t *data;
    size_t len;
    if (hb_buffer_arg(ctx, argv + 1, &data, &len)) {
      extism_free(req_offs);
      return JS_EXCEPTION;
    }
    body_offs = hb_store(data, len);
  }
  uint64_t resp = extism_http_request(req_offs, body_offs);
  extism_free(req_offs);
  if (body_offs) extism_free(body_offs);
  int32_t status = extism_http_status_code();
  size_t len = 0;
  uint8_t *data = hb_load_and_free(resp, &len);
  uint64_t headers_offs = extism_http_headers();
  size_t headers_len = 0;
  uint8_t *headers = hb_load_and_free(headers_offs, &headers_len);
  JSValue out = JS_NewArray(ctx);
  JS_SetPropertyUint32(ctx, out, 0, JS_NewInt32(ctx, status));
  JS_SetPropertyUint32(ctx, out, 1, data ? hb_adopt_buffer(ctx, data, len) : JS_NULL);
  JS_SetPropertyUint32(ctx, out, 2, headers ? JS_NewStringLen(ctx, (const char *)headers, headers_len) : JS_NULL);
  free(headers);
  return out;
}

/*
 * Host functions. The compiler replaces this function's body with a dispatch
 * to the `extism:host/user` imports the plugin declares (pdk/compiler/
 * host-functions.ts): argument k is read from args[k] (an 8-byte slot holding
 * an i32, i64, f32 or f64), the result is written to *ret, and 0 returned.
 * Without declared host functions it stays this body: -1, "no such function".
 * The optimizer must not learn anything from this placeholder body: unused
 * arguments would be passed as garbage (dead-argument elimination), and a body
 * that never reads *args nor writes *ret would let callers drop the argument
 * stores and read *ret as it was. So the arguments go to volatile stores and
 * an empty asm with a memory clobber stands for "reads and writes anything".
 */
static volatile int32_t no_host_functions = -1;
static volatile uintptr_t keep_args;
/*
 * An i64 argument from a JS number, as js-pdk converts it (Rust's `f64 as i64`): truncated,
 * saturating at the ends, NaN as 0. QuickJS's JS_ToInt64 wraps instead, so the literal
 * 9223372036854775807 (which is 2^63 as a double) would arrive as INT64_MIN.
 */
static int number_to_i64(JSContext *ctx, int64_t *out, JSValueConst v) {
  double d;
  if (JS_ToFloat64(ctx, &d, v)) return -1;
  if (d != d) *out = 0;
  else if (d >= 9223372036854775808.0) *out = INT64_MAX;
  else if (d <= -9223372036854775808.0) *out = INT64_MIN;
  else *out = (int64_t)d;
  return 0;
}

__attribute__((noinline, export_name("__hookbox_host_dispatch"))) int32_t hookbox_host_dispatch(int32_t index, uint64_t *args, uint64_t *ret) {
  keep_args = (uintptr_t)index;
  keep_args = (uintptr_t)args;
  keep_args = (uintptr_t)ret;
  __asm__ volatile("" : : "r"(args), "r"(ret) : "memory");
  return no_host_functions;
}

#define MAX_HOST_ARGS 16

/* hostCall(index, signature, args): signature is the param kinds, ':' and the result kind (i i32, I i64, f f32, F f64). */
static JSValue hb_host_call(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("a host function");
  int32_t index;
  if (JS_ToInt32(ctx, &index, argv[0])) return JS_EXCEPTION;
  const char *sig = JS_ToCString(ctx, argv[1]);
  if (!sig) return JS_EXCEPTION;
  uint64_t args[MAX_HOST_ARGS] = {0};
  uint64_t ret = 0;
  const char *p = sig;
  int n = 0;
  JSValue error = JS_UNDEFINED;
  for (; *p && *p != ':'; p++, n++) {
    if (n >= MAX_HOST_ARGS) {
      error = JS_ThrowRangeError(ctx, "a host function takes at most %d arguments", MAX_HOST_ARGS);
      break;
    }
    JSValue v = JS_GetPropertyUint32(ctx, argv[2], (uint32_t)n);
    int failed = 0;
    if (*p == 'i') {
      int32_t x;
      failed = JS_ToInt32(ctx, &x, v);
      memcpy(&args[n], &x, 4);
    } else if (*p == 'I') {
      int64_t x;
      failed = JS_IsBigInt(ctx, v) ? JS_ToBigInt64(ctx, &x, v) : number_to_i64(ctx, &x, v);
      memcpy(&args[n], &x, 8);
    } else {
      double d;
      failed = JS_ToFloat64(ctx, &d, v);
      if (*p == 'f') {
        float f = (float)d;
        memcpy(&args[n], &f, 4);
      } else {
        memcpy(&args[n], &d, 8);
      }
    }
    JS_FreeValue(ctx, v);
    if (failed) {
      error = JS_EXCEPTION;
      break;
    }
  }
  char result = *p == ':' ? p[1] : 0;
  JS_FreeCString(ctx, sig);
  if (JS_IsException(error)) return JS_EXCEPTION;
  if (hookbox_host_dispatch(index, args, &ret) != 0) {
    return JS_ThrowReferenceError(ctx, "host function %d is not declared by this plugin (declare it in `declare module 'extism:host' { interface user {…} }`)", index);
  }
  switch (result) {
    case 'i': {
      int32_t x;
      memcpy(&x, &ret, 4);
      return JS_NewInt32(ctx, x);
    }
    case 'I': {
      int64_t x;
      memcpy(&x, &ret, 8);
      /* A number when it is exact, as Memory offsets are; a BigInt beyond 2^53. */
      return (x >= -9007199254740991LL && x <= 9007199254740991LL) ? JS_NewInt64(ctx, x) : JS_NewBigInt64(ctx, x);
    }
    case 'f': {
      float f;
      memcpy(&f, &ret, 4);
      return JS_NewFloat64(ctx, f);
    }
    case 'F': {
      double d;
      memcpy(&d, &ret, 8);
      return JS_NewFloat64(ctx, d);
    }
    default:
      return JS_UNDEFINED;
  }
}

static const JSCFunctionListEntry HOST_FUNCS[] = {
  JS_CFUNC_DEF("memAlloc", 1, hb_mem_alloc),
  JS_CFUNC_DEF("memStore", 4, hb_mem_store),
  JS_CFUNC_DEF("memLoad", 1, hb_mem_load),
  JS_CFUNC_DEF("memLength", 1, hb_mem_length),
  JS_CFUNC_DEF("memFree", 1, hb_mem_free),
  JS_CFUNC_DEF("httpRequest", 4, hb_http_request),
  JS_CFUNC_DEF("hostCall", 3, hb_host_call),
};

void hb_install_host_natives(JSContext *ctx, JSValueConst hb) {
  JS_SetPropertyFunctionList(ctx, hb, HOST_FUNCS, sizeof(HOST_FUNCS) / sizeof(HOST_FUNCS[0]));
}
