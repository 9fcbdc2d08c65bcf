/*
 * Math.random with per-instance state. QuickJS seeds its own generator when
 * the context is created, which happens once at pre-initialization: every
 * instance of a snapshot would replay the same sequence. This one is reseeded
 * from WASI randomness on each instance's first call. crypto's bytes come
 * straight from WASI randomness (the host's node:crypto), never from it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;

void hb_reseed_random(void) {
  uint64_t seed = 0;
  if (getentropy(&seed, sizeof seed) != 0 || seed == 0) seed ^= 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)&seed;
  state = seed ? seed : 1;
}

/* xorshift64*, as QuickJS uses: 53 random bits into [0, 1). */
static JSValue js_random(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  uint64_t v = state * 0x2545f4914f6cdd1dull;
  return JS_NewFloat64(ctx, (double)(v >> 11) * (1.0 / 9007199254740992.0));
}

void hb_install_random(JSContext *ctx) {
  JSValue global = JS_GetGlobalObject(ctx);
  JSValue math = JS_GetPropertyStr(ctx, global, "Math");
  JS_SetPropertyStr(ctx, math, "random", JS_NewCFunction(ctx, js_random, "random", 0));
  JS_FreeValue(ctx, math);
  JS_FreeValue(ctx, global);
}

/* randomBytes(n) → an ArrayBuffer of n bytes from WASI randomness; the prelude caps n (65536). */
static JSValue hb_random_bytes(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  /* A random value drawn at build time would be the same in every instance of the snapshot. */
  HOST_ONLY("crypto.getRandomValues / crypto.randomUUID");
  uint32_t n;
  if (JS_ToUint32(ctx, &n, argv[0])) return JS_EXCEPTION;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) return JS_ThrowOutOfMemory(ctx);
  for (uint32_t i = 0; i < n; i += 256) {
    uint32_t chunk = n - i < 256 ? n - i : 256; /* getentropy's limit */
    if (getentropy(buf + i, chunk) != 0) {
      free(buf);
      return JS_ThrowInternalError(ctx, "crypto: the host gave no random bytes");
    }
  }
  return hb_adopt_buffer(ctx, buf, n);
}

void hb_install_random_bytes(JSContext *ctx, JSValueConst hb) {
  JS_SetPropertyStr(ctx, hb, "randomBytes", JS_NewCFunction(ctx, hb_random_bytes, "randomBytes", 1));
}
