/**
 * The worker channel grows for a big call instead of spilling to
 * postMessage (channel.ts), and a big call's input is lent in a retained
 * buffer given back after the call (input-lease.ts, runner-input-lease.spec.ts).
 * Both only move bytes: a call must answer the same through a grown channel,
 * through the postMessage fallback past the maximum, and with lent inputs
 * reused.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildExample } from '../../examples-hooks/build.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { HEADER_BYTES, channelBuffer, ensureDataBytes } from '../../host/runner/channel.ts';
import { HookRunner } from '../../host/runner/index.ts';
import type { PostToolPayload } from '../../host/seams/index.ts';

describe('channel buffer', () => {
  it('grows to the next power of two, up to its maximum, and a length-tracking view follows', () => {
    const sab = channelBuffer(4096, 1 << 20);
    const view = new Uint8Array(sab, HEADER_BYTES);
    expect(view.byteLength).toBe(4096);
    expect(ensureDataBytes(sab, 4096)).toBe(true);
    expect(sab.byteLength).toBe(HEADER_BYTES + 4096);
    expect(ensureDataBytes(sab, 5000)).toBe(true);
    expect(view.byteLength).toBe(8192);
    expect(ensureDataBytes(sab, (1 << 20) - 1)).toBe(true);
    expect(view.byteLength).toBe(1 << 20);
    expect(ensureDataBytes(sab, (1 << 20) + 1)).toBe(false);
    expect(view.byteLength).toBe(1 << 20);
  });
});

describe('a big call through the runner', () => {
  // A fake token, assembled at run time so this file does not trip secret scanners.
  const token = ['ghp_', 'abcdefghij0123456789ABCDEFGHIJ987654'].join('');
  const session = { id: 'growth', turn: 1, step: 1, cwd: '/' };
  const payload = (lines: number): PostToolPayload => ({
    toolCallId: 'c1',
    toolName: 'bash',
    arguments: { command: 'cat build.log' },
    result: { content: `${'build step ok\n'.repeat(lines)}GITHUB_TOKEN=${token}\n`, isError: false },
  });

  // Input and output (the redacted content) are both ~100–300 KiB: past a 4 KiB channel.
  for (const [what, channelMaxBytes] of [
    ['through a channel grown from 4 KiB', 1 << 20],
    ['by postMessage past the channel maximum', 8192],
  ] as const) {
    it(`answers the same ${what}`, async () => {
      const wasm = new Uint8Array(await readFile((await buildExample('secret-redactor', () => {})).wasmPath));
      const runner = await HookRunner.start({ workers: 1, spareWorker: false, channelBytes: 4096, channelMaxBytes });
      try {
        const hook = await runner.load({ name: 'secret-redactor', wasm, limits: { timeoutMs: 20_000 } });
        for (const lines of [8_000, 20_000, 8_000]) {
          const { decision } = await invokeListener(hook, 'tools/post-execute', payload(lines), { action: 'accept' }, session);
          const content = JSON.stringify(decision);
          expect(content).toContain('[REDACTED:github-token]');
          expect(content).not.toContain(token);
          expect(content.split('build step ok').length - 1).toBe(lines);
        }
      } finally {
        await runner.close();
      }
    });
  }
});
