/*
 * Settling what a call started, inside the call: its promise jobs, its
 * timers, and the promise an async export returned.
 */
#include "engine.h"

/* Runs promise jobs queued by the call; a rejected job is the call's error. */
static int drain_jobs(JSRuntime *rt) {
  JSContext *job_ctx;
  for (;;) {
    int r = JS_ExecutePendingJob(rt, &job_ctx);
    if (r == 0) return 0;
    if (r < 0) return -1;
  }
}

/*
 * Runs what the call left: promise jobs, then the next timer (virtual clock,
 * prelude-timers.js), again until neither is left. Every tick counts against
 * the budget, so an interval never cleared ends as the timeout fault. -1: a
 * job or a timer threw (pending exception); the other timers are dropped.
 */
int hb_settle_call(JSContext *ctx) {
  JSRuntime *rt = JS_GetRuntime(ctx);
  for (;;) {
    int r = drain_jobs(rt);
    if (r == 0) r = hb_run_timer(ctx);
    if (r == 0) return 0;
    if (r < 0) {
      hb_clear_timers(ctx);
      return -1;
    }
  }
}

/*
 * An export may be async (extism-js style `export async function`, or a
 * defineHook handler returning a promise). Its promise is settled inside the
 * call: `then` gets two native callbacks, the job queue is drained, and the
 * outcome is read from here. Never "no output, no error" for a rejection.
 */
static int settle_state;
static JSValue settle_value;
/* Which call's promise the callbacks belong to: a promise left pending by an earlier call may settle later. */
static int32_t settle_generation;

static JSValue on_settle(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data) {
  (void)this_val;
  int32_t generation = -1;
  JS_ToInt32(c, &generation, data[0]);
  if (generation != settle_generation || settle_state != HB_SETTLE_PENDING) return JS_UNDEFINED;
  settle_state = magic;
  settle_value = JS_DupValue(c, argc > 0 ? argv[0] : JS_UNDEFINED);
  return JS_UNDEFINED;
}

/*
 * If `ret` is a thenable, subscribes to it. Returns 1 when it is one (the
 * outcome is hb_settled's once jobs ran), 0 when it is a plain value,
 * -1 when reading or calling `then` threw (the exception is pending).
 */
int hb_await_thenable(JSContext *ctx, JSValueConst ret) {
  if (!JS_IsObject(ret)) return 0;
  JSValue then = JS_GetPropertyStr(ctx, ret, "then");
  if (JS_IsException(then)) return -1;
  if (!JS_IsFunction(ctx, then)) {
    JS_FreeValue(ctx, then);
    return 0;
  }
  settle_state = HB_SETTLE_PENDING;
  settle_value = JS_UNDEFINED;
  JSValue generation = JS_NewInt32(ctx, ++settle_generation);
  JSValue handlers[2] = {
    JS_NewCFunctionData(ctx, on_settle, 1, HB_SETTLE_FULFILLED, 1, &generation),
    JS_NewCFunctionData(ctx, on_settle, 1, HB_SETTLE_REJECTED, 1, &generation),
  };
  JSValue r = JS_Call(ctx, then, ret, 2, (JSValueConst *)handlers);
  JS_FreeValue(ctx, handlers[0]);
  JS_FreeValue(ctx, handlers[1]);
  JS_FreeValue(ctx, then);
  if (JS_IsException(r)) return -1;
  JS_FreeValue(ctx, r);
  return 1;
}

int hb_settled(JSValue *value) {
  *value = settle_value;
  settle_value = JS_UNDEFINED;
  return settle_state;
}
