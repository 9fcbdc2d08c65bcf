/*
 * Native functions behind the js-pdk globals. They are installed as the
 * object `globalThis.__hb`; the prelude files wrap them into the public surface
 * (Host, Config, Var, console, TextEncoder, TextDecoder, crypto, performance,
 * timers…) and the build deletes `__hb` after the last one.
 * Byte arguments arrive as (ArrayBuffer, byteOffset, byteLength): the
 * prelude unwraps views so the C side handles one shape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "extism.h"

/* Borrowed bytes of argv[i] (ArrayBuffer) at argv[i+1] offset, argv[i+2] length. */
int hb_buffer_arg(JSContext *ctx, JSValueConst *argv, uint8_t **data, size_t *len) {
  size_t size;
  uint8_t *p = JS_GetArrayBuffer(ctx, &size, argv[0]);
  if (!p) return -1; /* not an ArrayBuffer: a TypeError is pending (empty buffers still have a pointer) */
  uint32_t off, n;
  if (JS_ToUint32(ctx, &off, argv[1]) || JS_ToUint32(ctx, &n, argv[2])) return -1;
  if ((size_t)off + n > size) {
    JS_ThrowRangeError(ctx, "byte range out of bounds");
    return -1;
  }
  *data = p + off;
  *len = n;
  return 0;
}

static JSValue throw_oom(JSContext *ctx) { return JS_ThrowOutOfMemory(ctx); }

static void free_buffer(JSRuntime *rt, void *opaque, void *ptr) {
  (void)rt;
  (void)opaque;
  free(ptr);
}

/* Wraps a malloc'd buffer as an ArrayBuffer without copying. */
JSValue hb_adopt_buffer(JSContext *ctx, uint8_t *data, size_t len) {
  return JS_NewArrayBuffer(ctx, data, len, free_buffer, NULL, 0);
}

static JSValue hb_input_bytes(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Host.inputBytes");
  size_t len = 0;
  uint8_t *data = hb_read_input(&len);
  if (!data) return throw_oom(ctx);
  /* The ArrayBuffer owns its bytes: a copy, since the input may be read again. */
  uint8_t *copy = malloc(len ? len : 1);
  if (copy) memcpy(copy, data, len);
  hb_release_input(data);
  return copy ? hb_adopt_buffer(ctx, copy, len) : throw_oom(ctx);
}

static JSValue hb_input_string(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Host.inputString");
  size_t len = 0;
  uint8_t *data = hb_read_input(&len);
  if (!data) return throw_oom(ctx);
  JSValue s = JS_NewStringLen(ctx, (const char *)data, len);
  hb_release_input(data);
  return s;
}

static JSValue set_output(JSContext *ctx, const uint8_t *data, size_t len) {
  if (len > 0) {
    uint64_t offs = hb_store(data, len);
    if (!offs) return throw_oom(ctx);
    extism_output_set(offs, len);
  }
  return JS_TRUE;
}

static JSValue hb_output(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Host.outputBytes");
  uint8_t *data;
  size_t len;
  if (hb_buffer_arg(ctx, argv, &data, &len)) return JS_EXCEPTION;
  return set_output(ctx, data, len);
}

static JSValue hb_output_string(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Host.outputString");
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, argv[0]);
  if (!s) return JS_EXCEPTION;
  JSValue r = set_output(ctx, (const uint8_t *)s, len);
  JS_FreeCString(ctx, s);
  return r;
}

/* Stores a JS string as an Extism block (the key of config_get / var_get / var_set). */
static uint64_t store_string(JSContext *ctx, JSValueConst v) {
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, v);
  if (!s) return 0;
  uint64_t offs = hb_store((const uint8_t *)s, len);
  JS_FreeCString(ctx, s);
  if (!offs) JS_ThrowTypeError(ctx, "empty key");
  return offs;
}

/* config_get / var_get free the key block themselves (as the SDKs do). */
static JSValue get_block(JSContext *ctx, JSValueConst key, int as_string, int is_config) {
  uint64_t k = store_string(ctx, key);
  if (!k) return JS_EXCEPTION;
  uint64_t offs = is_config ? extism_config_get(k) : extism_var_get(k);
  if (!offs) return JS_NULL;
  size_t len = 0;
  uint8_t *data = hb_load_and_free(offs, &len);
  if (!data) return throw_oom(ctx);
  if (!as_string) return hb_adopt_buffer(ctx, data, len);
  JSValue s = JS_NewStringLen(ctx, (const char *)data, len);
  hb_release_input(data);
  return s;
}

static JSValue hb_config_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Config.get");
  return get_block(ctx, argv[0], 1, 1);
}

static JSValue hb_var_get(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Var.getBytes");
  return get_block(ctx, argv[0], 0, 0);
}

static JSValue hb_var_get_string(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Var.getString");
  return get_block(ctx, argv[0], 1, 0);
}

/* var_set copies the value and leaves both blocks to the caller. A zero value offset deletes. */
static JSValue var_set(JSContext *ctx, JSValueConst key, const uint8_t *data, size_t len, int remove) {
  uint64_t k = store_string(ctx, key);
  if (!k) return JS_EXCEPTION;
  uint64_t v = 0;
  if (!remove) {
    /* An empty value still needs a block: offset 0 would delete the variable. */
    v = len ? hb_store(data, len) : extism_alloc(0);
    if (!v) {
      extism_free(k);
      return throw_oom(ctx);
    }
  }
  extism_var_set(k, v);
  extism_free(k);
  if (v) extism_free(v);
  return JS_UNDEFINED;
}

static JSValue hb_var_set(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Var.set");
  uint8_t *data;
  size_t len;
  if (hb_buffer_arg(ctx, argv + 1, &data, &len)) return JS_EXCEPTION;
  return var_set(ctx, argv[0], data, len, 0);
}

static JSValue hb_var_set_string(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Var.set");
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, argv[1]);
  if (!s) return JS_EXCEPTION;
  JSValue r = var_set(ctx, argv[0], (const uint8_t *)s, len, 0);
  JS_FreeCString(ctx, s);
  return r;
}

static JSValue hb_var_delete(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  HOST_ONLY("Var.set");
  return var_set(ctx, argv[0], NULL, 0, 1);
}

static JSValue hb_log_native(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  int32_t level;
  if (JS_ToInt32(ctx, &level, argv[0])) return JS_EXCEPTION;
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, argv[1]);
  if (!s) return JS_EXCEPTION;
  if (hb_initializing) fprintf(stderr, "hookbox: top-level log: %s\n", s); /* no Extism host at build time */
  else hb_log((enum hb_log_level)level, s, len);
  JS_FreeCString(ctx, s);
  return JS_UNDEFINED;
}

static JSValue hb_utf8_encode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, argv[0]);
  if (!s) return JS_EXCEPTION;
  JSValue buf = JS_NewArrayBufferCopy(ctx, (const uint8_t *)s, len);
  JS_FreeCString(ctx, s);
  return buf;
}

/* Strict UTF-8 validation (no overlongs, no surrogates, max U+10FFFF) for TextDecoder's `fatal`. */
static int utf8_valid(const uint8_t *p, size_t len) {
  size_t i = 0;
  while (i < len) {
    uint8_t c = p[i];
    if (c < 0x80) { i++; continue; }
    size_t n;
    uint32_t cp, min;
    if ((c & 0xe0) == 0xc0) { n = 1; cp = c & 0x1f; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { n = 2; cp = c & 0x0f; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { n = 3; cp = c & 0x07; min = 0x10000; }
    else return 0;
    for (size_t k = 1; k <= n; k++) {
      if (i + k >= len || (p[i + k] & 0xc0) != 0x80) return 0;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    i += n + 1;
  }
  return 1;
}

static JSValue hb_utf8_decode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  uint8_t *data;
  size_t len;
  if (hb_buffer_arg(ctx, argv, &data, &len)) return JS_EXCEPTION;
  if (JS_ToBool(ctx, argv[3]) && !utf8_valid(data, len)) {
    return JS_ThrowTypeError(ctx, "The encoded data was not valid for encoding utf-8");
  }
  return JS_NewStringLen(ctx, (const char *)data, len);
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static JSValue hb_base64_encode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  uint8_t *data;
  size_t len;
  if (hb_buffer_arg(ctx, argv, &data, &len)) return JS_EXCEPTION;
  size_t out_len = (len + 2) / 3 * 4;
  char *out = malloc(out_len + 1);
  if (!out) return throw_oom(ctx);
  size_t o = 0;
  for (size_t i = 0; i < len; i += 3) {
    uint32_t v = (uint32_t)data[i] << 16;
    if (i + 1 < len) v |= (uint32_t)data[i + 1] << 8;
    if (i + 2 < len) v |= data[i + 2];
    out[o++] = B64[(v >> 18) & 63];
    out[o++] = B64[(v >> 12) & 63];
    out[o++] = i + 1 < len ? B64[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < len ? B64[v & 63] : '=';
  }
  JSValue s = JS_NewStringLen(ctx, out, o);
  free(out);
  return s;
}

static int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

static JSValue hb_base64_decode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  size_t len;
  const char *s = JS_ToCStringLen(ctx, &len, argv[0]);
  if (!s) return JS_EXCEPTION;
  uint8_t *out = malloc(len / 4 * 3 + 3);
  if (!out) {
    JS_FreeCString(ctx, s);
    return throw_oom(ctx);
  }
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '=' || c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    int v = b64_value(c);
    if (v < 0) {
      JS_FreeCString(ctx, s);
      free(out);
      return JS_ThrowTypeError(ctx, "invalid base64 character");
    }
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(acc >> bits);
    }
  }
  JS_FreeCString(ctx, s);
  return hb_adopt_buffer(ctx, out, o);
}

static const JSCFunctionListEntry HB_FUNCS[] = {
  JS_CFUNC_DEF("inputBytes", 0, hb_input_bytes),
  JS_CFUNC_DEF("inputString", 0, hb_input_string),
  JS_CFUNC_DEF("output", 3, hb_output),
  JS_CFUNC_DEF("outputString", 1, hb_output_string),
  JS_CFUNC_DEF("configGet", 1, hb_config_get),
  JS_CFUNC_DEF("varGet", 1, hb_var_get),
  JS_CFUNC_DEF("varGetString", 1, hb_var_get_string),
  JS_CFUNC_DEF("varSet", 4, hb_var_set),
  JS_CFUNC_DEF("varSetString", 2, hb_var_set_string),
  JS_CFUNC_DEF("varDelete", 1, hb_var_delete),
  JS_CFUNC_DEF("log", 2, hb_log_native),
  JS_CFUNC_DEF("utf8Encode", 1, hb_utf8_encode),
  JS_CFUNC_DEF("utf8Decode", 4, hb_utf8_decode),
  JS_CFUNC_DEF("base64Encode", 3, hb_base64_encode),
  JS_CFUNC_DEF("base64Decode", 1, hb_base64_decode),
};

void hb_install_natives(JSContext *ctx) {
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue hb = JS_NewObject(ctx);
  JS_SetPropertyFunctionList(ctx, hb, HB_FUNCS, sizeof(HB_FUNCS) / sizeof(HB_FUNCS[0]));
  hb_install_host_natives(ctx, hb);
  hb_install_random_bytes(ctx, hb);
  hb_install_sha(ctx, hb);
  hb_install_clock(ctx, hb);
  hb_install_timers(ctx, hb);
  JS_SetPropertyStr(ctx, global, "__hb", hb);
  JS_FreeValue(ctx, global);
}
