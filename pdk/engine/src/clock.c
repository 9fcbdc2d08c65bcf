/*
 * The clock behind performance.now(). With the clock grant: real monotonic
 * milliseconds since the instance first read it (and the real time of that
 * read as performance.timeOrigin). Without it the host answers ENOTCAPABLE,
 * once per instance: -1 here, and the prelude counts virtual time instead
 * (instruction ticks and timer delays, see prelude-timers.js).
 */
#include <time.h>

#include "engine.h"

/* 0: not asked yet by this instance, 1: granted, -1: not granted. 0 in the snapshot. */
static int clock_state;
static double origin_mono, origin_real;

void hb_reset_clock(void) { clock_state = 0; }

static int read_ms(clockid_t id, double *out) {
  struct timespec ts;
  if (clock_gettime(id, &ts) != 0) return -1;
  *out = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
  return 0;
}

/* Asks the host once per instance; never at build time (a snapshot must not hold a build machine's time). */
static int granted(void) {
  if (hb_initializing) return 0;
  if (clock_state == 0) {
    clock_state = read_ms(CLOCK_MONOTONIC, &origin_mono) == 0 && read_ms(CLOCK_REALTIME, &origin_real) == 0 ? 1 : -1;
  }
  return clock_state > 0;
}

/* monoMs() → milliseconds since the instance's first read, or -1 without the grant. */
static JSValue hb_mono_ms(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  double now;
  if (!granted() || read_ms(CLOCK_MONOTONIC, &now) != 0) return JS_NewFloat64(ctx, -1);
  return JS_NewFloat64(ctx, now - origin_mono);
}

/* timeOrigin() → the epoch milliseconds of that first read, or 0 without the grant. */
static JSValue hb_time_origin(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  return JS_NewFloat64(ctx, granted() ? origin_real : 0);
}

/* ticks() → instruction ticks this instance has spent so far (deterministic). */
static JSValue hb_ticks(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  return JS_NewFloat64(ctx, (double)hb_instance_ticks());
}

static const JSCFunctionListEntry CLOCK_FUNCS[] = {
  JS_CFUNC_DEF("monoMs", 0, hb_mono_ms),
  JS_CFUNC_DEF("timeOrigin", 0, hb_time_origin),
  JS_CFUNC_DEF("ticks", 0, hb_ticks),
};

void hb_install_clock(JSContext *ctx, JSValueConst hb) {
  JS_SetPropertyFunctionList(ctx, hb, CLOCK_FUNCS, sizeof(CLOCK_FUNCS) / sizeof(CLOCK_FUNCS[0]));
}
