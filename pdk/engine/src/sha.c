/*
 * crypto.subtle.digest's hashes: SHA-1, SHA-256, SHA-384 and SHA-512, written
 * from FIPS 180-4. The round constants and initial values are the fractional
 * parts of square and cube roots of the first primes (FIPS 180-4 §4.2, §5.3),
 * computed exactly with integer roots and printed here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static const uint32_t K256[64] = {
  0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
  0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
  0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
  0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
  0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
  0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
  0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
  0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};
static const uint32_t H256[8] = {
  0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
};
static const uint64_t K512[80] = {
  0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
  0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
  0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
  0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
  0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
  0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
  0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
  0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
  0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
  0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
  0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
  0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
  0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
  0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
  0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
  0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
  0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
  0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
  0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
  0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};
static const uint64_t H512[8] = {
  0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
  0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};
static const uint64_t H384[8] = {
  0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull, 0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
  0x67332667ffc00b31ull, 0x8eb44a8768581511ull, 0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define ROL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

static void sha1_block(uint32_t *h, const uint8_t *p) {
  uint32_t w[80];
  for (int t = 0; t < 16; t++) w[t] = be32(p + 4 * t);
  for (int t = 16; t < 80; t++) w[t] = ROL32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int t = 0; t < 80; t++) {
    uint32_t f, k;
    if (t < 20) { f = (b & c) | (~b & d); k = 0x5a827999u; }
    else if (t < 40) { f = b ^ c ^ d; k = 0x6ed9eba1u; }
    else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdcu; }
    else { f = b ^ c ^ d; k = 0xca62c1d6u; }
    uint32_t tmp = ROL32(a, 5) + f + e + k + w[t];
    e = d; d = c; c = ROL32(b, 30); b = a; a = tmp;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

static void sha256_block(uint32_t *h, const uint8_t *p) {
  uint32_t w[64];
  for (int t = 0; t < 16; t++) w[t] = be32(p + 4 * t);
  for (int t = 16; t < 64; t++) {
    uint32_t s0 = ROR32(w[t - 15], 7) ^ ROR32(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = ROR32(w[t - 2], 17) ^ ROR32(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t v[8];
  memcpy(v, h, sizeof v);
  for (int t = 0; t < 64; t++) {
    uint32_t t1 = v[7] + (ROR32(v[4], 6) ^ ROR32(v[4], 11) ^ ROR32(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K256[t] + w[t];
    uint32_t t2 = (ROR32(v[0], 2) ^ ROR32(v[0], 13) ^ ROR32(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 7 * sizeof v[0]);
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++) h[i] += v[i];
}

static void sha512_block(uint64_t *h, const uint8_t *p) {
  uint64_t w[80];
  for (int t = 0; t < 16; t++) w[t] = be64(p + 8 * t);
  for (int t = 16; t < 80; t++) {
    uint64_t s0 = ROR64(w[t - 15], 1) ^ ROR64(w[t - 15], 8) ^ (w[t - 15] >> 7);
    uint64_t s1 = ROR64(w[t - 2], 19) ^ ROR64(w[t - 2], 61) ^ (w[t - 2] >> 6);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint64_t v[8];
  memcpy(v, h, sizeof v);
  for (int t = 0; t < 80; t++) {
    uint64_t t1 = v[7] + (ROR64(v[4], 14) ^ ROR64(v[4], 18) ^ ROR64(v[4], 41)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K512[t] + w[t];
    uint64_t t2 = (ROR64(v[0], 28) ^ ROR64(v[0], 34) ^ ROR64(v[0], 39)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 7 * sizeof v[0]);
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int i = 0; i < 8; i++) h[i] += v[i];
}

/*
 * Merkle–Damgård padding over whole blocks: the data, 0x80, zeros, and the
 * bit length big-endian in the last 8 (SHA-1/256) or 16 (SHA-384/512) bytes.
 */
static void hash_blocks(const uint8_t *data, size_t len, size_t block, void (*fn)(void *, const uint8_t *), void *state) {
  size_t full = len / block * block;
  for (size_t i = 0; i < full; i += block) fn(state, data + i);
  uint8_t tail[256] = {0};
  size_t rest = len - full;
  memcpy(tail, data + full, rest);
  tail[rest] = 0x80;
  size_t total = rest + 1 + block / 8 <= block ? block : 2 * block;
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++) tail[total - 1 - i] = (uint8_t)(bits >> (8 * i));
  fn(state, tail);
  if (total > block) fn(state, tail + block);
}

static void sha1_fn(void *s, const uint8_t *p) { sha1_block(s, p); }
static void sha256_fn(void *s, const uint8_t *p) { sha256_block(s, p); }
static void sha512_fn(void *s, const uint8_t *p) { sha512_block(s, p); }

/* digest(name, ArrayBuffer, byteOffset, byteLength) → ArrayBuffer; name already upper-cased by the prelude. */
static JSValue hb_digest(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
  const char *name = JS_ToCString(ctx, argv[0]);
  if (!name) return JS_EXCEPTION;
  uint8_t *data;
  size_t len;
  if (hb_buffer_arg(ctx, argv + 1, &data, &len)) {
    JS_FreeCString(ctx, name);
    return JS_EXCEPTION;
  }
  uint8_t out[64];
  size_t out_len = 0;
  if (strcmp(name, "SHA-1") == 0) {
    uint32_t h[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u, 0xc3d2e1f0u};
    hash_blocks(data, len, 64, sha1_fn, h);
    for (int i = 0; i < 20; i++) out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
    out_len = 20;
  } else if (strcmp(name, "SHA-256") == 0) {
    uint32_t h[8];
    memcpy(h, H256, sizeof h);
    hash_blocks(data, len, 64, sha256_fn, h);
    for (int i = 0; i < 32; i++) out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
    out_len = 32;
  } else if (strcmp(name, "SHA-384") == 0 || strcmp(name, "SHA-512") == 0) {
    uint64_t h[8];
    memcpy(h, name[4] == '3' ? H384 : H512, sizeof h);
    hash_blocks(data, len, 128, sha512_fn, h);
    out_len = name[4] == '3' ? 48 : 64;
    for (size_t i = 0; i < out_len; i++) out[i] = (uint8_t)(h[i / 8] >> (56 - 8 * (i % 8)));
  }
  JS_FreeCString(ctx, name);
  if (out_len == 0) return JS_ThrowTypeError(ctx, "crypto.subtle.digest: unsupported algorithm (SHA-1, SHA-256, SHA-384, SHA-512 are)");
  return JS_NewArrayBufferCopy(ctx, out, out_len);
}

static const JSCFunctionListEntry SHA_FUNCS[] = {
  JS_CFUNC_DEF("digest", 4, hb_digest),
};

void hb_install_sha(JSContext *ctx, JSValueConst hb) {
  JS_SetPropertyFunctionList(ctx, hb, SHA_FUNCS, sizeof(SHA_FUNCS) / sizeof(SHA_FUNCS[0]));
}
