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
#include "engine.h"
#include "msgpack.h"

static const JSCFunctionListEntry HOOKBOX_FUNCS[] = {
  JS_CFUNC_DEF("readInput", 0, hb_msgpack_read_input),
  JS_CFUNC_DEF("writeOutput", 1, hb_msgpack_write_output),
};

void hb_install_msgpack(JSContext *ctx) {
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue hookbox = JS_NewObject(ctx);
  JS_SetPropertyFunctionList(ctx, hookbox, HOOKBOX_FUNCS, sizeof(HOOKBOX_FUNCS) / sizeof(HOOKBOX_FUNCS[0]));
  JS_DefinePropertyValueStr(ctx, global, "__hookbox", hookbox, JS_PROP_CONFIGURABLE | JS_PROP_WRITABLE);
  JS_FreeValue(ctx, global);
}
