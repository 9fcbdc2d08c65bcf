/* SHA-256 (FIPS 180-4), just what the listener proof needs: one digest as 64 lowercase hex digits. */
#ifndef HOOKBOX_SHA256_H
#define HOOKBOX_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sha256 {
  uint32_t h[8];
  uint64_t length;
  unsigned char block[64];
  size_t used;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* Writes 64 hex digits and a NUL into out. */
void sha256_hex(struct sha256 *s, char out[65]);
#endif
