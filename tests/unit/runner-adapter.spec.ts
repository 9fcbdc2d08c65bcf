import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CallOutcome, ExtismInstance, type InstanceOptions, faultFromError } from '../../host/runner/extism-adapter.ts';
import { prepareModule } from '../../host/runner/module-prep.ts';
import { WasiExit } from '../../host/runner/wasi/index.ts';
import { buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { wasmApi } from '../../host/runner/wasm-api.ts';
import { decodeDecision } from '../../host/runner/wire.ts';
import { SEAMS } from '../../host/seams/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';
import { extismModule } from '../helpers/wat-module.ts';

// One test per HookFault kind, against the adapter on this thread (no worker):
// the adapter maps what Extism/V8 produce; decode/schema come from the wire
// decoder that runs on the host's side of the channel.

async function instantiate(bytes: Uint8Array, overrides: Partial<InstanceOptions> = {}) {
  const memoryMb = overrides.memoryMb ?? 16;
  const prepared = prepareModule(bytes, { memoryMb, source: 'test.wasm' });
  const options: InstanceOptions = {
    guest: await wasmApi.compile(prepared.bytes),
    // As the runner builds it: the grow probe and the bulk-input export re-exported when the guest has them.
    wrapper: await wasmApi.compile(
      buildRcWrapper(prepared.seamExports.map((s) => SEAMS[s].exportName), prepared.exportsMemory, prepared.init, prepared.growProbe, prepared.inputReserve && prepared.exportsMemory),
    ),
    ...(prepared.wasi && { wasi: { preopens: [], env: {}, clock: false } }),
    config: {},
    memoryMb,
    memoryMaxPages: prepared.memory?.max,
    maxOutputBytes: 1_048_576,
    ...overrides,
  };
  return ExtismInstance.create(options);
}

async function callOnce(name: string, exportName = 'pre_tool', overrides: Partial<InstanceOptions> = {}): Promise<CallOutcome> {
  const created = await instantiate(await compileWat(name), overrides);
  if (!created.ok) throw new Error(`cannot instantiate ${name}: ${created.fault.message}`);
  try {
    return await created.instance.call(exportName, new Uint8Array([0x80]));
  } finally {
    await created.instance.close();
  }
}

/** WAT that copies memory[0, length) into a new Extism block in local `block` (needs $alloc, $store_u8 and an i32 local $i). */
function dataToBlock(block: string, length: number): string {
  return `(local.set ${block} (call $alloc (i64.const ${length})))
      (block $done (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (i32.const ${length})))
        (call $store_u8 (i64.add (local.get ${block}) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))`;
}

/** A plugin that reports `message` through error_set and returns 1, as the hookbox JS engine does. */
function errorSetModule(message: string): Promise<Uint8Array> {
  const escaped = [...new TextEncoder().encode(message)].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
  return compileWatSource(extismModule(`(data (i32.const 0) "${escaped}")
    (func (export "pre_tool") (result i32) (local $b i64) (local $i i32)
      ${dataToBlock('$b', message.length)}
      (call $error_set (local.get $b))
      (i32.const 1))`));
}

function faultOf(outcome: CallOutcome) {
  if (outcome.type !== 'fault') throw new Error(`expected a fault, got output ${String(outcome.bytes)}`);
  return outcome;
}

describe('extism adapter: one test per fault kind', () => {
  it('timeout: the engine\'s "hookbox-fault:timeout:" error becomes a timeout fault', async () => {
    const created = await instantiate(await errorSetModule('hookbox-fault:timeout: instruction budget 5000 exhausted'));
    if (!created.ok) throw new Error(created.fault.message);
    try {
      const outcome = faultOf(await created.instance.call('pre_tool', new Uint8Array(0)));
      expect(outcome.fault).toEqual({ kind: 'timeout', message: 'instruction budget 5000 exhausted' });
      expect(outcome.discard).toBe(false);
    } finally {
      await created.instance.close();
    }
  });

  it('memory: the engine\'s "hookbox-fault:memory:" error, a bomb at the cap, and the Var budget', async () => {
    const created = await instantiate(await errorSetModule('hookbox-fault:memory: JS heap limit 8 MiB'));
    if (!created.ok) throw new Error(created.fault.message);
    try {
      expect(faultOf(await created.instance.call('pre_tool', new Uint8Array(0))).fault).toEqual({ kind: 'memory', message: 'JS heap limit 8 MiB' });
    } finally {
      await created.instance.close();
    }
    const bomb = faultOf(await callOnce('memory-bomb-capped'));
    expect(bomb.fault.kind).toBe('memory');
    expect(bomb.discard).toBe(true);
    expect(faultOf(await callOnce('var-flood')).fault.kind).toBe('memory');
    expect(faultOf(await callOnce('alloc-bomb')).fault.kind).toBe('memory');
  });

  it('trap: unreachable and out-of-bounds are traps and keep the instance; a V8 stack overflow discards it', async () => {
    const trap = faultOf(await callOnce('trap'));
    expect(trap.fault).toEqual({ kind: 'trap', message: 'unreachable' });
    expect(trap.discard).toBe(false);
    expect(faultOf(await callOnce('out-of-bounds')).fault.kind).toBe('trap');
    const overflow = faultOf(await callOnce('recursion'));
    expect(overflow.fault.kind).toBe('trap');
    expect(overflow.fault.message).toContain('stack overflow');
    expect(overflow.discard).toBe(true);
  });

  it('output-too-large: output over maxOutputBytes is refused before anyone decodes it', async () => {
    const outcome = faultOf(await callOnce('oversized-output'));
    expect(outcome.fault.kind).toBe('output-too-large');
    expect(outcome.fault.message).toContain('exceeds maxOutputBytes 1048576');
  });

  it('decode: bytes that are not one msgpack value', () => {
    expect(decodeDecision('tools/pre-execute', Uint8Array.from([0xc1, 0xff, 0x00]))).toMatchObject({ type: 'fault', fault: { kind: 'decode' } });
    const deep = new Uint8Array(60_001).fill(0x91);
    deep[60_000] = 0xc0;
    expect(decodeDecision('tools/pre-execute', deep)).toMatchObject({ type: 'fault', fault: { kind: 'decode' } });
  });

  it('schema: valid msgpack that is not the seam\'s decision names the bad field', () => {
    const missingReason = Uint8Array.from([0x81, 0xa6, ...Buffer.from('action'), 0xa4, ...Buffer.from('deny')]);
    expect(decodeDecision('tools/pre-execute', missingReason)).toEqual({
      type: 'fault',
      fault: { kind: 'schema', message: expect.stringContaining('decision.reason') },
    });
    expect(decodeDecision('agent/turn-continuation', Uint8Array.from([0xc0]))).toMatchObject({ type: 'fault', fault: { kind: 'schema' } });
    expect(decodeDecision('tools/pre-execute', null)).toEqual({ type: 'no-opinion' });
  });

  it('plugin-error: error_set text, a non-zero return code without error_set, and WASI proc_exit with its code', async () => {
    expect(faultOf(await callOnce('error-set')).fault).toEqual({ kind: 'plugin-error', message: 'corpus: refused' });
    expect(faultOf(await callOnce('nonzero-return')).fault).toEqual({
      kind: 'plugin-error',
      message: 'export "pre_tool" returned 1 without setting an error',
    });
    const exited = faultOf(await callOnce('proc-exit'));
    expect(exited.fault).toEqual({ kind: 'plugin-error', message: 'the hook called proc_exit(0)' });
    expect(exited.exit).toEqual({ code: 0 });
    expect(exited.discard).toBe(true);
  });

  it('missing-export: calling an export the module does not have', async () => {
    expect(faultOf(await callOnce('missing-export', 'pre_tool')).fault.kind).toBe('missing-export');
  });

  it('load: a module that cannot be instantiated', async () => {
    const created = await instantiate(await compileWat('unknown-import'));
    expect(created.ok).toBe(false);
    if (!created.ok) expect(created.fault).toEqual({ kind: 'load', message: expect.stringContaining('does_not_exist') });
  });

  it('a healthy call returns the output bytes, and empty output as null', async () => {
    const allow = await callOnce('allow');
    expect(allow.type === 'output' && [...(allow.bytes ?? [])]).toEqual([0x81, 0xa6, ...Buffer.from('action'), 0xa5, ...Buffer.from('allow')]);
    const none = await callOnce('no-opinion');
    expect(none).toMatchObject({ type: 'output', bytes: null });
  });
});

describe('faultFromError', () => {
  it('maps host errors by type, not by loose text', () => {
    expect(faultFromError(new RangeError('Maximum call stack size exceeded'), { atMemoryCap: false })).toMatchObject({ kind: 'trap', discard: true });
    expect(faultFromError(new RangeError('Array buffer allocation failed'), { atMemoryCap: false })).toMatchObject({ kind: 'memory', discard: true });
    expect(faultFromError(new Error('cannot assign to this block'), { atMemoryCap: false })).toMatchObject({ kind: 'trap', discard: true });
    expect(faultFromError(Symbol('kExitCode'), { atMemoryCap: false })).toMatchObject({ kind: 'trap', discard: true });
    expect(faultFromError(new WasiExit(3), { atMemoryCap: false })).toEqual({ kind: 'plugin-error', message: 'the hook called proc_exit(3)', discard: true });
    expect(faultFromError(new Error('Plugin-originated error: var memory limit exceeded: 5 bytes'), { atMemoryCap: false })).toMatchObject({ kind: 'memory' });
    expect(faultFromError(new Error('Plugin-originated error: memory access out of bounds'), { atMemoryCap: true })).toMatchObject({ kind: 'plugin-error' });
  });
});

describe('extism adapter: the exact outcome of each call', () => {
  it("error_set keeps the export's return code and text; a non-zero return alone keeps its code; both keep the instance", async () => {
    expect(await callOnce('error-set')).toEqual({
      type: 'fault',
      fault: { kind: 'plugin-error', message: 'corpus: refused' },
      discard: false,
      logs: [],
      exit: { code: 1, errorText: 'corpus: refused' },
    });
    expect(await callOnce('nonzero-return')).toEqual({
      type: 'fault',
      fault: { kind: 'plugin-error', message: 'export "pre_tool" returned 1 without setting an error' },
      discard: false,
      logs: [],
      exit: { code: 1 },
    });
    // A trap is not the plugin's own error: no exit.
    expect(await callOnce('trap')).toEqual({ type: 'fault', fault: { kind: 'trap', message: expect.any(String) }, discard: false, logs: [] });
  });

  it('names an export the wrapper does not have, before calling anything', async () => {
    expect(await callOnce('allow', 'no_such_export')).toEqual({
      type: 'fault',
      fault: { kind: 'missing-export', message: 'the module does not export "no_such_export"' },
      discard: false,
      logs: [],
    });
  });

  it('takes an output of exactly maxOutputBytes and refuses one byte less, keeping the instance', async () => {
    const allowBytes = 1 + 7 + 6; // fixmap, "action", "allow"
    expect(await callOnce('allow', 'pre_tool', { maxOutputBytes: allowBytes })).toMatchObject({ type: 'output' });
    expect(await callOnce('allow', 'pre_tool', { maxOutputBytes: allowBytes - 1 })).toEqual({
      type: 'fault',
      fault: { kind: 'output-too-large', message: `output of ${allowBytes} bytes exceeds maxOutputBytes ${allowBytes - 1}` },
      discard: false,
      logs: [],
    });
  });

  it("reports the guest's linear memory size (what the memory budget charges)", async () => {
    const created = await instantiate(await compileWatSource('(module (memory (export "memory") 3 5) (func (export "pre_tool") (result i32) (i32.const 0)))'));
    if (!created.ok) throw new Error(created.fault.message);
    try {
      expect(created.instance.memoryBytes).toBe(3 * 65_536);
    } finally {
      await created.instance.close();
    }
    const hidden = await instantiate(await compileWatSource('(module (memory 1 1) (func (export "pre_tool") (result i32) (i32.const 0)))'));
    if (!hidden.ok) throw new Error(hidden.fault.message);
    try {
      expect(hidden.instance.memoryBytes).toBeUndefined();
    } finally {
      await hidden.instance.close();
    }
  });
});

/** Creates an instance of `wat`, runs `use`, closes it. */
async function withWat<T>(wat: string, overrides: Partial<InstanceOptions>, use: (instance: ExtismInstance) => Promise<T>): Promise<T> {
  const created = await instantiate(await compileWatSource(wat), overrides);
  if (!created.ok) throw new Error(created.fault.message);
  try {
    return await use(created.instance);
  } finally {
    await created.instance.close();
  }
}

/** A guest whose `pre_tool` makes one Extism `alloc` of each size, then traps. */
const allocsThenTrap = (sizes: readonly number[]): string => extismModule(`(func (export "pre_tool") (result i32)
    ${sizes.map((size) => `(drop (call $alloc (i64.const ${size})))`).join('\n    ')}
    unreachable)`);

const refused = (bytes: number, mb: number) => ({ level: 'error', message: `memory limit exceeded: alloc of ${bytes} bytes refused (${mb} MiB per call)` });

describe('extism adapter: memory refused during a call', () => {
  it('the per-call alloc budget takes exactly memoryMb, refuses past it or a negative size, logs the refusal, and starts over at each call', async () => {
    const one = { memoryMb: 1 };
    const trap = { type: 'fault', fault: { kind: 'trap', message: 'unreachable' }, discard: false, logs: [] };
    await withWat(allocsThenTrap([1_048_576]), one, async (instance) => {
      expect(await instance.call('pre_tool', new Uint8Array(0))).toEqual(trap);
      expect(await instance.call('pre_tool', new Uint8Array(0))).toEqual(trap);
    });
    await withWat(allocsThenTrap([0]), one, async (instance) => expect(await instance.call('pre_tool', new Uint8Array(0))).toEqual(trap));
    for (const [sizes, bytes] of [[[1_048_576, 1], 1], [[-1], -1]] as const) {
      await withWat(allocsThenTrap(sizes), one, async (instance) => {
        const outcome = faultOf(await instance.call('pre_tool', new Uint8Array(0)));
        expect(outcome.fault.kind).toBe('memory');
        expect(outcome.discard).toBe(true);
        expect(outcome.logs).toEqual([refused(bytes, 1)]);
      });
    }
  });

  it('a trap is memory only if memory was refused or the memory grew to its cap during the call', async () => {
    const trapOf = (memory: string, body: string) => `(module (memory (export "memory") ${memory})
      (func (export "pre_tool") (result i32) ${body} unreachable)
      (func (export "post_tool") (result i32) unreachable))`;
    const kinds = async (wat: string, overrides: Partial<InstanceOptions> = {}): Promise<string[]> =>
      withWat(wat, overrides, async (instance) => [faultOf(await instance.call('pre_tool', new Uint8Array(0))), faultOf(await instance.call('post_tool', new Uint8Array(0)))].map((o) => `${o.fault.kind}${o.discard ? ' (discard)' : ''}`));
    // Already at its cap before the call, not grown: a plain trap.
    expect(await kinds(trapOf('1 1', ''))).toEqual(['trap', 'trap']);
    // Grown, but short of its cap.
    expect(await kinds(trapOf('1 4', '(drop (memory.grow (i32.const 1)))'))).toEqual(['trap', 'trap']);
    // Grown to its cap.
    expect(await kinds(trapOf('1 2', '(drop (memory.grow (i32.const 1)))'))).toEqual(['memory (discard)', 'trap']);
    // A refused grow short of the cap; the next call's trap is its own.
    expect(await kinds(trapOf('1 4', '(drop (memory.grow (i32.const 100)))'))).toEqual(['memory (discard)', 'trap']);
    // No exported memory at all.
    expect(await kinds('(module (func (export "pre_tool") (result i32) unreachable) (func (export "post_tool") (result i32) unreachable))')).toEqual(['trap', 'trap']);
  });
});

describe('extism adapter: what a guest is given', () => {
  it('cuts a fault message at 2,048 characters', async () => {
    const text = async (message: string) => {
      const created = await instantiate(await errorSetModule(message));
      if (!created.ok) throw new Error(created.fault.message);
      try {
        return faultOf(await created.instance.call('pre_tool', new Uint8Array(0))).fault.message;
      } finally {
        await created.instance.close();
      }
    };
    expect(await text('m'.repeat(2048))).toBe('m'.repeat(2048));
    expect(await text('m'.repeat(2049))).toBe(`${'m'.repeat(2048)}…`);
  });

  it("passes the hook's config: config_get answers the value", async () => {
    const key = 'greeting';
    const wat = extismModule(`(data (i32.const 0) "${key}")
      (func (export "pre_tool") (result i32) (local $k i64) (local $v i64) (local $i i32)
        ${dataToBlock('$k', key.length)}
        (local.set $v (call $config_get (local.get $k)))
        (if (i64.ne (local.get $v) (i64.const 0)) (then (call $output_set (local.get $v) (call $length (local.get $v)))))
        (i32.const 0))`);
    const outputOf = (config: Record<string, string>) =>
      withWat(wat, { config }, async (instance) => {
        const outcome = await instance.call('pre_tool', new Uint8Array(0));
        return outcome.type === 'output' && outcome.bytes !== null ? new TextDecoder().decode(outcome.bytes) : outcome.type;
      });
    expect(await outputOf({ greeting: 'hello' })).toBe('hello');
    expect(await outputOf({})).toBe('output');
  });

  it('runs _initialize once at creation, under the alloc budget, with the hook log; proc_exit there is a load fault', async () => {
    const wat = `(module
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
      (memory (export "memory") 1 1)
      (data (i32.const 0) "\\08\\00\\00\\00\\05\\00\\00\\00")
      (data (i32.const 8) "ready")
      (global $ran (mut i32) (i32.const 0))
      (func (export "_initialize")
        (global.set $ran (i32.add (global.get $ran) (i32.const 1)))
        (drop (call $alloc (i64.const 2097152)))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 64))))
      (func (export "pre_tool") (result i32)
        (if (i32.ne (global.get $ran) (i32.const 1)) (then unreachable))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 64)))
        (i32.const 0)))`;
    const created = await instantiate(await compileWatSource(wat), { memoryMb: 1 });
    if (!created.ok) throw new Error(created.fault.message);
    try {
      expect(created.logs).toEqual([refused(2_097_152, 1), { level: 'info', message: 'ready' }]);
      expect(await created.instance.call('pre_tool', new Uint8Array(0))).toEqual({ type: 'output', bytes: null, logs: [{ level: 'info', message: 'ready' }] });
    } finally {
      await created.instance.close();
    }
    const exits = await instantiate(
      await compileWatSource(`(module
        (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
        (memory (export "memory") 1 1)
        (func (export "_initialize") (call $exit (i32.const 3)))
        (func (export "pre_tool") (result i32) (i32.const 0)))`),
    );
    expect(exits).toEqual({ ok: false, fault: { kind: 'load', message: '_initialize called proc_exit(3)' }, logs: [] });
  });

  it("serves extism:host/user imports from the hostFunctions module's function exports; an import nobody provides is a load fault", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-hostfn-'));
    try {
      const file = join(dir, 'host.mjs');
      await writeFile(file, 'export function add_one(_context, x) { return x + 1n; }\nexport const version = 3;\n');
      const hostFunctions = pathToFileURL(file).href;
      const uses = (name: string) => `(module
        (import "extism:host/user" "${name}" (func $f (param i64) (result i64)))
        (memory (export "memory") 1 1)
        (func (export "pre_tool") (result i32)
          (if (i64.ne (call $f (i64.const 41)) (i64.const 42)) (then unreachable))
          (i32.const 0)))`;
      await withWat(uses('add_one'), { hostFunctions }, async (instance) =>
        expect(await instance.call('pre_tool', new Uint8Array(0))).toEqual({ type: 'output', bytes: null, logs: [] }),
      );
      for (const name of ['version', 'absent']) {
        const created = await instantiate(await compileWatSource(uses(name)), { hostFunctions });
        expect(created.ok).toBe(false);
        expect(!created.ok && created.fault.kind).toBe('load');
        expect(!created.ok && created.fault.message).toMatch(/^cannot instantiate: /);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
