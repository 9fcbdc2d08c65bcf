/* Shared declarations of the hookbox JS engine glue. */
#ifndef HOOKBOX_ENGINE_H
#define HOOKBOX_ENGINE_H

#include "quickjs.h"

/* Non-zero while Wizer pre-initializes: the Extism host is a trapping stub then. */
extern int hb_initializing;

/* Installs `globalThis.__hb` (natives.c); prelude.js turns it into the js-pdk globals. */
void hb_install_natives(JSContext *ctx);

/* Installs `globalThis.__hookbox.readInput/writeOutput` (msgpack.c). */
void hb_install_msgpack(JSContext *ctx);

/* Installs a per-instance-seeded Math.random (random.c). */
void hb_install_random(JSContext *ctx);
void hb_reseed_random(void);

/* Appended to quickjs.c by pdk/engine/build.ts: the interrupt counter is private to it. */
void hookbox_set_interrupt_counter(JSContext *ctx, int value);
int hookbox_get_interrupt_counter(JSContext *ctx);
void hookbox_fix_random_state(JSContext *ctx);

/* The JS prelude, generated from prelude.js by the build (prelude.h). */
extern const char HB_PRELUDE[];
extern const unsigned HB_PRELUDE_LEN;

#endif
