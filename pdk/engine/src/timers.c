/*
 * The hand-off between prelude-timers.js and the call loop in engine.c. The
 * prelude keeps the pending timers in one array and registers it with a
 * function that runs the next one (`setTimers(queue, runNext)`); a call runs
 * them, promise jobs first, until none is left, so no timer outlives its call.
 */
#include "engine.h"

static int timers_ready;
static JSValue timer_queue;
static JSValue timer_run;
static JSAtom length_atom;

static JSValue hb_set_timers(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  if (timers_ready) return JS_ThrowTypeError(ctx, "timers are registered once");
  if (!JS_IsArray(ctx, argv[0]) || !JS_IsFunction(ctx, argv[1])) return JS_ThrowTypeError(ctx, "setTimers(queue, runNext)");
  timer_queue = JS_DupValue(ctx, argv[0]);
  timer_run = JS_DupValue(ctx, argv[1]);
  length_atom = JS_NewAtom(ctx, "length");
  timers_ready = 1;
  return JS_UNDEFINED;
}

static uint32_t pending(JSContext *ctx) {
  if (!timers_ready) return 0;
  JSValue n = JS_GetProperty(ctx, timer_queue, length_atom);
  uint32_t count = 0;
  JS_ToUint32(ctx, &count, n);
  JS_FreeValue(ctx, n);
  return count;
}

int hb_run_timer(JSContext *ctx) {
  if (pending(ctx) == 0) return 0;
  JSValue r = JS_Call(ctx, timer_run, JS_UNDEFINED, 0, NULL);
  if (JS_IsException(r)) return -1;
  JS_FreeValue(ctx, r);
  return 1;
}

void hb_clear_timers(JSContext *ctx) {
  if (pending(ctx) == 0) return;
  /* No JS runs here: this follows a fault, when the instruction budget may be spent. */
  JS_SetProperty(ctx, timer_queue, length_atom, JS_NewInt32(ctx, 0));
}

static JSValue run_microtask(JSContext *ctx, int argc, JSValueConst *argv) {
  return JS_Call(ctx, argv[0], JS_UNDEFINED, 0, NULL);
}

/* queueMicrotask(callback): a job beside the promise jobs; one that throws fails the call (never lost). */
static JSValue hb_queue_microtask(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  if (!JS_IsFunction(ctx, argv[0])) return JS_ThrowTypeError(ctx, "queueMicrotask: the callback must be a function");
  if (JS_EnqueueJob(ctx, run_microtask, 1, argv) < 0) return JS_EXCEPTION;
  return JS_UNDEFINED;
}

static const JSCFunctionListEntry TIMER_FUNCS[] = {
  JS_CFUNC_DEF("setTimers", 2, hb_set_timers),
  JS_CFUNC_DEF("queueMicrotask", 1, hb_queue_microtask),
};

void hb_install_timers(JSContext *ctx, JSValueConst hb) {
  JS_SetPropertyFunctionList(ctx, hb, TIMER_FUNCS, sizeof(TIMER_FUNCS) / sizeof(TIMER_FUNCS[0]));
}
