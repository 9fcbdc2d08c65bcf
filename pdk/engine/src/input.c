/*
 * Bulk input delivery. The Extism kernel ABI moves the call input 8 bytes per
 * host call (`input_load_u64`), which costs ~15 ms per MiB in the JS SDK.
 * A host that knows this engine calls `hookbox_input_reserve(len)` before the
 * export, receives a buffer in linear memory and copies the whole input into
 * it in one go; `hb_read_input` then takes that buffer instead of looping.
 * A plain Extism host never calls the export, so the engine stays a plain
 * Extism plugin and reads the input through the kernel as before.
 */
#include <stdint.h>
#include <stdlib.h>

#include "extism.h"

static uint8_t *reserved;
static size_t reserved_len;

__attribute__((export_name("hookbox_input_reserve"))) uint32_t hookbox_input_reserve(uint32_t len) {
  free(reserved);
  reserved = malloc(len ? len : 1);
  reserved_len = reserved ? len : 0;
  return (uint32_t)(uintptr_t)reserved;
}

uint8_t *hb_take_reserved_input(size_t len) {
  uint8_t *buf = reserved;
  size_t have = reserved_len;
  reserved = NULL;
  reserved_len = 0;
  /* Taken once per reservation; a length that does not match this call's input was not meant for it. */
  if (buf != NULL && have == len) return buf;
  free(buf);
  return NULL;
}
