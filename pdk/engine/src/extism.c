/* Byte moves across the Extism kernel ABI: 8 bytes per call where possible. */
#include <stdlib.h>
#include <string.h>

#include "extism.h"

uint8_t *hb_read_input(size_t *len_out) {
  const uint8_t *delivered = hb_reserved_input(len_out);
  if (delivered) return (uint8_t *)delivered;
  size_t len = (size_t)extism_input_length();
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) return NULL;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t word = extism_input_load_u64(i);
    memcpy(buf + i, &word, 8);
  }
  for (; i < len; i++) buf[i] = extism_input_load_u8(i);
  *len_out = len;
  return buf;
}

void hb_write_block(uint64_t offs, const uint8_t *data, size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t word;
    memcpy(&word, data + i, 8);
    extism_store_u64(offs + i, word);
  }
  for (; i < len; i++) extism_store_u8(offs + i, data[i]);
}

uint64_t hb_store(const uint8_t *data, size_t len) {
  if (len == 0) return 0;
  uint64_t offs = extism_alloc(len);
  if (offs == 0) return 0;
  hb_write_block(offs, data, len);
  return offs;
}

uint8_t *hb_load_and_free(uint64_t offs, size_t *len_out) {
  if (offs == 0) return NULL;
  size_t len = (size_t)extism_length(offs);
  uint8_t *buf = malloc(len ? len : 1);
  if (buf) {
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
      uint64_t word = extism_load_u64(offs + i);
      memcpy(buf + i, &word, 8);
    }
    for (; i < len; i++) buf[i] = extism_load_u8(offs + i);
    *len_out = len;
  }
  extism_free(offs);
  return buf;
}

void hb_set_error(const char *message, size_t len) {
  /* An empty block would read as "no error": always send at least one byte. */
  if (len == 0) {
    message = "error";
    len = 5;
  }
  uint64_t offs = hb_store((const uint8_t *)message, len);
  if (offs) extism_error_set(offs);
}

void hb_log(enum hb_log_level level, const char *message, size_t len) {
  uint64_t offs = hb_store((const uint8_t *)message, len);
  if (!offs) return;
  switch (level) {
    case HB_LOG_INFO: extism_log_info(offs); break;
    case HB_LOG_WARN: extism_log_warn(offs); break;
    case HB_LOG_ERROR: extism_log_error(offs); break;
    case HB_LOG_DEBUG: extism_log_debug(offs); break;
  }
  extism_free(offs);
}
