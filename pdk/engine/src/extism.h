/*
 * The Extism kernel ABI (module "extism:host/env") as the Extism SDKs provide
 * it, plus small helpers to move bytes across it. Offsets are Extism block
 * addresses (host memory), not pointers into this module's memory.
 */
#ifndef HOOKBOX_EXTISM_H
#define HOOKBOX_EXTISM_H

#include <stddef.h>
#include <stdint.h>

#define EXTISM_IMPORT(name) __attribute__((import_module("extism:host/env"), import_name(name)))

EXTISM_IMPORT("input_length") uint64_t extism_input_length(void);
EXTISM_IMPORT("input_load_u8") uint8_t extism_input_load_u8(uint64_t offs);
EXTISM_IMPORT("input_load_u64") uint64_t extism_input_load_u64(uint64_t offs);
EXTISM_IMPORT("alloc") uint64_t extism_alloc(uint64_t len);
EXTISM_IMPORT("free") void extism_free(uint64_t offs);
EXTISM_IMPORT("length") uint64_t extism_length(uint64_t offs);
EXTISM_IMPORT("load_u8") uint8_t extism_load_u8(uint64_t offs);
EXTISM_IMPORT("load_u64") uint64_t extism_load_u64(uint64_t offs);
EXTISM_IMPORT("store_u8") void extism_store_u8(uint64_t offs, uint8_t value);
EXTISM_IMPORT("store_u64") void extism_store_u64(uint64_t offs, uint64_t value);
EXTISM_IMPORT("output_set") void extism_output_set(uint64_t offs, uint64_t len);
EXTISM_IMPORT("error_set") void extism_error_set(uint64_t offs);
EXTISM_IMPORT("config_get") uint64_t extism_config_get(uint64_t key_offs);
EXTISM_IMPORT("var_get") uint64_t extism_var_get(uint64_t key_offs);
EXTISM_IMPORT("var_set") void extism_var_set(uint64_t key_offs, uint64_t value_offs);
EXTISM_IMPORT("log_info") void extism_log_info(uint64_t offs);
EXTISM_IMPORT("log_warn") void extism_log_warn(uint64_t offs);
EXTISM_IMPORT("log_error") void extism_log_error(uint64_t offs);
EXTISM_IMPORT("log_debug") void extism_log_debug(uint64_t offs);
EXTISM_IMPORT("http_request") uint64_t extism_http_request(uint64_t req_offs, uint64_t body_offs);
EXTISM_IMPORT("http_status_code") int32_t extism_http_status_code(void);
EXTISM_IMPORT("http_headers") uint64_t extism_http_headers(void);

/* This call's input as the host filled it through `hookbox_input_reserve`, or NULL (input.c owns it). */
const uint8_t *hb_reserved_input(size_t *len_out);

/* Ends the call's reservation: the next call reads its input afresh. */
void hb_input_call_done(void);

/*
 * The whole call input: the host-filled buffer when there is one, else read
 * through the kernel into a malloc'd buffer. NULL on allocation failure.
 * Give it back with hb_release_input (never free it).
 */
uint8_t *hb_read_input(size_t *len_out);
void hb_release_input(uint8_t *buf);

/* Copies `len` bytes into the existing kernel block at `offs` (8 bytes per store while it can). */
void hb_write_block(uint64_t offs, const uint8_t *data, size_t len);
/* Copies `len` bytes into a new Extism block and returns its offset (0 for an empty buffer). */
uint64_t hb_store(const uint8_t *data, size_t len);

/* Copies an Extism block into a malloc'd buffer, then frees the block. NULL when offs is 0. */
uint8_t *hb_load_and_free(uint64_t offs, size_t *len_out);

/* Sets the call's error message (Extism `error_set`): the host sees a plugin-originated error. */
void hb_set_error(const char *message, size_t len);

enum hb_log_level { HB_LOG_INFO, HB_LOG_WARN, HB_LOG_ERROR, HB_LOG_DEBUG };
void hb_log(enum hb_log_level level, const char *message, size_t len);

#endif
