/*
 * Bulk input delivery. The Extism kernel ABI moves the call input 8 bytes per
 * host call (`input_load_u64`), which costs ~15 ms per MiB in the JS SDK.
 * A host that knows this engine calls `hookbox_input_reserve(len)` before the
 * export, receives a buffer in linear memory and copies the whole input into
 * it in one go. That buffer is then the call's input: `hb_read_input` hands
 * it out (as often as the hook asks) and the kernel's input is not read, so
 * the host may leave that one blank. The reservation ends with the call.
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

const uint8_t *hb_reserved_input(size_t *len_out) {
  if (reserved == NULL) return NULL;
  *len_out = reserved_len;
  return reserved;
}

void hb_release_input(uint8_t *buf) {
  if (buf != reserved) free(buf);
}

void hb_input_call_done(void) {
  free(reserved);
  reserved = NULL;
  reserved_len = 0;
}
