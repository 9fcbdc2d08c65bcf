/**
 * A loaded hook's call path (host/runner/wasm-hook.ts): raw export calls
 * (`callExport`), the faults a call is answered with when it cannot run
 * (closed, quarantined, not exported, timed out, refused by the memory
 * budget), what counts towards quarantine, and which instance a session's
 * call reaches (reused, evicted, dropped on reload or past
 * `maxInstancesPerHook`). Real wasm on real worker threads; every runner is
 * made inside its test and closed in `finally`.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, type HookLogEntry, type HookRunnerOptions, type WasmHook } from '../../host/runner/index.ts';
import type { ListenerOutcome } from '../../host/events/index.ts';
import type { DecisionOf, PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { SOURCE_MAP_SECTION } from '../../host/runner/source-map.ts';
import { encodeName, encodeSection } from '../../host/runner/wasm-binary.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { extismModule } from '../helpers/wat-module.ts';

const session = (id: string): SessionInfo => ({ id, turn: 1, step: 1, cwd: '/workspace' });
const bash: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } };
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data));

/**
 * Every new instance logs "instantiated" from its start function (so a test sees which calls
 * made one). Its linear memory is 16 pages (1 MiB), at its maximum from the start, so each
 * instance reports 1 MiB to the memory budget. Exports: `pre_tool` (allow); plain exports
 * `echo` (output = input), `tag` (output "tag"), `silent` (no output), `refuse`
 * (error_set "refused by hook", returns 1), `spin` (never returns).
 */
const PLAIN = extismModule(`(data (i32.const 0) "\\81\\a6action\\a5allow")
  (data (i32.const 16) "refused by hook")
  (data (i32.const 32) "instantiated")
  (data (i32.const 48) "tag")
  ;; A new Extism block holding linear memory [ptr, ptr+len).
  (func $block (param $ptr i32) (param $len i32) (result i64)
    (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.get $b))
  (func $init (call $log_info (call $block (i32.const 32) (i32.const 12))))
  (start $init)
  (func (export "pre_tool") (result i32)
    (call $output_set (call $block (i32.const 0) (i32.const 14)) (i64.const 14))
    (i32.const 0))
  (func (export "tag") (result i32)
    (call $output_set (call $block (i32.const 48) (i32.const 3)) (i64.const 3))
    (i32.const 0))
  (func (export "silent") (result i32) (i32.const 0))
  (func (export "refuse") (result i32)
    (call $error_set (call $block (i32.const 16) (i32.const 15)))
    (i32.const 1))
  (func (export "spin") (result i32) (loop $forever (br $forever)) (i32.const 0))
  (func (export "echo") (result i32)
    (local $n i64) (local $b i64) (local $i i64)
    (local.set $n (call $input_length))
    (local.set $b (call $alloc (local.get $n)))
    (block $done (loop $copy
      (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
      (call $store_u8 (i64.add (local.get $b) (local.get $i)) (call $input_load_u8 (local.get $i)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $copy)))
    (call $output_set (local.get $b) (local.get $n))
    (i32.const 0))`, { memory: '16 16' });

const PLAIN_EXPORTS = ['echo', 'tag', 'silent', 'refuse', 'spin'];
const MIB = 1_048_576;

/** `pre_tool` fails with a plugin error whose text has a `hook.js:2:5` frame, as a JS engine's stack would. */
const FAILS_AT_FRAME = extismModule(`(data (i32.const 0) "Error: no at check (hook.js:2:5)")
  (func (export "pre_tool") (result i32)
    (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.const 32)))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (i32.const 32)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (call $error_set (local.get $b))
    (i32.const 1))
  (func (export "tag") (result i32) (i32.const 0))`);

/** `wasm` with a source map section: `hook.js` line 2 col 4 → line 2 col 5 of src/hook.ts. */
function withSourceMap(wasm: Uint8Array): Uint8Array {
  const map = JSON.stringify({ version: 3, sources: ['hookbox-cjs:src/hook.ts'], names: [], mappings: 'AAAA;IACI' });
  const section = encodeSection(0, [...encodeName(SOURCE_MAP_SECTION), ...new TextEncoder().encode(map)]);
  return Uint8Array.from([...wasm, ...section]);
}

/** Runs `body` with a one-worker runner and the PLAIN hook loaded; closes both whatever happens. */
async function withPlainHook(
  body: (hook: WasmHook, logs: HookLogEntry[], runner: HookRunner) => Promise<void>,
  options: { runner?: HookRunnerOptions; quarantineAfter?: number; timeoutMs?: number; plainExports?: readonly string[] } = {},
): Promise<void> {
  const logs: HookLogEntry[] = [];
  const runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry), ...options.runner });
  try {
    const hook = await runner.load({
      name: 'plain',
      wasm: await compileWatSource(PLAIN, 'plain.wat'),
      plainExports: options.plainExports ?? PLAIN_EXPORTS,
      limits: { memoryMb: 1, timeoutMs: options.timeoutMs ?? 5000 },
      ...(options.quarantineAfter !== undefined && { quarantineAfter: options.quarantineAfter }),
    });
    try {
      await body(hook, logs, runner);
    } finally {
      await hook.close();
    }
  } finally {
    await runner.close();
  }
}

function preTool(hook: WasmHook, id: string): Promise<ListenerOutcome<DecisionOf<'tools/pre-execute'>>> {
  return hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session(id) });
}

const ALLOWED = { type: 'decision', decision: { action: 'allow' } };

/** A `memory` fault with exactly `message`. */
const memoryFault = (message: string) => ({ type: 'fault', fault: expect.objectContaining({ kind: 'memory', message }) });

/** Sessions whose instance was made, in order (`''` for the one made at load). */
const instantiated = (logs: readonly HookLogEntry[]) => logs.filter((entry) => entry.message === 'instantiated').map((entry) => entry.session);

describe('WasmHook properties', () => {
  it('reports a wasm sandbox that checks its decisions, and carries tools and failPolicy only when given', async () => {
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    try {
      const wasm = await compileWatSource(PLAIN, 'plain.wat');
      const bare = await runner.load({ name: 'bare', wasm });
      const scoped = await runner.load({ name: 'scoped', wasm, tools: ['bash'], failPolicy: 'open' });
      try {
        expect(bare).toMatchObject({ sandbox: 'wasm', checksDecisions: true, exports: ['tools/pre-execute'], seams: ['tools/pre-execute'] });
        expect(bare.digest).toBe(bare.sha256);
        expect(bare.tools).toBeUndefined();
        expect(bare.failPolicy).toBeUndefined();
        expect(scoped.tools).toEqual(['bash']);
        expect(scoped.failPolicy).toBe('open');
      } finally {
        await bare.close();
        await scoped.close();
      }
    } finally {
      await runner.close();
    }
  });
});

describe('callExport', () => {
  it('serves each plain export by name, with the raw input and output bytes', async () => {
    await withPlainHook(async (hook) => {
      expect(await hook.callExport('echo', bytes('hello, hook'), 's1')).toEqual({ type: 'output', output: bytes('hello, hook') });
      const tagged = await hook.callExport('tag', bytes('ignored'), 's1');
      expect(tagged.type === 'output' && text(tagged.output)).toBe('tag');
      const silent = await hook.callExport('silent', bytes(''), 's1');
      expect(silent.type).toBe('output');
      expect(silent.type === 'output' && (silent.output ?? new Uint8Array()).byteLength).toBe(0);
    });
  });

  it('answers a name that is not a plain export with a missing-export fault, without running anything', async () => {
    await withPlainHook(async (hook, logs) => {
      expect(await hook.callExport('pre_tool', bytes(''), 's1')).toEqual({
        type: 'fault',
        fault: expect.objectContaining({ kind: 'missing-export', message: `export "pre_tool" is not among the hook's plainExports` }),
      });
      // Not a call: the load-time instance was not handed to the session.
      expect(instantiated(logs)).toEqual(['']);
    });
  });

  it('a hook loaded without plainExports serves none', async () => {
    await withPlainHook(
      async (hook) => {
        const outcome = await hook.callExport('echo', bytes('x'), 's1');
        expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'missing-export', message: `export "echo" is not among the hook's plainExports` } });
      },
      { plainExports: [] },
    );
  });

  it("a plugin error is the call's fault and counts towards the session's quarantine; an output resets the count", async () => {
    await withPlainHook(
      async (hook) => {
        const refused = await hook.callExport('refuse', bytes(''), 's1');
        expect(refused).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
        expect(refused.type === 'fault' && refused.fault.message).toContain('refused by hook');
        expect((await hook.callExport('echo', bytes('ok'), 's1')).type).toBe('output');
        await hook.callExport('refuse', bytes(''), 's1');
        expect(hook.isQuarantined('s1')).toBe(false);
        await hook.callExport('refuse', bytes(''), 's1');
        expect(hook.isQuarantined('s1')).toBe(true);
        expect(hook.isQuarantined('s2')).toBe(false);
        // Quarantined: even a healthy export faults at once (as the last fault did), for this session only.
        const quarantined = {
          type: 'fault',
          fault: expect.objectContaining({ kind: 'plugin-error', message: expect.stringMatching(/^quarantined for this session after 2 consecutive faults \(last: .*refused by hook/) }),
        };
        expect(await hook.callExport('echo', bytes('ok'), 's1')).toEqual(quarantined);
        expect(await preTool(hook, 's1')).toEqual(quarantined);
        expect(await hook.callExport('echo', bytes('ok'), 's2')).toEqual({ type: 'output', output: bytes('ok') });
      },
      { quarantineAfter: 2 },
    );
  });

  it('a call past the deadline is a timeout fault, and the session gets a fresh instance next', async () => {
    await withPlainHook(
      async (hook, logs) => {
        expect(await hook.callExport('spin', bytes(''), 's1')).toEqual({
          type: 'fault',
          fault: expect.objectContaining({ kind: 'timeout', message: 'no answer within 200 ms; the worker was terminated' }),
        });
        expect(instantiated(logs)).toEqual(['']);
        expect(await hook.callExport('echo', bytes('again'), 's1')).toEqual({ type: 'output', output: bytes('again') });
        expect(instantiated(logs)).toEqual(['', 's1']);
      },
      { timeoutMs: 200 },
    );
  });

  it('a closed hook answers every call with a load fault naming it', async () => {
    await withPlainHook(async (hook) => {
      await hook.close();
      const closed = { type: 'fault', fault: expect.objectContaining({ kind: 'load', message: 'hook "plain" is closed' }) };
      expect(await hook.callExport('echo', bytes('x'), 's1')).toEqual(closed);
      expect(await preTool(hook, 's1')).toEqual(closed);
    });
  });
});

describe('invoke', () => {
  it('a seam the module does not export is a missing-export fault that counts towards quarantine', async () => {
    await withPlainHook(
      async (hook) => {
        const call = () =>
          hook.invoke({
            seam: 'tools/post-execute',
            payload: { toolCallId: 'c1', toolName: 'bash', arguments: {}, result: { content: 'x', isError: false } },
            next: { action: 'accept' },
            session: session('s1'),
          });
        expect(await call()).toEqual({
          type: 'fault',
          fault: expect.objectContaining({ kind: 'missing-export', message: 'the module does not export "post_tool" for tools/post-execute' }),
        });
        expect(hook.isQuarantined('s1')).toBe(false);
        await call();
        expect(hook.isQuarantined('s1')).toBe(true);
        expect(await preTool(hook, 's2')).toEqual(ALLOWED);
      },
      { quarantineAfter: 2 },
    );
  });
});

describe('plugin-error stacks', () => {
  it("point a plugin error's hook.js frames at the author's source, and leave the runner's own messages as they are", async () => {
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    try {
      const wasm = withSourceMap(await compileWatSource(FAILS_AT_FRAME, 'fails-at-frame.wat'));
      const hook = await runner.load({ name: 'mapped', wasm, plainExports: ['tag'] });
      const unmapped = await runner.load({ name: 'unmapped', wasm: await compileWatSource(FAILS_AT_FRAME, 'fails-at-frame.wat') });
      try {
        const mapped = await preTool(hook, 's1');
        expect(mapped).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
        expect(mapped.type === 'fault' && mapped.fault.message).toContain('Error: no at check (src/hook.ts:2:5)');
        const plain = await preTool(unmapped, 's1');
        expect(plain.type === 'fault' && plain.fault.message).toContain('Error: no at check (hook.js:2:5)');
        // A fault the runner words (here naming what the caller asked for) is not a stack: never rewritten.
        expect(await hook.callExport('hook.js:2:5', new Uint8Array(), 's1')).toMatchObject({
          type: 'fault',
          fault: { kind: 'missing-export', message: `export "hook.js:2:5" is not among the hook's plainExports` },
        });
      } finally {
        await hook.close();
        await unmapped.close();
      }
    } finally {
      await runner.close();
    }
  });
});

describe('a worker lost under a queued call', () => {
  /**
   * Hooks `runaway` (plain export `spin`, which never returns, under `timeoutMs`) and `steady` on one
   * worker; `race` makes steady's call for s1 wait behind runaway's call for s1. Then runaway's call is a
   * timeout (the worker is terminated), and steady's still answers, on the worker that replaced it,
   * from an instance made once there.
   */
  async function afterRunaway(timeoutMs: number, race: (runaway: WasmHook, steady: WasmHook) => Promise<[unknown, unknown]>): Promise<void> {
    const logs: HookLogEntry[] = [];
    const runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
    try {
      const wasm = await compileWatSource(PLAIN, 'plain.wat');
      const runaway = await runner.load({ name: 'runaway', wasm, plainExports: ['spin'], limits: { timeoutMs } });
      const steady = await runner.load({ name: 'steady', wasm });
      try {
        const [spun, answered] = await race(runaway, steady);
        expect(spun).toMatchObject({ type: 'fault', fault: { kind: 'timeout' } });
        expect(answered).toEqual(ALLOWED);
        expect(steady.isQuarantined('s1')).toBe(false);
        expect(logs.filter((entry) => entry.message === 'instantiated').map((entry) => `${entry.hook}:${entry.session}`)).toEqual([
          'runaway:',
          'steady:',
          'steady:s1',
        ]);
      } finally {
        await runaway.close();
        await steady.close();
      }
    } finally {
      await runner.close();
    }
  }

  it("retries the call once on a fresh instance when another hook's runaway call got the worker terminated", async () => {
    // steady's load-time instance serves s1; its call waits behind the runaway one.
    await afterRunaway(300, (runaway, steady) => Promise.all([runaway.callExport('spin', new Uint8Array(), 's1'), preTool(steady, 's1')]));
  });

  it("an instantiation queued behind another hook's runaway is made again on the fresh worker, not a load fault", async () => {
    await afterRunaway(1_000, async (runaway, steady) => {
      // s0 takes steady's load-time instance, so s1 needs a new one. The runaway call is posted within the
      // microtasks of its start (no I/O on the way), so once they have run (setImmediate) the worker is busy
      // with it, and s1's instantiation waits behind it.
      expect(await preTool(steady, 's0')).toEqual(ALLOWED);
      const spinning = runaway.callExport('spin', new Uint8Array(), 's1');
      await new Promise((resolve) => setImmediate(resolve));
      return Promise.all([spinning, preTool(steady, 's1')]);
    });
  });
});

describe('instances per session', () => {
  it("an instance is charged its reported memory between calls, and the load-time one is dropped on reload", async () => {
    await withPlainHook(async (hook, _logs, runner) => {
      expect(runner.memory).toMatchObject({ instances: 1, usedBytes: MIB });
      await hook.reload();
      expect(runner.memory).toMatchObject({ instances: 0, usedBytes: 0 });
      await preTool(hook, 's1');
      await preTool(hook, 's2');
      expect(runner.memory).toMatchObject({ instances: 2, usedBytes: 2 * MIB });
    });
  });

  it('a session keeps its instance; reload and close drop them all, and the next call makes a new one', async () => {
    await withPlainHook(async (hook, logs, runner) => {
      await preTool(hook, 's1');
      await preTool(hook, 's2');
      await preTool(hook, 's1');
      expect(instantiated(logs)).toEqual(['', 's2']);
      expect(runner.memory.instances).toBe(2);
      await hook.reload();
      expect(runner.memory.instances).toBe(0);
      expect(runner.memory.usedBytes).toBe(0);
      await preTool(hook, 's1');
      expect(instantiated(logs)).toEqual(['', 's2', 's1']);
      await hook.close();
      expect(runner.memory.instances).toBe(0);
    });
  });

  it("a hook's load-time instance goes to the first session bound to its worker; a session bound elsewhere gets its own there", async () => {
    const logs: HookLogEntry[] = [];
    const runner = await HookRunner.start({ workers: 2, spareWorker: false, onLog: (entry) => logs.push(entry) });
    try {
      const wasm = await compileWatSource(PLAIN, 'plain.wat');
      const first = await runner.load({ name: 'first', wasm });
      await preTool(first, 's1'); // the load-time instance: s1 is bound to its worker
      await preTool(first, 's2'); // a new instance on the emptier worker: s2 is bound there
      const second = await runner.load({ name: 'second', wasm }); // made where load-time instances go: s1's worker
      try {
        await preTool(second, 's2');
        await preTool(second, 's1');
        expect(logs.filter((entry) => entry.message === 'instantiated').map((entry) => `${entry.hook}:${entry.session}`)).toEqual([
          'first:',
          'first:s2',
          'second:',
          'second:s2',
        ]);
      } finally {
        await first.close();
        await second.close();
      }
    } finally {
      await runner.close();
    }
  });

  it('an instance the worker discarded (the guest called proc_exit) is replaced at the next call', async () => {
    const logs: HookLogEntry[] = [];
    const runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
    try {
      const wasm = await compileWatSource(`(module
        (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
        (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
        (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
        (import "extism:host/env" "log_info" (func $log_info (param i64)))
        (memory (export "memory") 1 1)
        (data (i32.const 0) "instantiated")
        (func $init (local $b i64) (local $i i32)
          (local.set $b (call $alloc (i64.const 12)))
          (block $end (loop $copy
            (br_if $end (i32.ge_u (local.get $i) (i32.const 12)))
            (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $copy)))
          (call $log_info (local.get $b)))
        (start $init)
        (func (export "pre_tool") (result i32) (call $exit (i32.const 3)) (i32.const 0)))`);
      const hook = await runner.load({ name: 'exits', wasm, quarantineAfter: 10 });
      try {
        for (let i = 0; i < 2; i++) expect(await preTool(hook, 's1')).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
        expect(instantiated(logs)).toEqual(['', 's1']);
      } finally {
        await hook.close();
      }
    } finally {
      await runner.close();
    }
  });

  it('past maxInstancesPerHook the least recently used session loses its instance', async () => {
    await withPlainHook(
      async (hook, logs, runner) => {
        await preTool(hook, 'a');
        await preTool(hook, 'b');
        await preTool(hook, 'a'); // a is now the most recently used
        expect(instantiated(logs)).toEqual(['', 'b']);
        await preTool(hook, 'c'); // drops b's
        expect(runner.memory.instances).toBe(2);
        await preTool(hook, 'a');
        expect(instantiated(logs)).toEqual(['', 'b', 'c']);
        await preTool(hook, 'b');
        expect(instantiated(logs)).toEqual(['', 'b', 'c', 'b']);
      },
      { runner: { maxInstancesPerHook: 2 } },
    );
  });

  it('prepareSession makes the instance ahead, but not for a closed hook', async () => {
    await withPlainHook(async (hook, logs, runner) => {
      hook.prepareSession?.(session('s1'));
      hook.prepareSession?.(session('s2'));
      await expect.poll(() => instantiated(logs)).toEqual(['', 's2']);
      await hook.close();
      hook.prepareSession?.(session('s3'));
      // Nothing was even queued: an instance is charged to the budget as soon as it is asked for.
      expect(runner.memory.instances).toBe(0);
      await preTool(hook, 's3');
      expect(instantiated(logs)).toEqual(['', 's2']);
    });
  });
});

describe('the memory budget', () => {
  // PLAIN with memoryMb 1: one instance may hold 1 MiB of linear memory + 1 MiB of Extism
  // allocations + 64 KiB of vars = 2.0625 MiB (its cap, charged while it runs); idle, it is
  // charged the 1 MiB it reports.
  it('a new instance that cannot fit beside a queued call is a memory fault that does not count towards quarantine', async () => {
    await withPlainHook(
      async (hook, logs) => {
        // a takes the load-time instance and pins it; b's instantiation starts first on the worker,
        // and cannot fit its cap beside a's pinned 1 MiB within 2.5 MiB.
        const [a, b] = await Promise.all([preTool(hook, 'a'), preTool(hook, 'b')]);
        expect(a).toEqual(ALLOWED);
        expect(b).toEqual(
          memoryFault("the runner's memory budget (2.5 MiB) cannot fit this new instance: it needs 2.1 MiB more and 1 MiB are held by instances with calls queued or running"),
        );
        expect(hook.isQuarantined('b')).toBe(false);
        // Alone, b fits: a's idle instance is evicted for it, and a's session is told.
        expect(await preTool(hook, 'b')).toEqual(ALLOWED);
        expect(logs.filter((entry) => entry.level === 'warn')).toEqual([
          {
            hook: 'plain',
            level: 'warn',
            session: 'a',
            message: "instance dropped to stay within the runner's memory budget (2.5 MiB); this session's state (Var) is lost",
          },
        ]);
        // The refused instantiation never ran (no start function): one instance made for b.
        expect(instantiated(logs)).toEqual(['', 'b']);
      },
      { quarantineAfter: 1, runner: { memoryBudgetMb: 2.5 } },
    );
  });

  it('a call that cannot fit beside a running one is a memory fault that does not count towards quarantine', async () => {
    await withPlainHook(
      async (hook, logs) => {
        await preTool(hook, 'a');
        await preTool(hook, 'b'); // 1 + 1 MiB idle, and room for one call's cap
        // b's call starts as soon as a's is answered, before a's charge drops back.
        const [a, b] = await Promise.all([preTool(hook, 'a'), preTool(hook, 'b')]);
        expect(a).toEqual(ALLOWED);
        expect(b).toEqual(
          memoryFault("the runner's memory budget (3.5 MiB) cannot fit this call: it needs 1.1 MiB more and 3.1 MiB are held by instances with calls queued or running"),
        );
        expect(hook.isQuarantined('b')).toBe(false);
        expect(await preTool(hook, 'b')).toEqual(ALLOWED);
        // Refused calls keep the session's instance.
        expect(instantiated(logs)).toEqual(['', 'b']);
      },
      { quarantineAfter: 1, runner: { memoryBudgetMb: 3.5 } },
    );
  });

  it('evicting with no log listener set is silent, and each eviction is still counted', async () => {
    const runner = await HookRunner.start({ workers: 1, spareWorker: false, memoryBudgetMb: 2.5 });
    try {
      const hook = await runner.load({ name: 'plain', wasm: await compileWatSource(PLAIN, 'plain.wat'), limits: { memoryMb: 1 } });
      try {
        expect(await preTool(hook, 'a')).toEqual(ALLOWED);
        expect(await preTool(hook, 'b')).toEqual(ALLOWED); // evicts a's instance
        expect(await preTool(hook, 'a')).toEqual(ALLOWED); // evicts b's
        expect(runner.memory).toMatchObject({ instances: 1, evictions: 2 });
      } finally {
        await hook.close();
      }
    } finally {
      await runner.close();
    }
  });

  it('evicting the idle load-time instance of another hook logs nothing, and that hook makes a new one when called', async () => {
    const logs: HookLogEntry[] = [];
    const runner = await HookRunner.start({ workers: 1, spareWorker: false, memoryBudgetMb: 2.5, onLog: (entry) => logs.push(entry) });
    try {
      const wasm = await compileWatSource(PLAIN, 'plain.wat');
      const first = await runner.load({ name: 'first', wasm, limits: { memoryMb: 1 } });
      const second = await runner.load({ name: 'second', wasm, limits: { memoryMb: 1 } }); // evicts first's
      try {
        expect(runner.memory.evictions).toBe(1);
        expect(await preTool(first, 's1')).toEqual(ALLOWED);
        expect(logs.filter((entry) => entry.level === 'warn')).toEqual([]);
        expect(logs.filter((entry) => entry.message === 'instantiated').map((entry) => `${entry.hook}:${entry.session}`)).toEqual([
          'first:',
          'second:',
          'first:s1',
        ]);
      } finally {
        await first.close();
        await second.close();
      }
    } finally {
      await runner.close();
    }
  });
});
