/**
 * The adaptations QuickJS 2021-03-27 needs to run as a hookbox engine, as
 * text patches applied in memory at build time (no third-party file is
 * committed or modified on disk). Each patch must match exactly once, so a
 * different QuickJS release fails loudly instead of building something else.
 */
import { BuildError } from '../../host/errors.ts';

interface Patch {
  why: string;
  find: string;
  replace: string;
}

const PATCHES: Patch[] = [
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
];

/**
 * Accessors for private JSContext fields. The interrupt counter: the engine
 * sets it per call so that the instruction budget is exact and the same on
 * every run (QuickJS only ever resets it when the handler fires). The random
 * state: QuickJS seeds it from the clock when the context is created, which
 * would make two snapshots of the same hook differ (Math.random is replaced
 * by a per-instance generator anyway).
 */
const APPENDIX = `
/* hookbox: appended by pdk/engine/quickjs-patches.ts */
void hookbox_set_interrupt_counter(JSContext *ctx, int value) { ctx->interrupt_counter = value; }
int hookbox_get_interrupt_counter(JSContext *ctx) { return ctx->interrupt_counter; }
void hookbox_fix_random_state(JSContext *ctx) { ctx->random_state = 1; }
`;

/** Applies the patches to quickjs.c's bytes. */
export function patchQuickjs(source: Uint8Array): Uint8Array {
  let text = new TextDecoder().decode(source);
  for (const patch of PATCHES) {
    const at = text.indexOf(patch.find);
    if (at < 0 || text.indexOf(patch.find, at + 1) >= 0) {
      throw new BuildError(`engine build: QuickJS patch does not apply exactly once (${patch.why})`);
    }
    text = text.slice(0, at) + patch.replace + text.slice(at + patch.find.length);
  }
  for (const field of ['int interrupt_counter;', 'uint64_t random_state;']) {
    if (!text.includes(field)) throw new BuildError(`engine build: JSContext field not found: ${field}`);
  }
  return new TextEncoder().encode(text + APPENDIX);
}
