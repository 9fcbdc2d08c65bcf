/**
 * The adaptations QuickJS 2021-03-27 needs to run as a hookbox engine, as
 * text patches applied in memory at build time (no third-party file is
 * committed or modified on disk). Each patch must match exactly once, so a
 * different QuickJS release fails loudly instead of building something else.
 */
import { BuildError } from '../../host/errors.ts';

export interface Patch {
  why: string;
  find: string;
  replace: string;
}

/** quickjs.c's patches (exported for the tests). */
export const QUICKJS_PATCHES: readonly Patch[] = [
  {
    why: 'wasi-libc declares malloc_usable_size in <malloc.h>, as glibc does',
    find: '#elif defined(__linux__)\n#include <malloc.h>',
    replace: '#elif defined(__linux__) || defined(__wasi__)\n#include <malloc.h>',
  },
  {
    why: 'no fesetround in wasm: number formatting must not depend on it (exact-tie toFixed rounding differs)',
    find: '#if !defined(_WIN32)\n/* define it if printf uses the RNDN rounding mode instead of RNDNA */',
    replace: '#if !defined(_WIN32) && !defined(__wasi__)\n/* define it if printf uses the RNDN rounding mode instead of RNDNA */',
  },
  {
    why: 'no threads in a plugin: Atomics.wait and friends need pthreads',
    find: '#if !defined(EMSCRIPTEN)\n#define CONFIG_ATOMICS',
    replace: '#if !defined(EMSCRIPTEN) && !defined(__wasi__)\n#define CONFIG_ATOMICS',
  },
  // String#indexOf and #includes compared the whole needle at every position, a
  // string_get per character: ~10% of guard-bash's engine time (a CPU profile of the
  // engine with names). QuickJS's own string_indexof (used by split and replace)
  // scans for the first character first; same results, including empty needles
  // and positions past the end.
  {
    why: 'String#indexOf (forward) through string_indexof',
    find: '    ret = -1;\n    if (len >= v_len && inc * (stop - start) >= 0) {',
    replace: '    ret = -1;\n    if (inc == 1) {\n        ret = string_indexof(p, p1, start);\n    } else if (len >= v_len && inc * (stop - start) >= 0) {',
  },
  {
    why: 'String#includes through string_indexof',
    find: '    if (start >= 0 && start <= stop) {\n        for (i = start;; i++) {',
    replace: '    if (magic == 0) {\n        ret = string_indexof(p, p1, start) >= 0;\n    } else if (start >= 0 && start <= stop) {\n        for (i = start;; i++) {',
  },
  // RegExp#test built the whole exec result (an array with index, input and groups,
  // a substring per capture) only to compare it with null: ~2/3 of a short test's
  // cost. With the intrinsic exec (not overridden) it now runs the match and
  // updates lastIndex exactly as exec does, and builds nothing.
  {
    why: 'RegExp#test without the exec result array',
    find: `static JSValue js_regexp_test(JSContext *ctx, JSValueConst this_val,
                              int argc, JSValueConst *argv)
{
    JSValue val;
    BOOL ret;

    val = JS_RegExpExec(ctx, this_val, argv[0]);`,
    replace: `/* hookbox: RegExp#test with the intrinsic exec: js_regexp_exec's steps without building the result array */
static int js_regexp_test_lean(JSContext *ctx, JSValueConst this_val, JSValueConst arg)
{
    JSRegExp *re = js_get_regexp(ctx, this_val, TRUE);
    JSString *str;
    JSValue str_val, val;
    uint8_t *re_bytecode, **capture;
    int ret, capture_count, shift, re_flags;
    int64_t last_index;

    if (!re)
        return -1;
    str_val = JS_ToString(ctx, arg);
    if (JS_IsException(str_val))
        return -1;
    val = JS_GetProperty(ctx, this_val, JS_ATOM_lastIndex);
    if (JS_IsException(val) || JS_ToLengthFree(ctx, &last_index, val)) {
        JS_FreeValue(ctx, str_val);
        return -1;
    }
    re_bytecode = re->bytecode->u.str8;
    re_flags = lre_get_flags(re_bytecode);
    if ((re_flags & (LRE_FLAG_GLOBAL | LRE_FLAG_STICKY)) == 0)
        last_index = 0;
    str = JS_VALUE_GET_STRING(str_val);
    capture_count = lre_get_capture_count(re_bytecode);
    capture = NULL;
    if (capture_count > 0) {
        capture = js_malloc(ctx, sizeof(capture[0]) * capture_count * 2);
        if (!capture) {
            JS_FreeValue(ctx, str_val);
            return -1;
        }
    }
    shift = str->is_wide_char;
    if (last_index > str->len)
        ret = 2;
    else
        ret = lre_exec(capture, re_bytecode, str->u.str8, last_index, str->len, shift, ctx);
    if (ret == 1) {
        if ((re_flags & (LRE_FLAG_GLOBAL | LRE_FLAG_STICKY)) &&
            JS_SetProperty(ctx, this_val, JS_ATOM_lastIndex,
                           JS_NewInt32(ctx, (capture[1] - str->u.str8) >> shift)) < 0)
            ret = -1;
    } else if (ret >= 0) {
        if ((ret == 2 || (re_flags & (LRE_FLAG_GLOBAL | LRE_FLAG_STICKY))) &&
            JS_SetProperty(ctx, this_val, JS_ATOM_lastIndex, JS_NewInt32(ctx, 0)) < 0)
            ret = -1;
        else
            ret = 0;
    } else {
        JS_ThrowInternalError(ctx, "out of memory in regexp execution");
    }
    js_free(ctx, capture);
    JS_FreeValue(ctx, str_val);
    return ret;
}

static JSValue js_regexp_test(JSContext *ctx, JSValueConst this_val,
                              int argc, JSValueConst *argv)
{
    JSValue val;
    BOOL ret;

    val = JS_GetProperty(ctx, this_val, JS_ATOM_exec);
    if (JS_IsException(val))
        return JS_EXCEPTION;
    if (!JS_IsFunction(ctx, val) || JS_IsCFunction(ctx, val, js_regexp_exec, 0)) {
        JS_FreeValue(ctx, val);
        int r = js_regexp_test_lean(ctx, this_val, argv[0]);
        return r < 0 ? JS_EXCEPTION : JS_NewBool(ctx, r);
    }
    JS_FreeValue(ctx, val);
    val = JS_RegExpExec(ctx, this_val, argv[0]);`,
  },
  // slice, map, filter, concat and splice create their result through the species
  // constructor. When that is this realm's own Array (the usual case), `new Array(n)`
  // is called directly: the same object (Array.prototype is not writable on Array),
  // without a constructor call and a lookup of its `prototype`.
  {
    why: 'ArraySpeciesCreate calls the intrinsic Array constructor directly',
    find: `    if (JS_IsUndefined(ctor)) {
        return js_array_constructor(ctx, JS_UNDEFINED, 1, &len_val);
    } else {
        ret = JS_CallConstructor(ctx, ctor, 1, &len_val);`,
    replace: `    if (JS_IsUndefined(ctor) ||
        (JS_IsObject(ctor) && JS_VALUE_GET_OBJ(ctor) == JS_VALUE_GET_OBJ(ctx->array_ctor))) {
        JS_FreeValue(ctx, ctor);
        return js_array_constructor(ctx, JS_UNDEFINED, 1, &len_val);
    } else {
        ret = JS_CallConstructor(ctx, ctor, 1, &len_val);`,
  },
  // With computed gotos (DIRECT_DISPATCH), clang for wasm turns every `goto *` into a
  // jump through one shared table block: a switch with extra steps. The plain
  // switch loop QuickJS uses for Emscripten and MSVC runs guard-bash ~9% faster
  // here (bench/engine-variants.ts, same sources otherwise).
  {
    why: 'the interpreter dispatches with a switch, as for Emscripten',
    find: '#if defined(EMSCRIPTEN) || defined(_MSC_VER)\n#define DIRECT_DISPATCH  0',
    replace: '#if defined(EMSCRIPTEN) || defined(_MSC_VER) || defined(__wasi__)\n#define DIRECT_DISPATCH  0',
  },
];

/**
 * Accessors for private JSContext fields. The interrupt counter: the engine
 * sets it per call so that the instruction budget is exact and the same on
 * every run (QuickJS only ever resets it when the handler fires). The random
 * state: QuickJS seeds it from the clock when the context is created, which
 * would make two snapshots of the same hook differ (Math.random is replaced
 * by a per-instance generator anyway). The binary kind: the msgpack encoder
 * asks whether an object is an ArrayBuffer (1) or a typed array (2) without
 * the TypeError (a message and a backtrace) that JS_GetArrayBuffer throws for
 * any other object.
 */
const APPENDIX = `
/* hookbox: appended by pdk/engine/quickjs-patches.ts */
void hookbox_set_interrupt_counter(JSContext *ctx, int value) { ctx->interrupt_counter = value; }
int hookbox_get_interrupt_counter(JSContext *ctx) { return ctx->interrupt_counter; }
void hookbox_fix_random_state(JSContext *ctx) { ctx->random_state = 1; }
int hookbox_binary_kind(JSValueConst v) {
    if (JS_VALUE_GET_TAG(v) != JS_TAG_OBJECT) return 0;
    JSObject *p = JS_VALUE_GET_OBJ(v);
    if (p->class_id == JS_CLASS_ARRAY_BUFFER || p->class_id == JS_CLASS_SHARED_ARRAY_BUFFER) return 1;
    return p->class_id >= JS_CLASS_UINT8C_ARRAY && p->class_id <= JS_CLASS_FLOAT64_ARRAY ? 2 : 0;
}
`;

/**
 * libregexp tries a non-sticky pattern at every position from lastIndex on (its
 * compiled prologue is a lazy `.*?`). A pattern whose every match starts with `^`
 * (not multiline) can only match at position 0, so trying once is the same
 * answer: `/^-[a-z]*r/.test(word)` no longer costs a failed attempt per
 * character. The prologue's split becomes a goto over the scan loop (same size,
 * same target), when the disjunction's first opcode after `save_start` is
 * `line_start` (an alternation or a quantified `^` starts with a split instead).
 */
/** libregexp.c's patches (exported for the tests). */
export const LIBREGEXP_PATCHES: readonly Patch[] = [
  {
    why: 'a pattern anchored with ^ (not multiline) is tried at its start position only',
    find: '    re_emit_op_u8(s, REOP_save_end, 0);\n',
    replace:
      '    if (!is_sticky && !(re_flags & LRE_FLAG_MULTILINE) &&\n' +
      '        s->byte_code.size > RE_HEADER_LEN + 13 &&\n' +
      '        s->byte_code.buf[RE_HEADER_LEN + 13] == REOP_line_start) {\n' +
      '        s->byte_code.buf[RE_HEADER_LEN] = REOP_goto; /* hookbox: no scan for a ^-anchored pattern */\n' +
      '    }\n' +
      '    re_emit_op_u8(s, REOP_save_end, 0);\n',
  },
];

/**
 * The file's bytes with every patch applied, and `appendix` after them. Each
 * patch's text must occur exactly once in the upstream file, and no two may
 * overlap. Sources and patches are UTF-8, where a byte match is a character
 * match. The result is put together in one allocation: the engine's cache key
 * hashes the patched quickjs.c at every build, and as ten string edits (a
 * decode, a fresh 1.7 MB string per patch, an encode) that took ~75 ms on
 * this machine, most of it faulting in new pages.
 */
export function applyPatches(source: Uint8Array, patches: readonly Patch[], file: string, appendix = ''): Buffer {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const edits = patches
    .map((patch) => {
      const at = bytes.indexOf(patch.find);
      if (at < 0 || bytes.indexOf(patch.find, at + 1) >= 0) {
        throw new BuildError(`engine build: ${file} patch does not apply exactly once (${patch.why})`);
      }
      return { at, end: at + Buffer.byteLength(patch.find), patch };
    })
    .sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  let done = 0;
  for (const { at, end, patch } of edits) {
    if (at < done) throw new BuildError(`engine build: ${file} patch overlaps another (${patch.why})`);
    parts.push(bytes.subarray(done, at), Buffer.from(patch.replace));
    done = end;
  }
  parts.push(bytes.subarray(done), Buffer.from(appendix));
  return Buffer.concat(parts);
}

/** Applies the patches to libregexp.c's bytes. */
export function patchLibregexp(source: Uint8Array): Uint8Array {
  return applyPatches(source, LIBREGEXP_PATCHES, 'libregexp.c');
}

/** Applies the patches to quickjs.c's bytes and appends hookbox's additions. */
export function patchQuickjs(source: Uint8Array): Uint8Array {
  const patched = applyPatches(source, QUICKJS_PATCHES, 'QuickJS', APPENDIX);
  const upstream = patched.subarray(0, patched.length - Buffer.byteLength(APPENDIX));
  for (const field of ['int interrupt_counter;', 'uint64_t random_state;']) {
    if (upstream.indexOf(field) < 0) throw new BuildError(`engine build: JSContext field not found: ${field}`);
  }
  return patched;
}
