/*
 * MessagePack for the hook envelope, in C: decoding the ~2-3 KB input and
 * encoding the decision in JS under QuickJS cost ~70 µs per call, in C a few.
 * Installed as `globalThis.__hookbox.readInput()` / `.writeOutput(value)`;
 * the PDK runtime uses them when present (pdk/runtime/msgpack.ts is the
 * portable fallback with the same behaviour).
 *
 * Decoding: nil, bool, every int/float width, str, bin (→ Uint8Array), array,
 * map (keys as own data properties, so "__proto__" stays data), msgpackr's
 * `undefined` (fixext1 type 0). Encoding: plain data; object keys whose value
 * is undefined or a function are left out (strict seam schemas refuse them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "extism.h"

#define MAX_DEPTH 64

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
  if (++r->depth > MAX_DEPTH) return JS_ThrowRangeError(ctx, "msgpack: nesting too deep");
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

static JSValue hb_read_input_msgpack(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
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

/* ---- encoding ---- */

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
  if (depth > MAX_DEPTH) {
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

static JSValue hb_write_output_msgpack(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
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

static const JSCFunctionListEntry HOOKBOX_FUNCS[] = {
  JS_CFUNC_DEF("readInput", 0, hb_read_input_msgpack),
  JS_CFUNC_DEF("writeOutput", 1, hb_write_output_msgpack),
};

void hb_install_msgpack(JSContext *ctx) {
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue hookbox = JS_NewObject(ctx);
  JS_SetPropertyFunctionList(ctx, hookbox, HOOKBOX_FUNCS, sizeof(HOOKBOX_FUNCS) / sizeof(HOOKBOX_FUNCS[0]));
  JS_DefinePropertyValueStr(ctx, global, "__hookbox", hookbox, JS_PROP_CONFIGURABLE | JS_PROP_WRITABLE);
  JS_FreeValue(ctx, global);
}
