/*
 * MessagePack decoding of the hook input (see msgpack.c): nil, bool, every
 * int/float width, str, bin (→ Uint8Array), array, map (keys as own data
 * properties, so "__proto__" stays data), msgpackr's `undefined` (fixext1
 * type 0); trailing bytes after the value are an error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "extism.h"
#include "msgpack.h"

typedef struct {
  const uint8_t *p, *end;
  int depth;
} reader;

static JSValue decode_value(JSContext *ctx, reader *r);

static int need(JSContext *ctx, reader *r, size_t n) {
  if ((size_t)(r->end - r->p) < n) {
    JS_ThrowTypeError(ctx, "msgpack: truncated input");
    return -1;
  }
  return 0;
}

static uint64_t be(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v = (v << 8) | p[i];
  return v;
}

/* Reads an n-byte big-endian unsigned length or value. */
static int read_uint(JSContext *ctx, reader *r, int n, uint64_t *out) {
  if (need(ctx, r, (size_t)n)) return -1;
  *out = be(r->p, n);
  r->p += n;
  return 0;
}

static JSValue decode_str(JSContext *ctx, reader *r, uint64_t len) {
  if (need(ctx, r, len)) return JS_EXCEPTION;
  JSValue s = JS_NewStringLen(ctx, (const char *)r->p, len);
  r->p += len;
  return s;
}

static JSValue decode_bin(JSContext *ctx, reader *r, uint64_t len) {
  if (need(ctx, r, len)) return JS_EXCEPTION;
  JSValue buf = JS_NewArrayBufferCopy(ctx, r->p, len);
  r->p += len;
  if (JS_IsException(buf)) return buf;
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue ctor = JS_GetPropertyStr(ctx, global, "Uint8Array");
  JSValue view = JS_CallConstructor(ctx, ctor, 1, (JSValueConst *)&buf);
  JS_FreeValue(ctx, ctor);
  JS_FreeValue(ctx, global);
  JS_FreeValue(ctx, buf);
  return view;
}

static JSValue decode_array(JSContext *ctx, reader *r, uint64_t n) {
  JSValue arr = JS_NewArray(ctx);
  for (uint64_t i = 0; i < n && !JS_IsException(arr); i++) {
    JSValue item = decode_value(ctx, r);
    if (JS_IsException(item) || JS_DefinePropertyValueUint32(ctx, arr, (uint32_t)i, item, JS_PROP_C_W_E) < 0) {
      JS_FreeValue(ctx, arr);
      arr = JS_EXCEPTION;
    }
  }
  return arr;
}

/* A str key straight to an atom (no intermediate string); JS_ATOM_NULL if the key is not a str. */
static JSAtom str_key_atom(JSContext *ctx, reader *r) {
  uint8_t b = *r->p;
  uint64_t len;
  int head;
  if ((b & 0xe0) == 0xa0) len = b & 0x1f, head = 1;
  else if (b == 0xd9 && r->end - r->p >= 2) len = r->p[1], head = 2;
  else if (b == 0xda && r->end - r->p >= 3) len = be(r->p + 1, 2), head = 3;
  else return JS_ATOM_NULL;
  if ((uint64_t)(r->end - r->p - head) < len) return JS_ATOM_NULL;
  JSAtom atom = JS_NewAtomLen(ctx, (const char *)r->p + head, len);
  if (atom != JS_ATOM_NULL) r->p += head + len;
  return atom;
}

static JSValue decode_map(JSContext *ctx, reader *r, uint64_t n) {
  JSValue obj = JS_NewObject(ctx);
  for (uint64_t i = 0; i < n && !JS_IsException(obj); i++) {
    if (need(ctx, r, 1)) {
      JS_FreeValue(ctx, obj);
      return JS_EXCEPTION;
    }
    JSAtom atom = str_key_atom(ctx, r);
    if (atom == JS_ATOM_NULL) {
      JSValue key = decode_value(ctx, r);
      if (JS_IsException(key)) {
        JS_FreeValue(ctx, obj);
        return JS_EXCEPTION;
      }
      atom = JS_ValueToAtom(ctx, key);
      JS_FreeValue(ctx, key);
    }
    JSValue value = atom == JS_ATOM_NULL ? JS_EXCEPTION : decode_value(ctx, r);
    if (JS_IsException(value) || JS_DefinePropertyValue(ctx, obj, atom, value, JS_PROP_C_W_E) < 0) {
      JS_FreeValue(ctx, obj);
      obj = JS_EXCEPTION;
    }
    if (atom != JS_ATOM_NULL) JS_FreeAtom(ctx, atom);
  }
  return obj;
}

static JSValue number_from_u64(JSContext *ctx, uint64_t v) {
  return v <= 9007199254740991ull ? JS_NewInt64(ctx, (int64_t)v) : JS_NewBigUint64(ctx, v);
}

static JSValue number_from_i64(JSContext *ctx, int64_t v) {
  return v >= -9007199254740991ll && v <= 9007199254740991ll ? JS_NewInt64(ctx, v) : JS_NewBigInt64(ctx, v);
}

static JSValue decode_value(JSContext *ctx, reader *r) {
  if (need(ctx, r, 1)) return JS_EXCEPTION;
  if (++r->depth > HB_MSGPACK_MAX_DEPTH) return JS_ThrowRangeError(ctx, "msgpack: nesting too deep");
  uint8_t b = *r->p++;
  uint64_t n;
  JSValue v;
  if (b <= 0x7f) v = JS_NewInt32(ctx, b);
  else if (b >= 0xe0) v = JS_NewInt32(ctx, (int8_t)b);
  else if ((b & 0xf0) == 0x80) v = decode_map(ctx, r, b & 0x0f);
  else if ((b & 0xf0) == 0x90) v = decode_array(ctx, r, b & 0x0f);
  else if ((b & 0xe0) == 0xa0) v = decode_str(ctx, r, b & 0x1f);
  else switch (b) {
    case 0xc0: v = JS_NULL; break;
    case 0xc2: v = JS_FALSE; break;
    case 0xc3: v = JS_TRUE; break;
    case 0xc4: case 0xc5: case 0xc6:
      v = read_uint(ctx, r, 1 << (b - 0xc4), &n) ? JS_EXCEPTION : decode_bin(ctx, r, n);
      break;
    case 0xca: {
      if (read_uint(ctx, r, 4, &n)) return JS_EXCEPTION;
      uint32_t bits = (uint32_t)n;
      float f;
      memcpy(&f, &bits, 4);
      v = JS_NewFloat64(ctx, f);
      break;
    }
    case 0xcb: {
      if (read_uint(ctx, r, 8, &n)) return JS_EXCEPTION;
      double d;
      memcpy(&d, &n, 8);
      v = JS_NewFloat64(ctx, d);
      break;
    }
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
      v = read_uint(ctx, r, 1 << (b - 0xcc), &n) ? JS_EXCEPTION : number_from_u64(ctx, n);
      break;
    case 0xd0: v = read_uint(ctx, r, 1, &n) ? JS_EXCEPTION : JS_NewInt32(ctx, (int8_t)n); break;
    case 0xd1: v = read_uint(ctx, r, 2, &n) ? JS_EXCEPTION : JS_NewInt32(ctx, (int16_t)n); break;
    case 0xd2: v = read_uint(ctx, r, 4, &n) ? JS_EXCEPTION : JS_NewInt32(ctx, (int32_t)n); break;
    case 0xd3: v = read_uint(ctx, r, 8, &n) ? JS_EXCEPTION : number_from_i64(ctx, (int64_t)n); break;
    case 0xd4:
      if (need(ctx, r, 2)) return JS_EXCEPTION;
      if (r->p[0] != 0) return JS_ThrowTypeError(ctx, "msgpack: unsupported extension type %d", (int8_t)r->p[0]);
      r->p += 2;
      v = JS_UNDEFINED;
      break;
    case 0xd9: case 0xda: case 0xdb:
      v = read_uint(ctx, r, 1 << (b - 0xd9), &n) ? JS_EXCEPTION : decode_str(ctx, r, n);
      break;
    case 0xdc: case 0xdd:
      v = read_uint(ctx, r, 2 << (b - 0xdc), &n) ? JS_EXCEPTION : decode_array(ctx, r, n);
      break;
    case 0xde: case 0xdf:
      v = read_uint(ctx, r, 2 << (b - 0xde), &n) ? JS_EXCEPTION : decode_map(ctx, r, n);
      break;
    default:
      return JS_ThrowTypeError(ctx, "msgpack: unsupported type byte 0x%02x", b);
  }
  r->depth--;
  return v;
}

JSValue hb_msgpack_read_input(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  if (hb_initializing) return JS_ThrowTypeError(ctx, "the hook input is not available in top-level code");
  size_t len = 0;
  uint8_t *data = hb_read_input(&len);
  if (!data) return JS_ThrowOutOfMemory(ctx);
  reader r = {data, data + len, 0};
  JSValue v = decode_value(ctx, &r);
  if (!JS_IsException(v) && r.p != r.end) {
    JS_FreeValue(ctx, v);
    v = JS_ThrowTypeError(ctx, "msgpack: trailing bytes after the value");
  }
  hb_release_input(data);
  return v;
}
