/*
 * MessagePack encoding of the hook's decision (see msgpack.c): plain data;
 * object keys whose value is undefined or a function are left out (strict
 * seam schemas refuse them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "extism.h"
#include "msgpack.h"

typedef struct {
  uint8_t *data;
  size_t len, cap;
  int failed;
} writer;

static uint8_t *room(writer *w, size_t n) {
  if (w->failed) return NULL;
  if (w->len + n > w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 256;
    while (cap < w->len + n) cap *= 2;
    uint8_t *next = realloc(w->data, cap);
    if (!next) {
      w->failed = 1;
      return NULL;
    }
    w->data = next;
    w->cap = cap;
  }
  uint8_t *at = w->data + w->len;
  w->len += n;
  return at;
}

static void put_be(writer *w, uint8_t type, uint64_t v, int n) {
  uint8_t *p = room(w, 1 + (size_t)n);
  if (!p) return;
  p[0] = type;
  for (int i = n; i > 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

static void put_byte(writer *w, uint8_t b) {
  uint8_t *p = room(w, 1);
  if (p) *p = b;
}

/* fix_max 0: the type has no fix form (bin), so even an empty one gets a length byte. */
static void put_head(writer *w, uint64_t n, uint8_t fix, uint64_t fix_max, int t8, uint8_t t16, uint8_t t32) {
  if (fix_max > 0 && n <= fix_max) put_byte(w, (uint8_t)(fix | n));
  else if (n <= 0xff && t8 >= 0) put_be(w, (uint8_t)t8, n, 1);
  else if (n <= 0xffff) put_be(w, t16, n, 2);
  else put_be(w, t32, n, 4);
}

static void put_raw(writer *w, const void *src, size_t n) {
  uint8_t *p = room(w, n);
  if (p && n) memcpy(p, src, n);
}

static void put_double(writer *w, double d) {
  double i;
  if (modf(d, &i) == 0.0 && d >= -2147483648.0 && d <= 4294967295.0 && !(d == 0 && signbit(d))) {
    int64_t v = (int64_t)d;
    if (v >= 0) {
      if (v <= 0x7f) put_byte(w, (uint8_t)v);
      else if (v <= 0xff) put_be(w, 0xcc, (uint64_t)v, 1);
      else if (v <= 0xffff) put_be(w, 0xcd, (uint64_t)v, 2);
      else put_be(w, 0xce, (uint64_t)v, 4);
    } else if (v >= -32) put_byte(w, (uint8_t)(int8_t)v);
    else if (v >= -0x80) put_be(w, 0xd0, (uint64_t)v, 1);
    else if (v >= -0x8000) put_be(w, 0xd1, (uint64_t)v, 2);
    else put_be(w, 0xd2, (uint64_t)v, 4);
    return;
  }
  uint64_t bits;
  memcpy(&bits, &d, 8);
  put_be(w, 0xcb, bits, 8);
}

static int encode_value(JSContext *ctx, writer *w, JSValueConst v, int depth);

static int encode_object(JSContext *ctx, writer *w, JSValueConst obj, int depth) {
  JSPropertyEnum *props;
  uint32_t count;
  if (JS_GetOwnPropertyNames(ctx, &props, &count, obj, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) return -1;
  JSValue *values = count ? js_malloc(ctx, sizeof(JSValue) * count) : NULL;
  int rc = count && !values ? -1 : 0;
  uint32_t kept = 0, fetched = 0;
  for (; fetched < count && rc == 0; fetched++) {
    values[fetched] = JS_GetProperty(ctx, obj, props[fetched].atom);
    if (JS_IsException(values[fetched])) rc = -1;
    else if (!JS_IsUndefined(values[fetched]) && !JS_IsFunction(ctx, values[fetched])) kept++;
  }
  if (rc == 0) {
    put_head(w, kept, 0x80, 15, -1, 0xde, 0xdf);
    for (uint32_t i = 0; i < count && rc == 0; i++) {
      if (JS_IsUndefined(values[i]) || JS_IsFunction(ctx, values[i])) continue;
      JSValue key = JS_AtomToString(ctx, props[i].atom);
      rc = JS_IsException(key) ? -1 : encode_value(ctx, w, key, depth + 1);
      JS_FreeValue(ctx, key);
      if (rc == 0) rc = encode_value(ctx, w, values[i], depth + 1);
    }
  }
  for (uint32_t i = 0; i < fetched; i++) JS_FreeValue(ctx, values[i]);
  for (uint32_t i = 0; i < count; i++) JS_FreeAtom(ctx, props[i].atom);
  js_free(ctx, values);
  js_free(ctx, props);
  return rc;
}

static int encode_value(JSContext *ctx, writer *w, JSValueConst v, int depth) {
  if (depth > HB_MSGPACK_MAX_DEPTH) {
    JS_ThrowRangeError(ctx, "msgpack: value nested too deep (a cycle?)");
    return -1;
  }
  int tag = JS_VALUE_GET_NORM_TAG(v);
  if (tag == JS_TAG_INT) {
    put_double(w, JS_VALUE_GET_INT(v));
  } else if (JS_TAG_IS_FLOAT64(tag)) {
    put_double(w, JS_VALUE_GET_FLOAT64(v));
  } else if (tag == JS_TAG_BOOL) {
    put_byte(w, JS_VALUE_GET_BOOL(v) ? 0xc3 : 0xc2);
  } else if (tag == JS_TAG_NULL || tag == JS_TAG_UNDEFINED) {
    put_byte(w, 0xc0);
  } else if (tag == JS_TAG_STRING) {
    size_t len;
    const char *s = JS_ToCStringLen(ctx, &len, v);
    if (!s) return -1;
    put_head(w, len, 0xa0, 31, 0xd9, 0xda, 0xdb);
    put_raw(w, s, len);
    JS_FreeCString(ctx, s);
  } else if (tag == JS_TAG_BIG_INT) {
    int64_t i;
    if (JS_ToBigInt64(ctx, &i, v)) return -1;
    put_be(w, i < 0 ? 0xd3 : 0xcf, (uint64_t)i, 8);
  } else if (tag == JS_TAG_OBJECT) {
    size_t size, off, len, bpe;
    /* Asked first: probing with JS_GetArrayBuffer would throw (and build a backtrace) for every plain object. */
    int binary = hookbox_binary_kind(v);
    if (binary == 1) {
      uint8_t *bytes = JS_GetArrayBuffer(ctx, &size, v);
      if (bytes) {
        put_head(w, size, 0, 0, 0xc4, 0xc5, 0xc6);
        put_raw(w, bytes, size);
        return w->failed ? -1 : 0;
      }
      JS_FreeValue(ctx, JS_GetException(ctx)); /* detached: encoded as the object it still is */
    } else if (binary == 2) {
      JSValue buf = JS_GetTypedArrayBuffer(ctx, v, &off, &len, &bpe);
      if (!JS_IsException(buf)) {
        uint8_t *bytes = JS_GetArrayBuffer(ctx, &size, buf);
        JS_FreeValue(ctx, buf);
        if (!bytes) return -1;
        put_head(w, len, 0, 0, 0xc4, 0xc5, 0xc6);
        put_raw(w, bytes + off, len);
        return w->failed ? -1 : 0;
      }
      JS_FreeValue(ctx, JS_GetException(ctx));
    }
    int is_array = JS_IsArray(ctx, v);
    if (is_array < 0) return -1;
    if (!is_array) return encode_object(ctx, w, v, depth);
    uint32_t n;
    JSValue length = JS_GetPropertyStr(ctx, v, "length");
    int bad = JS_ToUint32(ctx, &n, length);
    JS_FreeValue(ctx, length);
    if (bad) return -1;
    put_head(w, n, 0x90, 15, -1, 0xdc, 0xdd);
    for (uint32_t i = 0; i < n; i++) {
      JSValue item = JS_GetPropertyUint32(ctx, v, i);
      int rc = JS_IsException(item) ? -1 : encode_value(ctx, w, item, depth + 1);
      JS_FreeValue(ctx, item);
      if (rc) return -1;
    }
  } else {
    JS_ThrowTypeError(ctx, "msgpack: cannot encode this value");
    return -1;
  }
  if (w->failed) {
    JS_ThrowOutOfMemory(ctx);
    return -1;
  }
  return 0;
}

JSValue hb_msgpack_write_output(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  if (hb_initializing) return JS_ThrowTypeError(ctx, "the hook output is not available in top-level code");
  writer w = {0};
  JSValue result = JS_TRUE;
  if (encode_value(ctx, &w, argv[0], 0)) {
    result = JS_EXCEPTION;
  } else if (w.len > 0) {
    uint64_t offs = hb_store(w.data, w.len);
    if (offs) extism_output_set(offs, w.len);
    else result = JS_ThrowOutOfMemory(ctx);
  }
  free(w.data);
  return result;
}
