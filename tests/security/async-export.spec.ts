// Finding 6: an async export whose promise rejects came back as "no output, no
// fault" — no opinion instead of a fault, i.e. it failed open. The engine now
// settles an export's promise inside the call: a rejection is a `plugin-error`
// with the message and stack, a promise still pending when no job is left is a
// `plugin-error` too, and a fulfilled one answers normally. Same for defineHook
// handlers that are async.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner } from '../../host/runner/index.ts';
import type { PayloadOf } from '../../host/seams/index.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { SESSION } from './harness.ts';
import { tempDir } from '../pdk/support.ts';

const PDK = fileURLToPath(new URL('../../pdk/index.ts', import.meta.url));
// msgpack of {action: 'allow'}, by hand (a raw extism-js style plugin has no codec).
const ALLOW_BYTES = '[0x81, 0xa6, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0xa5, 0x61, 0x6c, 0x6c, 0x6f, 0x77]';

const HOOKS: Record<string, { file: string; source: string }> = {
  'raw-rejects': {
    file: 'index.js',
    source: `export async function pre_tool() { await null; throw new TypeError('async boom'); }`,
  },
  'raw-pending': {
    file: 'index.js',
    source: `export async function pre_tool() { await new Promise(() => {}); return 0; }`,
  },
  'raw-resolves': {
    file: 'index.js',
    source: `export async function pre_tool() { await null; Host.outputBytes(new Uint8Array(${ALLOW_BYTES}).buffer); return 0; }`,
  },
  'raw-resolves-code': {
    file: 'index.js',
    source: `export async function pre_tool() { await null; Host.outputBytes(new Uint8Array(${ALLOW_BYTES}).buffer); return 3; }`,
  },
  'define-async': {
    file: 'hook.ts',
    source: `import { defineHook, allow, deny } from ${JSON.stringify(PDK)};
export default defineHook({
  async preTool(payload) {
    await null;
    const command = String(payload.arguments.command ?? '');
    if (command === 'reject') throw new RangeError('handler rejected');
    if (command === 'hang') await new Promise(() => {});
    return command.startsWith('rm') ? deny('async deny') : allow();
  },
});`,
  },
};

/** Each hook's wasm path, or why it did not build (that hook's tests then fail, not the file). */
const built = new Map<string, string | Error>();
let runner: HookRunner;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  for (const [name, { file, source }] of Object.entries(HOOKS)) {
    const entry = join(tmp.dir, `${name}-${file}`);
    await writeFile(entry, source);
    built.set(name, await buildHook({ entry, outFile: join(tmp.dir, name, 'hook.wasm') }).then((r) => r.wasmPath, (e: Error) => e));
  }
  runner = await HookRunner.start({ workers: 1, spareWorker: false });
}, 180_000);

afterAll(async () => {
  await runner?.close();
  await cleanup?.();
});

const bash = (command: string): PayloadOf<'tools/pre-execute'> => ({ toolCallId: 'c1', toolName: 'bash', arguments: { command } });

async function preTool(name: string, command = 'ls') {
  const wasm = built.get(name);
  if (typeof wasm !== 'string') throw wasm ?? new Error(`${name} was not built`);
  const hook = await runner.load({ name, wasm, quarantineAfter: 1000 });
  try {
    const applied = await invokeListener(hook, 'tools/pre-execute', bash(command), { action: 'allow' }, SESSION);
    return { decision: applied.decision, fault: applied.invocation.fault };
  } finally {
    await hook.close();
  }
}

describe('async exports (extism-js style)', () => {
  it('a rejected promise is a plugin-error with the message and stack, and the seam denies', async () => {
    const { decision, fault } = await preTool('raw-rejects');
    expect(fault).toEqual({ kind: 'plugin-error', message: expect.stringMatching(/^TypeError: async boom\n\s*at pre_tool/) });
    expect(decision).toMatchObject({ action: 'deny' });
  });

  it('a promise still pending when no job is left is a plugin-error, never no opinion', async () => {
    const { decision, fault } = await preTool('raw-pending');
    expect(fault).toEqual({ kind: 'plugin-error', message: expect.stringContaining('still pending') });
    expect(decision).toMatchObject({ action: 'deny' });
  });

  it('a fulfilled promise answers normally', async () => {
    expect(await preTool('raw-resolves')).toEqual({ decision: { action: 'allow' }, fault: undefined });
  });

  it("a fulfilled promise's number is the export's return code (non-zero = plugin-error)", async () => {
    const { fault } = await preTool('raw-resolves-code');
    expect(fault).toEqual({ kind: 'plugin-error', message: expect.stringContaining('returned 3') });
  });
});

describe('async defineHook handlers', () => {
  it('resolve to their decision', async () => {
    expect(await preTool('define-async', 'rm -rf /')).toEqual({ decision: { action: 'deny', reason: 'async deny' }, fault: undefined });
    expect(await preTool('define-async', 'ls')).toEqual({ decision: { action: 'allow' }, fault: undefined });
  });

  it('reject as a plugin-error', async () => {
    const { fault, decision } = await preTool('define-async', 'reject');
    expect(fault).toEqual({ kind: 'plugin-error', message: expect.stringMatching(/^RangeError: handler rejected/) });
    expect(decision).toMatchObject({ action: 'deny' });
  });

  it('left pending are a plugin-error', async () => {
    const { fault } = await preTool('define-async', 'hang');
    expect(fault).toEqual({ kind: 'plugin-error', message: expect.stringContaining('still pending') });
  });
});
