/*
 * The hookbox JS engine: QuickJS inside an Extism plugin.
 *
 * Build time (Wizer): `wizer.initialize` creates the runtime, installs the
 * js-pdk globals, evaluates the hook's bundle read from stdin and records the
 * functions in `globalThis.__hookbox_exports`, printing their names on stdout.
 * The snapshot keeps all of it; the compiler then adds one wasm export per
 * function that calls `__hookbox_call(index)`.
 *
 * Call time: limits are applied per call (instruction budget, stack) and per
 * instance (heap limit, Math.random seed), and a JS exception becomes an
 * Extism error carrying its message and stack. Limit faults use the message
 * prefixes `hookbox-fault:timeout:` and `hookbox-fault:memory:`, which the
 * host maps to fault kinds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "extism.h"

#define TICK_SLICE 10000              /* QuickJS's JS_INTERRUPT_COUNTER_INIT */
#define DEFAULT_BUDGET 200000000ull   /* ticks: generous; the host's wall timeout usually fires first */
#define INIT_BUDGET 2000000000ull     /* ticks allowed to top-level code at build time */
#define DEFAULT_HEAP_LIMIT (48u << 20) /* bytes; linear memory is capped at link time (64 MiB) */
#define CALL_STACK_LIMIT (128u << 10) /* fires before V8's own stack check does */
#define INIT_STACK_LIMIT (512u << 10)

int hb_initializing;
static JSRuntime *rt;
static JSContext *ctx;
static JSValue exports_array;
static uint32_t export_count;

/* 0 in the snapshot: set up on each instance's first call. */
static int instance_ready;
static uint64_t budget = INIT_BUDGET;
static size_t heap_limit;
static int log_ticks;
/* Ticks spent by this instance's finished calls (performance.now() without the clock grant). */
static uint64_t instance_ticks;

/* Instruction accounting for the current call (or for pre-initialization). */
static uint64_t spent;
static int slice;
static int budget_exhausted;

/*
 * A call may spend `budget` ticks (QuickJS polls at every call and backward
 * jump); the poll after that many fails it. Slices are cut so that the
 * counter runs out exactly at tick budget + 1.
 */
static int next_slice(void) {
  uint64_t left = budget + 1 - spent;
  return left < TICK_SLICE ? (int)left : TICK_SLICE;
}

static int interrupt_handler(JSRuntime *r, void *opaque) {
  (void)r;
  (void)opaque;
  spent += (uint64_t)slice;
  if (spent > budget) {
    budget_exhausted = 1;
    return 1; /* QuickJS throws an uncatchable "interrupted" error */
  }
  slice = next_slice();
  hookbox_set_interrupt_counter(ctx, slice);
  return 0;
}

static void start_budget(void) {
  spent = 0;
  budget_exhausted = 0;
  slice = next_slice();
  hookbox_set_interrupt_counter(ctx, slice);
}

static uint64_t ticks_spent(void) {
  if (budget_exhausted) return spent;
  return spent + (uint64_t)(slice - hookbox_get_interrupt_counter(ctx));
}

uint64_t hb_instance_ticks(void) { return hb_initializing ? 0 : instance_ticks + ticks_spent(); }

/* A decimal config value, or `fallback` when unset or not a positive number. */
static uint64_t config_u64(const char *key, uint64_t fallback) {
  uint64_t k = hb_store((const uint8_t *)key, strlen(key));
  uint64_t offs = k ? extism_config_get(k) : 0;
  size_t len = 0;
  uint8_t *data = hb_load_and_free(offs, &len);
  if (!data) return fallback;
  uint64_t value = 0;
  int ok = len > 0 && len <= 19;
  for (size_t i = 0; ok && i < len; i++) {
    if (data[i] < '0' || data[i] > '9') ok = 0;
    else value = value * 10 + (uint64_t)(data[i] - '0');
  }
  free(data);
  return ok && value > 0 ? value : fallback;
}

static void setup_instance(void) {
  budget = config_u64("hookbox.instructionBudget", DEFAULT_BUDGET);
  heap_limit = (size_t)config_u64("hookbox.memoryLimitBytes", DEFAULT_HEAP_LIMIT);
  log_ticks = config_u64("hookbox.logTicks", 0) != 0;
  JS_SetMemoryLimit(rt, heap_limit);
  JS_SetMaxStackSize(rt, CALL_STACK_LIMIT);
  hb_reseed_random();
  hb_reset_clock();
  instance_ticks = 0;
  instance_ready = 1;
}

/* Appends `s` to a growing message buffer; silently truncates on allocation failure. */
typedef struct { char *data; size_t len, cap; } strbuf;
static void sb_put(strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->len + n + 1) * 2;
    char *next = realloc(b->data, cap);
    if (!next) return;
    b->data = next;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}
static void sb_js(strbuf *b, JSValueConst v) {
  size_t n;
  const char *s = JS_ToCStringLen(ctx, &n, v);
  if (s) {
    sb_put(b, s, n);
    JS_FreeCString(ctx, s);
  } else {
    JS_FreeValue(ctx, JS_GetException(ctx));
    sb_put(b, "<unprintable>", 13);
  }
}

/* "Name: message\n<stack>" for errors, String(value) for anything else thrown. */
static void describe(strbuf *b, JSValueConst exc) {
  if (JS_IsError(ctx, exc)) {
    JSValue name = JS_GetPropertyStr(ctx, exc, "name");
    JSValue message = JS_GetPropertyStr(ctx, exc, "message");
    JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
    sb_js(b, name);
    sb_put(b, ": ", 2);
    sb_js(b, message);
    if (JS_IsString(stack)) {
      sb_put(b, "\n", 1);
      sb_js(b, stack);
    }
    JS_FreeValue(ctx, name);
    JS_FreeValue(ctx, message);
    JS_FreeValue(ctx, stack);
  } else {
    sb_put(b, "Uncaught ", 9);
    sb_js(b, exc);
  }
}

static int is_out_of_memory(JSValueConst exc) {
  if (!JS_IsError(ctx, exc)) return 0;
  JSValue message = JS_GetPropertyStr(ctx, exc, "message");
  const char *s = JS_ToCString(ctx, message);
  int oom = s && strcmp(s, "out of memory") == 0;
  if (s) JS_FreeCString(ctx, s);
  else JS_FreeValue(ctx, JS_GetException(ctx));
  JS_FreeValue(ctx, message);
  return oom;
}

/* Reports the pending exception through error_set and clears it. */
static void report_exception(void) {
  JSValue exc = JS_GetException(ctx);
  char head[160];
  strbuf b = {0};
  if (budget_exhausted) {
    int n = snprintf(head, sizeof head,
                     "hookbox-fault:timeout: instruction budget exhausted (budget %" PRIu64 " ticks)", budget);
    sb_put(&b, head, (size_t)n);
  } else if (is_out_of_memory(exc)) {
    int n = snprintf(head, sizeof head, "hookbox-fault:memory: JS heap limit reached (limit %zu bytes)", heap_limit);
    sb_put(&b, head, (size_t)n);
  } else {
    describe(&b, exc);
  }
  JS_FreeValue(ctx, exc);
  if (b.data) hb_set_error(b.data, b.len);
  else hb_set_error("hookbox-fault:memory: out of memory while reporting an error", 61);
  free(b.data);
  JS_RunGC(rt); /* give memory back after a runaway allocation */
}

/* Runs promise jobs queued by the call; a rejected job is the call's error. */
static int drain_jobs(void) {
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
static int settle_call(void) {
  for (;;) {
    int r = drain_jobs();
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
enum { SETTLE_PENDING, SETTLE_FULFILLED, SETTLE_REJECTED };
static int settle_state;
static JSValue settle_value;
/* Which call's promise the callbacks belong to: a promise left pending by an earlier call may settle later. */
static int32_t settle_generation;

static JSValue on_settle(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv, int magic, JSValue *data) {
  (void)this_val;
  int32_t generation = -1;
  JS_ToInt32(c, &generation, data[0]);
  if (generation != settle_generation || settle_state != SETTLE_PENDING) return JS_UNDEFINED;
  settle_state = magic;
  settle_value = JS_DupValue(c, argc > 0 ? argv[0] : JS_UNDEFINED);
  return JS_UNDEFINED;
}

/*
 * If `ret` is a thenable, subscribes to it. Returns 1 when it is one (the
 * outcome arrives in settle_state once jobs run), 0 when it is a plain value,
 * -1 when reading or calling `then` threw (the exception is pending).
 */
static int await_thenable(JSValueConst ret) {
  if (!JS_IsObject(ret)) return 0;
  JSValue then = JS_GetPropertyStr(ctx, ret, "then");
  if (JS_IsException(then)) return -1;
  if (!JS_IsFunction(ctx, then)) {
    JS_FreeValue(ctx, then);
    return 0;
  }
  settle_state = SETTLE_PENDING;
  settle_value = JS_UNDEFINED;
  JSValue generation = JS_NewInt32(ctx, ++settle_generation);
  JSValue handlers[2] = {
    JS_NewCFunctionData(ctx, on_settle, 1, SETTLE_FULFILLED, 1, &generation),
    JS_NewCFunctionData(ctx, on_settle, 1, SETTLE_REJECTED, 1, &generation),
  };
  JSValue r = JS_Call(ctx, then, ret, 2, (JSValueConst *)handlers);
  JS_FreeValue(ctx, handlers[0]);
  JS_FreeValue(ctx, handlers[1]);
  JS_FreeValue(ctx, then);
  if (JS_IsException(r)) return -1;
  JS_FreeValue(ctx, r);
  return 1;
}

static int32_t call_export(int32_t index) {
  if (!instance_ready) setup_instance();
  if (index < 0 || (uint32_t)index >= export_count) {
    hb_set_error("hookbox: no such export", 23);
    return 1;
  }
  JS_UpdateStackTop(rt);
  start_budget();
  JSValue fn = JS_GetPropertyUint32(ctx, exports_array, (uint32_t)index);
  JSValue ret = JS_Call(ctx, fn, JS_UNDEFINED, 0, NULL);
  JS_FreeValue(ctx, fn);
  int failed = JS_IsException(ret);
  int awaited = failed ? 0 : await_thenable(ret);
  if (awaited < 0) failed = 1;
  if (!failed && settle_call() < 0) failed = 1;
  if (!failed && awaited == 1) {
    JS_FreeValue(ctx, ret);
    ret = JS_UNDEFINED;
    if (settle_state == SETTLE_REJECTED) {
      JS_Throw(ctx, settle_value); /* report_exception describes it like a synchronous throw */
      failed = 1;
    } else if (settle_state == SETTLE_PENDING) {
      static const char pending[] =
          "hookbox: the export returned a promise that was still pending when no job was left to run "
          "(it awaits something that never settles; only promise jobs and timers run inside a call)";
      instance_ticks += ticks_spent();
      if (log_ticks) {
        char line[64];
        int n = snprintf(line, sizeof line, "hookbox-ticks: %" PRIu64, ticks_spent());
        hb_log(HB_LOG_DEBUG, line, (size_t)n);
      }
      hb_set_error(pending, sizeof pending - 1);
      return 1;
    } else {
      ret = settle_value; /* the fulfilled value: a number is the export's return code */
    }
    settle_value = JS_UNDEFINED;
  }
  instance_ticks += ticks_spent();
  if (failed) hb_clear_timers(ctx); /* a synchronous throw skipped settle_call: its timers go with the call */
  if (log_ticks) {
    /* Lets authors and tests see what a call costs against the budget (deterministic). */
    char line[64];
    int n = snprintf(line, sizeof line, "hookbox-ticks: %" PRIu64, ticks_spent());
    hb_log(HB_LOG_DEBUG, line, (size_t)n);
  }
  if (failed) {
    JS_FreeValue(ctx, ret);
    report_exception();
    return 1;
  }
  int32_t rc = 0;
  if (JS_IsNumber(ret) && JS_ToInt32(ctx, &rc, ret)) rc = 1;
  JS_FreeValue(ctx, ret);
  return rc;
}

__attribute__((export_name("__hookbox_call"))) int32_t hookbox_call(int32_t index) {
  int32_t rc = call_export(index);
  hb_input_call_done();
  return rc;
}

/* Reads all of stdin (the hook's bundle) into a NUL-terminated buffer. */
static char *read_stdin(size_t *len_out) {
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) return NULL;
    if (len + 1 >= cap) buf = realloc(buf, cap *= 2);
    if (!buf) return NULL;
    ssize_t n = read(0, buf + len, cap - len - 1);
    if (n < 0) return NULL;
    if (n == 0) break;
    len += (size_t)n;
  }
  buf[len] = 0;
  *len_out = len;
  return buf;
}

static void init_fail(const char *what) {
  JSValue exc = JS_GetException(ctx);
  strbuf b = {0};
  if (budget_exhausted) {
    char head[120];
    int n = snprintf(head, sizeof head, "instruction budget of %" PRIu64 " ticks exhausted (an endless loop?)", budget);
    sb_put(&b, head, (size_t)n);
  } else {
    describe(&b, exc);
  }
  fprintf(stderr, "hookbox-init-error: %s: %s\n", what, b.data ? b.data : "unknown error");
  exit(1);
}

static JSValue eval(const char *src, size_t len, const char *file) {
  start_budget();
  return JS_Eval(ctx, src, len, file, JS_EVAL_TYPE_GLOBAL);
}

__attribute__((export_name("wizer.initialize"))) void wizer_initialize(void) {
  hb_initializing = 1;
  rt = JS_NewRuntime();
  JS_SetMaxStackSize(rt, INIT_STACK_LIMIT);
  ctx = JS_NewContext(rt);
  hookbox_fix_random_state(ctx); /* reproducible snapshots */
  JS_SetInterruptHandler(rt, interrupt_handler, NULL);
  hb_install_natives(ctx);
  hb_install_msgpack(ctx);
  hb_install_random(ctx);

  JSValue r = eval(HB_PRELUDE, HB_PRELUDE_LEN, "hookbox-prelude.js");
  if (JS_IsException(r)) init_fail("prelude");
  JS_FreeValue(ctx, r);

  size_t len = 0;
  char *src = read_stdin(&len);
  if (!src) {
    fprintf(stderr, "hookbox-init-error: cannot read the bundle from stdin\n");
    exit(1);
  }
  r = eval(src, len, "hook.js");
  free(src);
  if (JS_IsException(r) || settle_call() < 0) init_fail("top-level code");
  JS_FreeValue(ctx, r);

  JSValue global = JS_GetGlobalObject(ctx);
  JSValue table = JS_GetPropertyStr(ctx, global, "__hookbox_exports");
  JSPropertyEnum *props = NULL;
  uint32_t count = 0;
  if (!JS_IsObject(table) ||
      JS_GetOwnPropertyNames(ctx, &props, &count, table, JS_GPN_STRING_MASK | JS_GPN_ENUM_ONLY) < 0) {
    fprintf(stderr, "hookbox-init-error: the bundle did not set globalThis.__hookbox_exports\n");
    exit(1);
  }
  exports_array = JS_NewArray(ctx);
  printf("HOOKBOX_EXPORTS:");
  for (uint32_t i = 0; i < count; i++) {
    JSValue fn = JS_GetProperty(ctx, table, props[i].atom);
    const char *name = JS_AtomToCString(ctx, props[i].atom);
    if (!JS_IsFunction(ctx, fn)) {
      fprintf(stderr, "hookbox-init-error: export \"%s\" is not a function\n", name);
      exit(1);
    }
    JS_SetPropertyUint32(ctx, exports_array, i, fn);
    printf("%s%s", i ? "," : "", name);
    JS_FreeCString(ctx, name);
    JS_FreeAtom(ctx, props[i].atom);
  }
  printf("\n");
  fflush(stdout);
  js_free(ctx, props);
  export_count = count;
  JSAtom table_atom = JS_NewAtom(ctx, "__hookbox_exports");
  JS_DeleteProperty(ctx, global, table_atom, 0);
  JS_FreeAtom(ctx, table_atom);
  JS_FreeValue(ctx, table);
  JS_FreeValue(ctx, global);
  JS_RunGC(rt);
  instance_ready = 0;
  hb_initializing = 0;
}
