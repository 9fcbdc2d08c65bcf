/**
 * Bulk input delivery (`hookbox_input_reserve`, rc-wrapper.ts): a guest that
 * exports it gets the whole call input copied into the buffer it reserved,
 * before its export runs; a pointer outside its memory is ignored, never a
 * host error; a guest without it (plain Extism) is untouched.
 */
import createPlugin from '@extism/extism';
import { describe, expect, it } from 'vitest';
import { ExtismInstance } from '../../host/runner/extism-adapter.ts';
import { prepareModule } from '../../host/runner/module-prep.ts';
import { GUEST_MODULE_NAME, buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { wasmApi } from '../../host/runner/wasm-api.ts';
import { readFile } from 'node:fs/promises';
import { buildExample } from '../../examples-hooks/build.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { decodeDecision, encodeEnvelope } from '../../host/runner/wire.ts';
import type { PostToolPayload } from '../../host/seams/index.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHook } from '../../pdk/compiler/index.ts';
import { extismModule } from '../helpers/wat-module.ts';

/** A js-pdk style hook whose export reads its input three times (fixtures/read-input-twice.js). */
const READ_TWICE_ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'read-input-twice.js');

/**
 * Reserves its buffer at `pointer` whatever the length and remembers the
 * length. Its output is what it saw: the reserved buffer (as many bytes as
 * were reserved, none when nothing was), then the kernel's input.
 */
function echoInput(pointer: string): string {
  return extismModule(`(global $reserved (mut i32) (i32.const 0))
  (func (export "hookbox_input_reserve") (param $len i32) (result i32)
    (global.set $reserved (local.get $len))
    (i32.const ${pointer}))
  (func (export "pre_tool") (result i32) (local $r i32) (local $k i32) (local $b i64) (local $i i32)
    (local.set $r (global.get $reserved))
    (local.set $k (i32.wrap_i64 (call $input_length)))
    (local.set $b (call $alloc (i64.extend_i32_u (i32.add (local.get $r) (local.get $k)))))
    (block $end (loop $copy
      (br_if $end (i32.ge_u (local.get $i) (local.get $r)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (i32.add (i32.const 1024) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.set $i (i32.const 0))
    (block $end (loop $copy
      (br_if $end (i32.ge_u (local.get $i) (local.get $k)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (i32.add (local.get $r) (local.get $i)))) (call $input_load_u8 (i64.extend_i32_u (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (call $output_set (local.get $b) (i64.extend_i32_u (i32.add (local.get $r) (local.get $k))))
    (i32.const 0))`, { memory: '2 4' });
}

/** What {@link echoInput} saw: its reserved buffer and the kernel input. */
function seen(bytes: Uint8Array | null | undefined, reserved: number): { reserved: Uint8Array; kernel: Uint8Array } {
  const all = bytes ?? new Uint8Array(0);
  return { reserved: all.subarray(0, reserved), kernel: all.subarray(reserved) };
}

const ZEROS = new Uint8Array(70_000);

async function compileBytes(bytes: Uint8Array, exportName: string, memoryMb: number) {
  const prepared = prepareModule(bytes, { memoryMb, source: 'bulk-input.wasm' });
  return {
    prepared,
    guest: await wasmApi.compile(prepared.bytes),
    wrapper: await wasmApi.compile(buildRcWrapper([exportName], prepared.exportsMemory, prepared.init, prepared.growProbe, prepared.inputReserve)),
  };
}

async function compile(source: string) {
  return compileBytes(await compileWatSource(source, 'bulk-input.wat'), 'pre_tool', 16);
}

/** Runs `use` on an adapter instance of the compiled module (the runner's bulk delivery), closed after. */
async function withInstance<T>(compiled: Awaited<ReturnType<typeof compileBytes>>, memoryMb: number, use: (instance: ExtismInstance) => Promise<T>): Promise<T> {
  const { prepared, guest, wrapper } = compiled;
  expect(prepared.inputReserve).toBe(true);
  const created = await ExtismInstance.create({
    guest,
    wrapper,
    ...(prepared.wasi && { wasi: { preopens: [], env: {}, clock: false } }),
    config: {},
    memoryMb,
    memoryMaxPages: prepared.memory?.max,
    maxOutputBytes: 1_048_576,
  });
  if (!created.ok) throw new Error(created.fault.message);
  try {
    return await use(created.instance);
  } finally {
    await created.instance.close();
  }
}

async function callWith(source: string, input: Uint8Array) {
  return withInstance(await compile(source), 16, (instance) => instance.call('pre_tool', input));
}

const INPUT = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + 7) & 0xff);

describe('bulk input delivery', () => {
  it('copies the whole input into the buffer the guest reserved; the kernel input is blank, of the same length', async () => {
    const outcome = await callWith(echoInput('1024'), INPUT);
    if (outcome.type !== 'output') throw new Error(outcome.fault.message);
    expect(seen(outcome.bytes, INPUT.length)).toEqual({ reserved: INPUT, kernel: ZEROS });
  });

  it('a view into a bigger buffer (the worker channel) is delivered as its own bytes only', async () => {
    const backing = new Uint8Array(INPUT.length + 4096).fill(0xee);
    backing.set(INPUT, 2048);
    const outcome = await callWith(echoInput('1024'), backing.subarray(2048, 2048 + INPUT.length));
    if (outcome.type !== 'output') throw new Error(outcome.fault.message);
    expect(seen(outcome.bytes, INPUT.length)).toEqual({ reserved: INPUT, kernel: ZEROS });
  });

  it('the kernel input is blank and of the call\'s own length when the length changes from call to call', async () => {
    await withInstance(await compile(echoInput('1024')), 16, async (instance) => {
      for (const length of [70_000, 3_000, 50_000, 0, 70_000]) {
        const input = INPUT.subarray(0, length);
        const outcome = await instance.call('pre_tool', input);
        if (outcome.type !== 'output') throw new Error(outcome.fault.message);
        expect(seen(outcome.bytes, length)).toEqual({ reserved: input, kernel: new Uint8Array(length) });
      }
    });
  });

  it('ignores a reservation outside the guest memory: the call runs and the input comes through the kernel', async () => {
    for (const pointer of ['0xfffffff0', '131000']) {
      const outcome = await callWith(echoInput(pointer), INPUT);
      expect(outcome.type).toBe('output');
      if (outcome.type === 'output') expect(seen(outcome.bytes, INPUT.length)).toEqual({ reserved: ZEROS, kernel: INPUT });
    }
  });

  it('a plain Extism host never calls the export: the guest reads the kernel input', async () => {
    const { guest, wrapper } = await compile(echoInput('1024'));
    const plugin = await createPlugin(
      { wasm: [{ module: guest, name: GUEST_MODULE_NAME }, { module: wrapper, name: 'main' }] },
      { useWasi: false, runInWorker: false, logLevel: 'silent' },
    );
    try {
      const output = await plugin.call('pre_tool', INPUT);
      expect(seen(output?.bytes(), 0)).toEqual({ reserved: new Uint8Array(0), kernel: INPUT });
    } finally {
      await plugin.close();
    }
  });
});

describe('the hookbox JS engine keeps a delivered input for the whole call', () => {
  it('reads it as often as the hook asks, and the next call reads its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-read-twice-'));
    try {
      const built = await buildHook({ entry: READ_TWICE_ENTRY, outFile: join(dir, 'hook.wasm') });
      const compiled = await compileBytes(new Uint8Array(await readFile(built.wasmPath)), 'read_twice', 64);
      await withInstance(compiled, 64, async (instance) => {
        for (const text of ['first input '.repeat(9_000), 'second, shorter']) {
          const outcome = await instance.call('read_twice', new TextEncoder().encode(text));
          if (outcome.type !== 'output') throw new Error(outcome.fault.message);
          expect(JSON.parse(new TextDecoder().decode(outcome.bytes ?? new Uint8Array(0)))).toEqual({ first: text.length, same: true, bytes: text.length });
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the hookbox JS engine reads a big input either way', () => {
  // A fake token, assembled at run time so this file does not trip secret scanners.
  const token = ['ghp_', '0123456789abcdefghijABCDEFGHIJ012345'].join('');
  const payload: PostToolPayload = {
    toolCallId: 'c1',
    toolName: 'bash',
    arguments: { command: 'cat build.log' },
    result: { content: `${'build step ok\n'.repeat(25_000)}export GITHUB_TOKEN=${token}\n`, isError: false },
  };
  const session = { id: 'bulk', turn: 1, step: 1, cwd: '/' };

  it('through the runner (bulk delivery) and on a plain Extism host (kernel reads), the same redaction', async () => {
    const bytes = new Uint8Array(await readFile((await buildExample('secret-redactor', () => {})).wasmPath));
    expect(prepareModule(bytes, { memoryMb: 64, source: 'secret-redactor.wasm' }).inputReserve).toBe(true);

    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    let viaRunner: unknown;
    try {
      const hook = await runner.load({ name: 'secret-redactor', wasm: bytes, limits: { timeoutMs: 20_000 } });
      const { invokeListener } = await import('../../host/events/invoke.ts');
      viaRunner = (await invokeListener(hook, 'tools/post-execute', payload, { action: 'accept' }, session)).decision;
    } finally {
      await runner.close();
    }
    expect(JSON.stringify(viaRunner)).toContain('[REDACTED:github-token]');
    expect(JSON.stringify(viaRunner)).not.toContain(token);

    // The module as built, on the Extism SDK with its own WASI: nobody calls the reservation, so the
    // engine must fall back to the kernel's 8-byte reads.
    const plugin = await createPlugin({ wasm: [{ module: await wasmApi.compile(bytes) }] }, { useWasi: true, runInWorker: false, logLevel: 'silent' });
    try {
      const output = await plugin.call('post_tool', encodeEnvelope('tools/post-execute', session, payload, { action: 'accept' }));
      const plain = decodeDecision('tools/post-execute', output?.bytes() ?? null);
      expect(plain).toEqual({ type: 'decision', decision: viaRunner });
    } finally {
      await plugin.close();
    }
  });
});
