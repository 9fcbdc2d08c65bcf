/* Shared declarations of the hookbox JS engine glue. */
#ifndef HOOKBOX_ENGINE_H
#define HOOKBOX_ENGINE_H

#include "quickjs.h"

/* Non-zero while Wizer pre-initializes: the Extism host is a trapping stub then. */
extern int hb_initializing;

/* Installs `globalThis.__hb` (natives.c); prelude.js turns it into the js-pdk globals. */
void hb_install_natives(JSContext *ctx);

/* Borrowed bytes of argv[0] (ArrayBuffer) at argv[1] offset, argv[2] length; -1 with a pending exception. */
int hb_buffer_arg(JSContext *ctx, JSValueConst *argv, uint8_t **data, size_t *len);

/* Wraps a malloc'd buffer as an ArrayBuffer without copying (the ArrayBuffer frees it). */
JSValue hb_adopt_buffer(JSContext *ctx, uint8_t *data, size_t len);

/* Top-level hook code runs at build time, where there is no call, input, config or state. */
#define HOST_ONLY(what)                                                                              \
  if (hb_initializing)                                                                               \
    return JS_ThrowTypeError(ctx, "%s is not available in top-level code (it runs at build time); " \
                                  "use it inside a handler",                                         \
                             what)

/* Installs the natives behind Memory, Http and host functions on `__hb` (natives-host.c). */
void hb_install_host_natives(JSContext *ctx, JSValueConst hb);

/* Installs `globalThis.__hookbox.readInput/writeOutput` (msgpack.c). */
void hb_install_msgpack(JSContext *ctx);

/* Installs a per-instance-seeded Math.random (random.c). */
void hb_install_random(JSContext *ctx);
void hb_reseed_random(void);
/* `__hb.randomBytes` (random.c), `__hb.digest` (sha.c), `__hb.monoMs/timeOrigin/ticks` (clock.c). */
void hb_install_random_bytes(JSContext *ctx, JSValueConst hb);
void hb_install_sha(JSContext *ctx, JSValueConst hb);
void hb_install_clock(JSContext *ctx, JSValueConst hb);
void hb_reset_clock(void);
/* Instruction ticks the current instance has spent, the running call's included (engine.c). */
uint64_t hb_instance_ticks(void);

/* `__hb.setTimers` (timers.c); runs the next pending timer: 1 ran, 0 none pending, -1 it threw. */
void hb_install_timers(JSContext *ctx, JSValueConst hb);
int hb_run_timer(JSContext *ctx);
/* Drops every pending timer without running JS (after a fault). */
void hb_clear_timers(JSContext *ctx);

/* A growing NUL-terminated message; hb_sb_put silently truncates on allocation failure (error-text.c). */
typedef struct {
  char *data;
  size_t len, cap;
} hb_strbuf;
void hb_sb_put(hb_strbuf *b, const char *s, size_t n);
/* "Name: message\n<stack>" for an error, "Uncaught " + String(value) for anything else thrown. */
void hb_describe_exception(JSContext *ctx, hb_strbuf *b, JSValueConst exc);
/* Whether `exc` is QuickJS's own "out of memory" error (the heap limit). */
int hb_is_out_of_memory(JSContext *ctx, JSValueConst exc);

/* Promise jobs, then timers, until neither is left (settle.c); -1: one threw (pending exception), timers dropped. */
int hb_settle_call(JSContext *ctx);
/* Subscribes to `ret` if it is a thenable: 1 it is, 0 a plain value, -1 `then` threw (pending exception). */
int hb_await_thenable(JSContext *ctx, JSValueConst ret);
enum { HB_SETTLE_PENDING, HB_SETTLE_FULFILLED, HB_SETTLE_REJECTED };
/* The awaited promise's state once jobs ran, and (moved to the caller) its value or reason. */
int hb_settled(JSValue *value);

/* Appended to quickjs.c by pdk/engine/build.ts: the interrupt counter is private to it. */
void hookbox_set_interrupt_counter(JSContext *ctx, int value);
int hookbox_get_interrupt_counter(JSContext *ctx);
void hookbox_fix_random_state(JSContext *ctx);
/* 1: ArrayBuffer or SharedArrayBuffer, 2: a typed array, 0: anything else (never throws). */
int hookbox_binary_kind(JSValueConst v);

/* The JS prelude, generated from prelude.js by the build (prelude.h). */
extern const char HB_PRELUDE[];
extern const unsigned HB_PRELUDE_LEN;

#endif
