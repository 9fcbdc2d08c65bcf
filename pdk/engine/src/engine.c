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

/* Reports the pending exception through error_set and clears it. */
static void report_exception(void) {
  JSValue exc = JS_GetException(ctx);
  char head[160];
  hb_strbuf b = {0};
  if (budget_exhausted) {
    int n = snprintf(head, sizeof head,
                     "hookbox-fault:timeout: instruction budget exhausted (budget %" PRIu64 " ticks)", budget);
    hb_sb_put(&b, head, (size_t)n);
  } else if (hb_is_out_of_memory(ctx, exc)) {
    int n = snprintf(head, sizeof head, "hookbox-fault:memory: JS heap limit reached (limit %zu bytes)", heap_limit);
    hb_sb_put(&b, head, (size_t)n);
  } else {
    hb_describe_exception(ctx, &b, exc);
  }
  JS_FreeValue(ctx, exc);
  if (b.data) hb_set_error(b.data, b.len);
  else hb_set_error("hookbox-fault:memory: out of memory while reporting an error", 61);
  free(b.data);
  JS_RunGC(rt); /* give memory back after a runaway allocation */
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
  int awaited = failed ? 0 : hb_await_thenable(ctx, ret);
  if (awaited < 0) failed = 1;
  if (!failed && hb_settle_call(ctx) < 0) failed = 1;
  if (!failed && awaited == 1) {
    JS_FreeValue(ctx, ret);
    JSValue settled;
    int state = hb_settled(&settled);
    ret = JS_UNDEFINED;
    if (state == HB_SETTLE_REJECTED) {
      JS_Throw(ctx, settled); /* report_exception describes it like a synchronous throw */
      failed = 1;
    } else if (state == HB_SETTLE_PENDING) {
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
      ret = settled; /* the fulfilled value: a number is the export's return code */
    }
  }
  instance_ticks += ticks_spent();
  if (failed) hb_clear_timers(ctx); /* a synchronous throw skipped hb_settle_call: its timers go with the call */
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
  hb_strbuf b = {0};
  if (budget_exhausted) {
    char head[120];
    int n = snprintf(head, sizeof head, "instruction budget of %" PRIu64 " ticks exhausted (an endless loop?)", budget);
    hb_sb_put(&b, head, (size_t)n);
  } else {
    hb_describe_exception(ctx, &b, exc);
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
  if (JS_IsException(r) || hb_settle_call(ctx) < 0) init_fail("top-level code");
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
