/**
 * The runner's grant shapes: allowed-host matching (host-grant.ts, shared
 * with host/config), path grants and the limit schemas (limits.ts), and the
 * channel buffer's growth bounds (channel.ts).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES, EXPORT_NAMES, HEADER_BYTES, RespStatus, Slot, channelBuffer, ensureDataBytes } from '../../host/runner/channel.ts';
import { hostCovers } from '../../host/runner/host-grant.ts';
import { CapabilitiesSchema, HookLimitsSchema, PathGrantSchema, pathGrant } from '../../host/runner/limits.ts';
import { SEAMS, SEAM_IDS } from '../../host/seams/index.ts';

describe('hostCovers', () => {
  it('matches an exact name, and a wildcard only for names strictly below its suffix', () => {
    expect(hostCovers('api.example.com', 'api.example.com')).toBe(true);
    expect(hostCovers('api.example.com', 'example.com')).toBe(false);
    expect(hostCovers('*.example.com', 'api.example.com')).toBe(true);
    expect(hostCovers('*.example.com', 'a.b.example.com')).toBe(true);
    expect(hostCovers('*.example.com', 'example.com')).toBe(false);
    expect(hostCovers('*.example.com', 'badexample.com')).toBe(false);
    expect(hostCovers('*.example.com', 'example.com.evil.org')).toBe(false);
    expect(hostCovers('.example.com', 'api.example.com')).toBe(false); // not a wildcard: exact only
  });

  it('a wildcard covers a narrower or equal wildcard, never a wider one', () => {
    expect(hostCovers('*.example.com', '*.api.example.com')).toBe(true);
    expect(hostCovers('*.example.com', '*.example.com')).toBe(true);
    expect(hostCovers('*.api.example.com', '*.example.com')).toBe(false);
    expect(hostCovers('api.example.com', '*.example.com')).toBe(false);
    expect(hostCovers('*.com', '*.example.com')).toBe(true);
  });

  it('`*` alone covers every host and every wildcard, as in an Extism manifest; nothing narrower covers `*`', () => {
    expect(hostCovers('*', 'postman-echo.com')).toBe(true);
    expect(hostCovers('*', '127.0.0.1')).toBe(true);
    expect(hostCovers('*', '*.example.com')).toBe(true);
    expect(hostCovers('*.com', '*')).toBe(false);
    expect(hostCovers('example.com', '*')).toBe(false);
  });
});

describe('limits and path grants', () => {
  it('reads a path grant as read-only unless it says write: true', () => {
    expect(pathGrant('/work')).toEqual({ guest: '/work', write: false });
    expect(pathGrant({ path: '/out', write: true })).toEqual({ guest: '/out', write: true });
    expect(pathGrant({ path: '/out' })).toEqual({ guest: '/out', write: false });
    expect(pathGrant({ path: '/out', write: false })).toEqual({ guest: '/out', write: false });
  });

  it('refuses unknown keys, empty paths and limits out of range', () => {
    expect(PathGrantSchema.safeParse('').success).toBe(false);
    expect(PathGrantSchema.safeParse({ path: '/x', mode: 'rw' }).success).toBe(false);
    expect(HookLimitsSchema.safeParse({ timeoutMs: 600_000, memoryMb: 4096, maxOutputBytes: 64 * 1024 * 1024 }).success).toBe(true);
    for (const bad of [{ timeoutMs: 600_001 }, { timeoutMs: 0 }, { memoryMb: 4097 }, { memoryMb: 1.5 }, { maxOutputBytes: 64 * 1024 * 1024 + 1 }, { instructionBudget: -1 }, { fuel: 1 }]) {
      expect(HookLimitsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(CapabilitiesSchema.safeParse({ allowedHosts: [''] }).success).toBe(false);
    expect(CapabilitiesSchema.safeParse({ env: [''] }).success).toBe(false);
    expect(CapabilitiesSchema.safeParse({ network: true }).success).toBe(false);
    expect(CapabilitiesSchema.parse({ allowedPaths: { '/h': '/g', '/w': { path: '/w', write: true } }, clock: true })).toEqual({
      allowedPaths: { '/h': '/g', '/w': { path: '/w', write: true } },
      clock: true,
    });
  });
});

describe('channel buffer', () => {
  it('starts with a 64-byte header and 1 MiB of data, growable to 64 MiB, never below its start', () => {
    expect(HEADER_BYTES).toBe(64);
    expect(Object.values(Slot).every((slot) => slot * 4 < HEADER_BYTES)).toBe(true);
    expect(new Set(Object.values(Slot)).size).toBe(Object.keys(Slot).length);
    expect(RespStatus).toEqual({ output: 0, fault: 1, spilled: 2 });
    expect(DEFAULT_DATA_BYTES).toBe(1 << 20);
    expect(DEFAULT_MAX_DATA_BYTES).toBe(64 << 20);
    const sab = channelBuffer(DEFAULT_DATA_BYTES, DEFAULT_MAX_DATA_BYTES);
    expect(sab.byteLength).toBe(HEADER_BYTES + (1 << 20));
    expect(sab.maxByteLength).toBe(HEADER_BYTES + (64 << 20));
    // A maximum below the start size is raised to it.
    expect(channelBuffer(4096, 1024).maxByteLength).toBe(HEADER_BYTES + 4096);
  });

  it('grows to exactly the maximum when the next power of two is past it, and refuses one byte more', () => {
    const sab = channelBuffer(1024, 3000);
    expect(ensureDataBytes(sab, 1024)).toBe(true);
    expect(sab.byteLength).toBe(HEADER_BYTES + 1024);
    expect(ensureDataBytes(sab, 2500)).toBe(true);
    expect(sab.byteLength).toBe(HEADER_BYTES + 3000); // 4096 is past the maximum: capped
    expect(ensureDataBytes(sab, 3000)).toBe(true);
    expect(ensureDataBytes(sab, 3001)).toBe(false);
    expect(sab.byteLength).toBe(HEADER_BYTES + 3000);
    const exact = channelBuffer(1024, 4096);
    expect(ensureDataBytes(exact, 1025)).toBe(true);
    expect(exact.byteLength).toBe(HEADER_BYTES + 2048);
  });

  it('grows straight to a request of exactly the maximum, and leaves a region that already fits as it is', () => {
    const sab = channelBuffer(1024, 3000);
    expect(ensureDataBytes(sab, 3000)).toBe(true);
    expect(sab.byteLength).toBe(HEADER_BYTES + 3000);
    // A region grown earlier serves smaller requests, and one of exactly its size, unchanged (it never shrinks).
    const grown = channelBuffer(1000, 1 << 20);
    expect(ensureDataBytes(grown, 1000)).toBe(true);
    expect(grown.byteLength).toBe(HEADER_BYTES + 1000);
    expect(ensureDataBytes(grown, 5000)).toBe(true);
    expect(grown.byteLength).toBe(HEADER_BYTES + 8192);
    expect(ensureDataBytes(grown, 100)).toBe(true);
    expect(ensureDataBytes(grown, 8192)).toBe(true);
    expect(grown.byteLength).toBe(HEADER_BYTES + 8192);
  });

  it('names exports by index in SEAMS order', () => {
    expect(EXPORT_NAMES).toEqual(SEAM_IDS.map((id) => SEAMS[id].exportName));
  });
});
