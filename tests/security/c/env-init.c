/*
 * env-init — a wasi-libc reactor that reads its environment during
 * `_initialize` (a C constructor calls getenv, so wasi-libc calls
 * environ_sizes_get/environ_get before any export runs), as real wasi-libc
 * hooks do. pre_tool answers {"action":"deny","reason":"init saw: <value>"}
 * with the value of HOOKBOX_INIT_ENV seen at initialisation, "(unset)" when
 * there was none. Issue #11 finding 7: with an env grant the host's environ
 * functions could not reach the memory yet, wasi-libc called _Exit, and the
 * hook failed to load ("cannot instantiate: Symbol(kExitCode)").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXTISM(name) __attribute__((import_module("extism:host/env"), import_name(name)))
EXTISM("alloc") uint64_t extism_alloc(uint64_t size);
EXTISM("store_u8") void extism_store_u8(uint64_t offset, uint8_t value);
EXTISM("output_set") void extism_output_set(uint64_t offset, uint64_t length);

static const char *seen_at_init;

__attribute__((constructor)) static void read_environ_at_init(void) {
  const char *value = getenv("HOOKBOX_INIT_ENV");
  seen_at_init = value != NULL ? strdup(value) : "(unset)";
}

__attribute__((export_name("pre_tool"))) int pre_tool(void) {
  static const char head[] = "\x82\xa6" "action" "\xa4" "deny" "\xa6" "reason" "\xd9";
  char out[300];
  size_t n = sizeof head - 1;
  memcpy(out, head, n);
  char reason[256] = "init saw: ";
  strncat(reason, seen_at_init, sizeof reason - strlen(reason) - 1);
  size_t length = strlen(reason);
  out[n++] = (char)length;
  memcpy(out + n, reason, length);
  n += length;
  uint64_t block = extism_alloc(n);
  for (size_t i = 0; i < n; i++) extism_store_u8(block + i, (uint8_t)out[i]);
  extism_output_set(block, n);
  return 0;
}
