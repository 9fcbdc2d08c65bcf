/**
 * `HookRunner.start` and `load` (host/runner/runner.ts): the options'
 * defaults, every reason a hook is refused at load (with the message naming
 * its file), what a hook's spec hands to its instances (config, limits,
 * capabilities, codec, log cap, host functions) and the defaults a spec
 * leaves to the runner (quarantine, instances per hook, load timeout).
 * Real wasm on real worker threads; every runner is made inside its test and
 * closed in `finally`.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookLoadError } from '../../host/errors.ts';
import { defaultMemoryBudgetBytes } from '../../host/runner/memory-budget.ts';
import { HookRunner, type HookCodec, type HookLogEntry, type HookRunnerOptions, hookboxCodec } from '../../host/runner/index.ts';
import { WARM_UP_SESSION } from '../../host/runner/warm-up.ts';
import type { PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { compileWat, compileWatSource } from '../helpers/wat.ts';
import { extismModule } from '../helpers/wat-module.ts';

const session = (id: string): SessionInfo => ({ id, turn: 1, step: 1, cwd: '/workspace' });
const bash: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } };
const bytes = (text: string) => new TextEncoder().encode(text);
const MIB = 1_048_576;

/**
 * `pre_tool` answers nothing (no opinion); plain export `config` answers the config value named
 * by its input (no output when unset); `fetch` sends the HTTP request its input describes and
 * answers the status (u64, little-endian); `logs` logs "line" three times. Linear memory 1..16
 * pages: with memoryMb 1 an instance may hold 1 + 1 MiB + 64 KiB of vars = 2.0625 MiB.
 */
const CONFIG = extismModule(`(data (i32.const 0) "line")
  (func (export "pre_tool") (result i32) (i32.const 0))
  ;; A new Extism block holding the call's input.
  (func $input (result i64)
    (local $n i64) (local $b i64) (local $i i64)
    (local.set $n (call $input_length))
    (local.set $b (call $alloc (local.get $n)))
    (block $done (loop $copy
      (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
      (call $store_u8 (i64.add (local.get $b) (local.get $i)) (call $input_load_u8 (local.get $i)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $copy)))
    (local.get $b))
  (func (export "fetch") (result i32)
    (local $out i64)
    (drop (call $http_request (call $input) (i64.const 0)))
    (local.set $out (call $alloc (i64.const 8)))
    (call $store_u64 (local.get $out) (i64.extend_i32_u (call $http_status_code)))
    (call $output_set (local.get $out) (i64.const 8))
    (i32.const 0))
  (func (export "config") (result i32)
    (local $value i64)
    (local.set $value (call $config_get (call $input)))
    (if (i64.ne (local.get $value) (i64.const 0))
      (then (call $output_set (local.get $value) (call $length (local.get $value)))))
    (i32.const 0))
  (func $line (result i64)
    (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.const 4)))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (i32.const 4)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.get $b))
  (func (export "logs") (result i32)
    (call $log_info (call $line))
    (call $log_info (call $line))
    (call $log_info (call $line))
    (i32.const 0))`, { memory: '1 16' });

/** No linear memory at all; `pre_tool` answers nothing. */
const NO_MEMORY = `(module (func (export "pre_tool") (result i32) (i32.const 0)))`;

/** Only a plain export (`tag`, no output): no seam at all. */
const PLAIN_ONLY = `(module (memory (export "memory") 1 1) (func (export "tag") (result i32) (i32.const 0)))`;

/** hookbox's codec, noting the session of every call it encodes in `sessions`. */
function recordingCodec(sessions: string[]): HookCodec {
  return {
    name: 'recording',
    encode: (call) => {
      sessions.push(call.session.id);
      return hookboxCodec.encode(call);
    },
    decode: (seam, reply) => hookboxCodec.decode(seam, reply),
  };
}

async function withRunner(options: HookRunnerOptions, body: (runner: HookRunner) => Promise<void>): Promise<void> {
  const runner = await HookRunner.start({ workers: 1, spareWorker: false, ...options });
  try {
    await body(runner);
  } finally {
    await runner.close();
  }
}

/** The HookLoadError `promise` rejects with: its message. */
async function loadError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HookLoadError);
  return (error as Error).message;
}

describe('HookRunner.start', () => {
  it('budgets memoryBudgetMb MiB, or by default the smaller of 1 GiB and a quarter of RAM, and starts with nothing charged', async () => {
    await withRunner({}, async (runner) => {
      expect(runner.memory).toEqual({ budgetBytes: defaultMemoryBudgetBytes(), usedBytes: 0, instances: 0, evictions: 0 });
    });
    await withRunner({ memoryBudgetMb: 3 }, async (runner) => {
      expect(runner.memory.budgetBytes).toBe(3 * MIB);
    });
  });

  it('starts the worker slots asked for, plus a spare unless told not to', async () => {
    await withRunner({ workers: 1, spareWorker: false }, async (runner) => expect(runner.workersStarted).toBe(1));
    const runner = await HookRunner.start({ workers: 1 });
    try {
      await expect.poll(() => runner.workersStarted).toBe(2);
    } finally {
      await runner.close();
    }
  });
});

describe('load refuses', () => {
  it('bytes whose sha256 is not the pinned one, naming the source and both digests', async () => {
    const wasm = await compileWatSource(CONFIG, 'config.wat');
    const actual = createHash('sha256').update(wasm).digest('hex');
    const pinned = '0'.repeat(64);
    await withRunner({}, async (runner) => {
      expect(await loadError(runner.load({ name: 'cfg', wasm, sha256: pinned }))).toBe(
        `cfg.wasm: sha256 mismatch: the manifest pins ${pinned}, the file has ${actual}; refusing to load`,
      );
      expect(await loadError(runner.load({ name: 'cfg', wasm, sha256: pinned, source: 'hooks/cfg.wasm' }))).toMatch(/^hooks\/cfg\.wasm: sha256 mismatch/);
      const hook = await runner.load({ name: 'cfg', wasm, sha256: actual });
      try {
        expect(hook.sha256).toBe(actual);
      } finally {
        await hook.close();
      }
    });
  });

  it('a wasm path that cannot be read, and names a path it read in its other messages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-load-'));
    try {
      const missing = join(dir, 'absent.wasm');
      const file = join(dir, 'cfg.wasm');
      await writeFile(file, await compileWatSource(CONFIG, 'config.wat'));
      await withRunner({}, async (runner) => {
        expect(await loadError(runner.load({ name: 'absent', wasm: missing }))).toBe(`${missing}: cannot read the wasm file (ENOENT)`);
        expect(await loadError(runner.load({ name: 'cfg', wasm: file, sha256: '0'.repeat(64) }))).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: sha256 mismatch`));
        const hook = await runner.load({ name: 'cfg', wasm: file });
        try {
          expect(hook.exports).toEqual(['tools/pre-execute']);
        } finally {
          await hook.close();
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a plain export the module does not export, listing what it does', async () => {
    await withRunner({}, async (runner) => {
      const wasm = await compileWatSource(CONFIG, 'config.wat');
      expect(await loadError(runner.load({ name: 'cfg', wasm, plainExports: ['config', 'absent'] }))).toBe(
        'cfg.wasm: hook "cfg" is configured to serve export "absent" but the module does not export it (it exports: pre_tool, fetch, config, logs)',
      );
    });
  });

  it('a module with no seam export, unless it is loaded for plain exports', async () => {
    await withRunner({}, async (runner) => {
      const wasm = await compileWatSource(PLAIN_ONLY, 'plain-only.wat');
      expect(await loadError(runner.load({ name: 'bare', wasm }))).toBe(
        'bare.wasm: exports no seam function (expected one of session_start, prompt_submit, pre_tool, permission_request, post_tool, subagent_start, subagent_stop, turn_continuation, notification, pre_compact, session_end)',
      );
      const hook = await runner.load({ name: 'bare', wasm, plainExports: ['tag'] });
      try {
        expect(hook.exports).toEqual([]);
        expect(await hook.callExport('tag', bytes(''), 's1')).toEqual({ type: 'output', output: null });
      } finally {
        await hook.close();
      }
    });
  });

  it('a module WebAssembly cannot compile, naming the source that was loaded (a failed compile is not cached)', async () => {
    // PLAIN_ONLY with its function body's `i32.const 0` turned into `i64.const 0`: a type error.
    const wasm = await compileWatSource(PLAIN_ONLY, 'plain-only.wat');
    const at = wasm.lastIndexOf(0x41);
    expect(wasm.subarray(at, at + 3)).toEqual(Uint8Array.from([0x41, 0x00, 0x0b]));
    wasm[at] = 0x42;
    await withRunner({}, async (runner) => {
      expect(await loadError(runner.load({ name: 'first', wasm, plainExports: ['tag'] }))).toMatch(/^first\.wasm: WebAssembly compile failed: \S/);
      expect(await loadError(runner.load({ name: 'second', wasm, plainExports: ['tag'] }))).toMatch(/^second\.wasm: WebAssembly compile failed: /);
    });
  });

  it('a configured seam the module does not export', async () => {
    await withRunner({}, async (runner) => {
      const wasm = await compileWatSource(CONFIG, 'config.wat');
      expect(await loadError(runner.load({ name: 'cfg', wasm, seams: ['tools/pre-execute', 'tools/post-execute'] }))).toBe(
        'cfg.wasm: hook "cfg" is configured for tools/post-execute but the module does not export "post_tool" (it exports: pre_tool)',
      );
    });
  });

  it('a hook one instance of which could hold more than the whole memory budget; one that just fits loads', async () => {
    const wasm = await compileWatSource(CONFIG, 'config.wat');
    // 16 pages of linear memory + memoryMb 1 of Extism allocations + 64 KiB of vars.
    const capMb = 2 + 1 / 16;
    await withRunner({ memoryBudgetMb: capMb - 1 / 1024 }, async (runner) => {
      expect(await loadError(runner.load({ name: 'cfg', wasm, limits: { memoryMb: 1 } }))).toBe(
        `cfg.wasm: one instance of hook "cfg" may hold up to 2.1 MiB (memoryMb 1: linear memory, Extism allocations and vars), more than the runner's whole memory budget of 2.1 MiB (memoryBudgetMb); lower memoryMb or raise the budget`,
      );
    });
    await withRunner({ memoryBudgetMb: capMb }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm, limits: { memoryMb: 1 } });
      try {
        expect(runner.memory.instances).toBe(1);
      } finally {
        await hook.close();
      }
    });
    // Without linear memory: only the Extism allocations and vars.
    await withRunner({ memoryBudgetMb: 1 + 1 / 16 }, async (runner) => {
      const hook = await runner.load({ name: 'no-memory', wasm: await compileWatSource(NO_MEMORY, 'no-memory.wat'), limits: { memoryMb: 1 } });
      try {
        expect(runner.memory.instances).toBe(1);
      } finally {
        await hook.close();
      }
    });
  });

  it('a module whose start function never returns, after at least the minimum load timeout, and keeps nothing of it', async () => {
    await withRunner({}, async (runner) => {
      expect(await loadError(runner.load({ name: 'stuck', wasm: await compileWat('start-never-returns'), limits: { timeoutMs: 100 } }))).toBe(
        'stuck.wasm: instantiation did not finish within 1000 ms (a start function that never returns?)',
      );
      expect(runner.memory).toMatchObject({ usedBytes: 0, instances: 0 });
    });
  });

  it('a granted path that does not exist or is not a directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-load-'));
    try {
      const file = join(dir, 'file.txt');
      await writeFile(file, 'x');
      const missing = join(dir, 'absent');
      await withRunner({}, async (runner) => {
        const wasm = await compileWat('wasi-attempts');
        const load = (host: string) => runner.load({ name: 'wasi', wasm, capabilities: { allowedPaths: { [host]: '/data' } } });
        expect(await loadError(load(missing))).toBe(`wasi.wasm: granted path ${missing} cannot be opened (ENOENT)`);
        expect(await loadError(load(file))).toBe(`wasi.wasm: granted path ${file} is not a directory`);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('what a spec hands to its instances', () => {
  const config = (hook: { callExport: (name: string, input: Uint8Array, session: string) => Promise<unknown> }, key: string) =>
    hook.callExport('config', bytes(key), 's1').then((outcome) => {
      const { type, output } = outcome as { type: string; output?: Uint8Array | null };
      expect(type).toBe('output');
      return output === null || output === undefined ? null : new TextDecoder().decode(output);
    });

  it("config values, the instruction budget when set, and the engine heap limit (three quarters of memoryMb) unless the spec sets it", async () => {
    await withRunner({}, async (runner) => {
      const wasm = await compileWatSource(CONFIG, 'config.wat');
      const plain = await runner.load({ name: 'plain', wasm, plainExports: ['config'], limits: { memoryMb: 2 }, config: { greeting: 'hi' } });
      const set = await runner.load({
        name: 'set',
        wasm,
        plainExports: ['config'],
        limits: { memoryMb: 2, instructionBudget: 5_000_000 },
        config: { 'hookbox.memoryLimitBytes': '1000' },
      });
      try {
        expect(await config(plain, 'greeting')).toBe('hi');
        expect(await config(plain, 'hookbox.memoryLimitBytes')).toBe(String(2 * MIB * 0.75));
        expect(await config(plain, 'hookbox.instructionBudget')).toBeNull();
        expect(await config(set, 'hookbox.memoryLimitBytes')).toBe('1000');
        expect(await config(set, 'hookbox.instructionBudget')).toBe('5000000');
        expect(await config(set, 'greeting')).toBeNull();
      } finally {
        await plain.close();
        await set.close();
      }
    });
  });

  it("the spec's codec encodes every call, warm-up calls included when the runner warms up", async () => {
    const sessions: string[] = [];
    const codec = recordingCodec(sessions);
    const wasm = await compileWatSource(CONFIG, 'config.wat');
    await withRunner({}, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm, codec });
      try {
        await runner.warmedUp();
        expect(await hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s1') })).toEqual({ type: 'no-opinion' });
        expect(sessions).toEqual(['s1']);
      } finally {
        await hook.close();
      }
    });
    sessions.length = 0;
    await withRunner({ warmUp: true }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm, codec });
      try {
        await runner.warmedUp();
        expect(sessions.length).toBeGreaterThan(0);
        expect(new Set(sessions)).toEqual(new Set([WARM_UP_SESSION.id]));
      } finally {
        await hook.close();
      }
    });
  });

  it('closing a hook stops its warm-up before any synthetic call', async () => {
    const sessions: string[] = [];
    const codec = recordingCodec(sessions);
    await withRunner({ warmUp: true }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm: await compileWatSource(CONFIG, 'config.wat'), codec });
      await hook.close(); // the warm-up's instance is still being made
      await runner.warmedUp();
      expect(sessions).toEqual([]);
    });
  });

  it('a warm-up that fails is a debug line in the hook log, and the hook still serves', async () => {
    const logs: HookLogEntry[] = [];
    const codec: HookCodec = {
      name: 'fails-at-warm-up',
      encode: (call) => {
        if (call.session.id === WARM_UP_SESSION.id) throw new Error('no warm-up here');
        return hookboxCodec.encode(call);
      },
      decode: (seam, reply) => hookboxCodec.decode(seam, reply),
    };
    await withRunner({ warmUp: true, onLog: (entry) => logs.push(entry) }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm: await compileWatSource(CONFIG, 'config.wat'), codec });
      try {
        await runner.warmedUp();
        expect(logs).toEqual([{ hook: 'cfg', level: 'debug', message: 'warm-up stopped: no warm-up here', session: '' }]);
        expect(await hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s1') })).toEqual({ type: 'no-opinion' });
      } finally {
        await hook.close();
      }
    });
  });

  it("the runner's log cap", async () => {
    const logs: HookLogEntry[] = [];
    const wasm = await compileWatSource(CONFIG, 'config.wat');
    await withRunner({ onLog: (entry) => logs.push(entry), logCap: { lines: 1, bytes: 1024 } }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm, plainExports: ['logs'] });
      try {
        await hook.callExport('logs', bytes(''), 's1');
        expect(logs.filter((entry) => entry.message === 'line')).toHaveLength(1);
      } finally {
        await hook.close();
      }
    });
    logs.length = 0;
    await withRunner({ onLog: (entry) => logs.push(entry) }, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm, plainExports: ['logs'] });
      try {
        await hook.callExport('logs', bytes(''), 's1');
        expect(logs).toEqual(Array.from({ length: 3 }, () => ({ hook: 'cfg', level: 'info', message: 'line', session: 's1' })));
      } finally {
        await hook.close();
      }
    });
  });

  it("the spec's host functions module serves its extism:host/user imports", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-hostfn-'));
    try {
      const file = join(dir, 'host.mjs');
      await writeFile(file, 'export function add_one(_context, x) { return x + 1n; }\n');
      const wasm = await compileWatSource(`(module
        (import "extism:host/user" "add_one" (func $f (param i64) (result i64)))
        (memory (export "memory") 1 1)
        (func (export "pre_tool") (result i32)
          (if (i64.ne (call $f (i64.const 41)) (i64.const 42)) (then unreachable))
          (i32.const 0)))`);
      await withRunner({}, async (runner) => {
        expect(await loadError(runner.load({ name: 'hostfn', wasm }))).toMatch(/^hostfn\.wasm: cannot instantiate: /);
        const hook = await runner.load({ name: 'hostfn', wasm, hostFunctions: pathToFileURL(file).href });
        try {
          expect(await hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s1') })).toEqual({ type: 'no-opinion' });
        } finally {
          await hook.close();
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('granted hosts: http_request reaches a granted host, and no host without a grant', async () => {
    const server = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const request = bytes(JSON.stringify({ method: 'GET', url: `http://127.0.0.1:${port}/` }));
      const status = (outcome: { type: string; output?: Uint8Array | null }) =>
        outcome.type === 'output' && outcome.output ? new DataView(outcome.output.buffer, outcome.output.byteOffset).getUint32(0, true) : -1;
      await withRunner({}, async (runner) => {
        const wasm = await compileWatSource(CONFIG, 'config.wat');
        const granted = await runner.load({ name: 'granted', wasm, plainExports: ['fetch'], capabilities: { allowedHosts: ['127.0.0.1'] } });
        const denied = await runner.load({ name: 'denied', wasm, plainExports: ['fetch'], capabilities: { allowedHosts: [] } });
        try {
          expect(status(await granted.callExport('fetch', request, 's1'))).toBe(204);
          expect(status(await denied.callExport('fetch', request, 's1'))).toBe(0);
        } finally {
          await granted.close();
          await denied.close();
        }
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('WASI capabilities: the clock, granted environment variables that are set, and granted paths', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-load-'));
    process.env.HOOKBOX_LOAD_SPEC_SET = 'yes';
    delete process.env.HOOKBOX_LOAD_SPEC_UNSET;
    try {
      await withRunner({}, async (runner) => {
        const wasm = await compileWat('wasi-attempts');
        const leaked = async (capabilities: NonNullable<Parameters<HookRunner['load']>[0]['capabilities']>) => {
          const hook = await runner.load({ name: 'wasi', wasm, capabilities });
          try {
            const outcome = await hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s1') });
            return outcome.type === 'decision' && outcome.decision.action === 'deny' ? outcome.decision.reason : 'nothing';
          } finally {
            await hook.close();
          }
        };
        const none = await leaked({});
        expect(none).not.toMatch(/clock|env|fs/);
        expect(await leaked({ env: ['HOOKBOX_LOAD_SPEC_UNSET'] })).toBe(none);
        expect(await leaked({ env: ['HOOKBOX_LOAD_SPEC_SET'] })).toMatch(/\benv\b/);
        expect(await leaked({ clock: true })).toMatch(/\bclock\b/);
        expect(await leaked({ allowedPaths: { [dir]: '/data' } })).toMatch(/\bfs\b/);
      });
    } finally {
      delete process.env.HOOKBOX_LOAD_SPEC_SET;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('what a spec leaves to the runner', () => {
  it('quarantine after 3 consecutive faults in a session', async () => {
    await withRunner({}, async (runner) => {
      const hook = await runner.load({ name: 'refuses', wasm: await compileWat('error-set') });
      try {
        const call = () => hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s1') });
        await call();
        await call();
        expect(hook.isQuarantined('s1')).toBe(false);
        await call();
        expect(hook.isQuarantined('s1')).toBe(true);
      } finally {
        await hook.close();
      }
    });
  });

  it('64 sessions keep an instance each; the 65th drops the least recently used', async () => {
    await withRunner({}, async (runner) => {
      const hook = await runner.load({ name: 'cfg', wasm: await compileWatSource(CONFIG, 'config.wat') });
      try {
        for (let i = 0; i < 64; i++) hook.prepareSession?.(session(`s${i}`));
        expect(runner.memory.instances).toBe(64);
        hook.prepareSession?.(session('s64'));
        expect(runner.memory.instances).toBe(64);
        expect(await hook.invoke({ seam: 'tools/pre-execute', payload: bash, next: { action: 'allow' }, session: session('s64') })).toEqual({ type: 'no-opinion' });
      } finally {
        await hook.close();
      }
    });
  });

  it('closing the runner closes every hook it loaded', async () => {
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    let closedAnswer: unknown;
    try {
      const hook = await runner.load({ name: 'cfg', wasm: await compileWatSource(CONFIG, 'config.wat'), plainExports: ['config'] });
      await runner.close();
      closedAnswer = await hook.callExport('config', bytes('x'), 's1');
    } finally {
      await runner.close();
    }
    expect(closedAnswer).toEqual({ type: 'fault', fault: expect.objectContaining({ kind: 'load', message: 'hook "cfg" is closed' }) });
  });
});
