/**
 * The hostile corpus is test infrastructure: if one of its byte strings is
 * off, a security test passes for the wrong reason. This suite pins what
 * tests/security/corpus/README.md promises: every file compiles, exports and
 * imports exactly what the table says, declares the stated memory maximum,
 * and the plugins that terminate on their own write the documented bytes
 * (run on the SDK's main thread, with nothing of the runner involved).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createPlugin, { type ExtismPluginOptions, type Plugin } from '@extism/extism';
import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { SEAM_EXPORTS } from '../../pdk/generated/seam-names.ts';
import {
  CORPUS_DIR,
  compileWat,
  compileWatSource,
  corpusPath,
  listCorpus,
  writeCorpusWasm,
} from '../helpers/wat.ts';

/** The parts of the runtime's `WebAssembly` global used here (the project's TS libs do not declare them). */
interface WasmModuleApi {
  Module: {
    new (bytes: Uint8Array): WebAssembly.Module;
    exports(module: WebAssembly.Module): { name: string; kind: string }[];
    imports(module: WebAssembly.Module): { module: string; name: string; kind: string }[];
  };
  validate(bytes: Uint8Array): boolean;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmModuleApi }).WebAssembly;

// The corpus was written against the seed's five seams and exports exactly
// those; a hostile hook is configured on the seams it exports, so the newer
// lifecycle seams (issue #51) add nothing the corpus must show again.
const CORPUS_SEAMS = ['session_start', 'prompt_submit', 'pre_tool', 'post_tool', 'turn_continuation'] as const satisfies readonly (typeof SEAM_EXPORTS)[number][];
const ALL_SEAMS = [...CORPUS_SEAMS];
const kernel = (...names: string[]) => names.map((name) => `extism:host/env::${name}`);
const wasi = (...names: string[]) => names.map((name) => `wasi_snapshot_preview1::${name}`);
const EMITS = kernel('alloc', 'store_u8', 'output_set');
const EMITS_WIDE = kernel('alloc', 'store_u8', 'store_u64', 'output_set');

interface Expected {
  /** Function exports (besides the `memory` export every file has). */
  exports: string[];
  /** Function imports as `module::name`; `env::memory` for the imported memory. */
  imports: string[];
  /** Declared maximum in 64 KiB pages; `null` = none. */
  maxPages: number | null;
}

const EXPECTED: Record<string, Expected> = {
  'alloc-bomb': { exports: ['pre_tool'], imports: EMITS_WIDE, maxPages: 16 },
  allow: { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
  'deep-nesting': { exports: ALL_SEAMS, imports: EMITS_WIDE, maxPages: 16 },
  deny: { exports: ['pre_tool', 'prompt_submit', 'post_tool'], imports: EMITS, maxPages: 16 },
  'echo-next': {
    exports: ALL_SEAMS,
    imports: kernel('input_length', 'input_load_u8', 'alloc', 'store_u8', 'output_set'),
    maxPages: 16,
  },
  'env-dump': {
    exports: ['pre_tool'],
    imports: [...wasi('environ_sizes_get', 'environ_get'), ...EMITS],
    maxPages: 16,
  },
  'error-set': { exports: ALL_SEAMS, imports: kernel('alloc', 'store_u8', 'error_set'), maxPages: 16 },
  flaky: { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
  'fd-hijack': { exports: ['pre_tool', 'post_tool'], imports: [...wasi('fd_close', 'fd_write'), ...EMITS], maxPages: 16 },
  'garbage-output': { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
  'imported-memory': { exports: ['pre_tool'], imports: ['env::memory', ...EMITS], maxPages: 16 },
  'infinite-loop': { exports: ALL_SEAMS, imports: [], maxPages: 16 },
  'input-rewrite': { exports: ['pre_tool'], imports: EMITS, maxPages: 16 },
  'kernel-misuse': {
    exports: ALL_SEAMS,
    imports: kernel('alloc', 'load_u64', 'output_set', 'error_set'),
    maxPages: 16,
  },
  'log-flood': {
    exports: ['pre_tool', 'post_tool'],
    imports: kernel('alloc', 'store_u8', 'store_u64', 'log_info', 'output_set'),
    maxPages: 16,
  },
  'memory-bomb': { exports: ALL_SEAMS, imports: [], maxPages: 65536 },
  'memory-bomb-capped': { exports: ALL_SEAMS, imports: [], maxPages: 256 },
  'missing-export': { exports: ['post_tool'], imports: EMITS, maxPages: 16 },
  'missing-reason': { exports: ['pre_tool', 'prompt_submit', 'post_tool'], imports: EMITS, maxPages: 16 },
  'no-memory-max': { exports: ALL_SEAMS, imports: EMITS, maxPages: null },
  'no-opinion': { exports: ALL_SEAMS, imports: [], maxPages: 16 },
  'nonzero-return': { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
  'out-of-bounds': { exports: ALL_SEAMS, imports: [], maxPages: 16 },
  'oversized-output': { exports: ['pre_tool', 'prompt_submit', 'post_tool'], imports: EMITS_WIDE, maxPages: 16 },
  'path-escape': {
    exports: ['pre_tool'],
    imports: [...wasi('path_open', 'path_unlink_file', 'fd_read', 'fd_close'), ...EMITS],
    maxPages: 16,
  },
  'proc-exit': { exports: ['pre_tool'], imports: [...wasi('proc_exit'), ...EMITS], maxPages: 16 },
  recursion: { exports: ALL_SEAMS, imports: [], maxPages: 16 },
  'start-never-returns': { exports: ['pre_tool'], imports: EMITS, maxPages: 16 },
  trap: { exports: ALL_SEAMS, imports: [], maxPages: 16 },
  'unknown-action': { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
  'unknown-import': { exports: ['pre_tool'], imports: [...kernel('does_not_exist'), ...EMITS], maxPages: 16 },
  'var-counter': {
    exports: ['pre_tool'],
    imports: kernel('alloc', 'store_u8', 'store_u64', 'load_u64', 'var_get', 'var_set', 'output_set'),
    maxPages: 16,
  },
  'var-flood': { exports: ['pre_tool'], imports: kernel('alloc', 'store_u8', 'var_set', 'output_set'), maxPages: 16 },
  'wasi-attempts': {
    exports: ['pre_tool'],
    imports: [
      ...wasi('environ_sizes_get', 'environ_get', 'path_open', 'fd_write', 'clock_time_get', 'random_get'),
      ...EMITS,
    ],
    maxPages: 16,
  },
  'wrong-shape': { exports: ALL_SEAMS, imports: EMITS, maxPages: 16 },
};

/** Reads an unsigned LEB128 at `at`; returns the value and the offset after it. */
function leb(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) return [value, at];
  }
}

/** The declared maximum (pages) of the module's one memory, defined or imported; `null` = none. */
function declaredMaxPages(bytes: Uint8Array): number | null {
  const limits = (at: number): number | null => (bytes[at] === 0 ? null : leb(bytes, leb(bytes, at + 1)[1])[0]);
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at]!;
    const [size, body] = leb(bytes, at + 1);
    if (id === 5) return limits(leb(bytes, body)[1]);
    if (id === 2) {
      let [count, p] = leb(bytes, body);
      for (; count > 0; count--) {
        for (let name = 0; name < 2; name++) {
          const [length, start] = leb(bytes, p);
          p = start + length;
        }
        const kind = bytes[p++];
        if (kind === 2) return limits(p);
        if (kind === 0) p = leb(bytes, p)[1];
        else if (kind === 1) p = bytes[p + 1] === 0 ? leb(bytes, p + 2)[1] : leb(bytes, leb(bytes, p + 2)[1])[1];
        else p += 2;
      }
    }
    at = body + size;
  }
  throw new Error('module has no memory');
}

describe('the corpus files', () => {
  it('are exactly the ones the README table lists', () => {
    expect(listCorpus()).toEqual(Object.keys(EXPECTED).sort());
    const readme = readFileSync(join(CORPUS_DIR, 'README.md'), 'utf8');
    for (const name of listCorpus()) expect(readme, name).toContain(`| \`${name}\` |`);
  });

  it.each(Object.entries(EXPECTED))('%s has the documented exports, imports and memory', async (name, expected) => {
    const bytes = await compileWat(name);
    const module = new wasm.Module(bytes);
    const exports = wasm.Module.exports(module);
    const functions = exports.filter((e) => e.kind === 'function').map((e) => e.name);
    expect(functions.sort()).toEqual([...expected.exports].sort());
    expect(exports.filter((e) => e.kind !== 'function')).toEqual([{ name: 'memory', kind: 'memory' }]);
    expect(wasm.Module.imports(module).map((i) => `${i.module}::${i.name}`)).toEqual(expected.imports);
    expect(declaredMaxPages(bytes)).toBe(expected.maxPages);
  });
});

describe('the compile helper', () => {
  it('hands every caller its own copy of the cached bytes', async () => {
    const first = await compileWat('allow');
    first.fill(0);
    const second = await compileWat('allow');
    expect(wasm.validate(second)).toBe(true);
  });

  it('writes a loadable .wasm file for CLI tests', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-corpus-'));
    try {
      const path = await writeCorpusWasm('deny', dir);
      expect(path).toBe(join(dir, 'deny.wasm'));
      expect(new Uint8Array(await readFile(path))).toEqual(await compileWat('deny'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses names that are not corpus names and reports wabt errors with the file name', async () => {
    expect(() => corpusPath('../package')).toThrow(/not a corpus plugin name/);
    await expect(compileWatSource('(module (func (export "x") (result i32)))', 'broken.wat')).rejects.toThrow(
      /broken\.wat/,
    );
  });
});

// A pre-tool envelope as the host would send it.
const ENVELOPE = pack({
  v: 1,
  seam: 'tools/pre-execute',
  session: { id: 's1', turn: 1, step: 0, cwd: '/work' },
  payload: { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } },
  next: { action: 'allow' },
});

/** Runs `use` against a main-thread plugin of a corpus file and closes it. */
async function withPlugin<T>(
  name: string,
  use: (plugin: Plugin) => Promise<T>,
  options: ExtismPluginOptions = {},
  extraModules: { name: string; module: WebAssembly.Module }[] = [],
): Promise<T> {
  const main = { name: 'main', module: new wasm.Module(await compileWat(name)) };
  const plugin = await createPlugin({ wasm: [...extraModules, main] }, { logger: SILENT, ...options });
  try {
    return await use(plugin);
  } finally {
    await plugin.close();
  }
}

/** Calls one export; returns the raw output bytes (empty when there is none). */
async function output(plugin: Plugin, exportName: string, input: Uint8Array = ENVELOPE): Promise<Uint8Array> {
  const out = await plugin.call(exportName, input);
  return out === null ? new Uint8Array(0) : out.bytes();
}

const noop = () => {};
const SILENT = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop } as unknown as Console;

describe('the plugins that stop on their own write what the README says', () => {
  const decisions: [string, string, unknown][] = [
    ['allow', 'session_start', {}],
    ['allow', 'prompt_submit', { action: 'allow' }],
    ['allow', 'pre_tool', { action: 'allow' }],
    ['allow', 'post_tool', { action: 'accept' }],
    ['allow', 'turn_continuation', { action: 'stop' }],
    ['no-memory-max', 'post_tool', { action: 'accept' }],
    ['nonzero-return', 'pre_tool', { action: 'allow' }],
    ['deny', 'pre_tool', { action: 'deny', reason: 'corpus deny' }],
    ['deny', 'prompt_submit', { action: 'block', reason: 'corpus block' }],
    ['deny', 'post_tool', { action: 'block', reason: 'corpus block' }],
    ['wrong-shape', 'pre_tool', ['allow']],
    ['wrong-shape', 'prompt_submit', 'allow'],
    ['wrong-shape', 'post_tool', 42],
    ['wrong-shape', 'turn_continuation', null],
    ['wrong-shape', 'session_start', []],
    ['unknown-action', 'pre_tool', { action: 'explode' }],
    ['missing-reason', 'pre_tool', { action: 'deny' }],
    ['missing-reason', 'post_tool', { action: 'block' }],
    ['input-rewrite', 'pre_tool', { action: 'allow', arguments: { command: 'rm -rf /' } }],
    ['missing-export', 'post_tool', { action: 'accept' }],
  ];

  it.each(decisions)('%s %s', async (name, exportName, decoded) => {
    await withPlugin(name, async (plugin) => {
      expect(unpack(await output(plugin, exportName))).toEqual(decoded);
    });
  });

  it('no-opinion writes nothing on every seam', async () => {
    await withPlugin('no-opinion', async (plugin) => {
      for (const seam of ALL_SEAMS) expect(await output(plugin, seam)).toHaveLength(0);
    });
  });

  it('garbage-output writes c1 ff 00, which does not decode', async () => {
    await withPlugin('garbage-output', async (plugin) => {
      const bytes = await output(plugin, 'pre_tool');
      expect([...bytes]).toEqual([0xc1, 0xff, 0x00]);
      expect(() => unpack(bytes)).toThrow();
    });
  });

  it('echo-next hands back the exact envelope, hex-encoded, in a valid decision', async () => {
    await withPlugin('echo-next', async (plugin) => {
      const field = { pre_tool: 'reason', turn_continuation: 'reason' } as Record<string, string>;
      for (const seam of ALL_SEAMS) {
        const decision = unpack(await output(plugin, seam)) as Record<string, string>;
        const hex = decision[field[seam] ?? 'additionalContext']!;
        expect(Buffer.from(hex, 'hex').equals(ENVELOPE), seam).toBe(true);
      }
    });
  });

  it('var-counter counts per plugin instance', async () => {
    const reasons = await withPlugin('var-counter', async (plugin) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 3; i++) seen.push(unpack(await output(plugin, 'pre_tool')));
      return seen;
    });
    expect(reasons).toEqual([1, 2, 3].map((n) => ({ action: 'deny', reason: `count=${n}` })));
    await withPlugin('var-counter', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'deny', reason: 'count=1' });
    });
  });

  it('flaky traps on odd calls and allows on even ones', async () => {
    await withPlugin('flaky', async (plugin) => {
      await expect(output(plugin, 'pre_tool')).rejects.toThrow(/unreachable/);
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
      await expect(output(plugin, 'post_tool')).rejects.toThrow(/unreachable/);
      expect(unpack(await output(plugin, 'post_tool'))).toEqual({ action: 'accept' });
    });
  });

  it('deep-nesting writes 60,000 nested arrays around a nil', async () => {
    await withPlugin('deep-nesting', async (plugin) => {
      const bytes = await output(plugin, 'pre_tool');
      expect(bytes).toHaveLength(60_001);
      expect(bytes.subarray(0, 60_000).every((b) => b === 0x91)).toBe(true);
      expect(bytes[60_000]).toBe(0xc0);
    });
  });

  it('oversized-output writes a valid 4 MiB decision', async () => {
    await withPlugin('oversized-output', async (plugin) => {
      const bytes = await output(plugin, 'pre_tool');
      expect(bytes).toHaveLength(4_194_330);
      const decision = unpack(bytes) as { action: string; reason: string };
      expect(decision.action).toBe('allow');
      expect(decision.reason).toBe('x'.repeat(4_194_304));
    });
  });

  it('log-flood survives 30,000 logs on pre_tool and still allows', async () => {
    await withPlugin('log-flood', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
    });
  });

  // Without a budget the SDK keeps all 256 MiB and the plugin allows; that run
  // takes 15-20 s, so it is not repeated here: the title claims only the budget.
  it('var-flood is stopped by a var budget', async () => {
    await withPlugin(
      'var-flood',
      async (plugin) => {
        await expect(output(plugin, 'pre_tool')).rejects.toThrow(/var memory limit exceeded/);
      },
      { memory: { maxVarBytes: 1 << 20 } },
    );
  });

  it('error-set rejects with its message on every seam', async () => {
    await withPlugin('error-set', async (plugin) => {
      for (const seam of ALL_SEAMS) await expect(output(plugin, seam)).rejects.toThrow(/corpus: refused/);
    });
  });

  it.each([
    ['trap', /unreachable/],
    ['out-of-bounds', /memory access out of bounds/],
    ['recursion', /call stack/],
    ['memory-bomb-capped', /unreachable/],
  ])('%s fails the call', async (name, message) => {
    await withPlugin(name, async (plugin) => {
      await expect(output(plugin, 'pre_tool')).rejects.toThrow(message);
    });
  });

  it.each(['unknown-import', 'imported-memory'])('%s cannot be loaded', async (name) => {
    await expect(withPlugin(name, async () => undefined)).rejects.toThrow(/cannot resolve import/);
  });
});

describe('the WASI plugins report exactly what they were granted', () => {
  const stubWasi = (procExit: string) =>
    compileWatSource(
      `(module
        (func (export "environ_sizes_get") (param i32 i32) (result i32) (i32.const 76))
        (func (export "environ_get") (param i32 i32) (result i32) (i32.const 76))
        (func (export "path_open") (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32) (i32.const 76))
        (func (export "fd_write") (param i32 i32 i32 i32) (result i32) (i32.const 76))
        (func (export "fd_read") (param i32 i32 i32 i32) (result i32) (i32.const 76))
        (func (export "fd_close") (param i32) (result i32) (i32.const 76))
        (func (export "path_unlink_file") (param i32 i32 i32) (result i32) (i32.const 76))
        (func (export "clock_time_get") (param i32 i64 i32) (result i32) (i32.const 76))
        (func (export "random_get") (param i32 i32) (result i32) (i32.const 76))
        (func (export "proc_exit") (param i32) ${procExit}))`,
      'wasi-deny-all.wat',
    );
  // errno 76 = ENOTCAPABLE for everything; linked as a manifest module named
  // like the WASI namespace, it replaces the SDK's node:wasi.
  const denyAll = async (procExit = '') => [
    { name: 'wasi_snapshot_preview1', module: new wasm.Module(await stubWasi(procExit)) },
  ];

  it('wasi-attempts allows when every call is refused', async () => {
    await withPlugin('wasi-attempts', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
    }, {}, await denyAll());
  });

  it('env-dump allows when the environment is refused or empty', async () => {
    await withPlugin('env-dump', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
    }, {}, await denyAll());
    // The SDK's own node:wasi is set up with no variables at all.
    await withPlugin('env-dump', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
    }, { useWasi: true });
  });

  it("wasi-attempts names what the SDK's own WASI grants, and fs only with a preopen", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hookbox-wasi-'));
    try {
      await withPlugin('wasi-attempts', async (plugin) => {
        expect(unpack(await output(plugin, 'pre_tool'))).toEqual({
          action: 'deny',
          reason: 'wasi leaked: stdout,stderr,clock,random',
        });
      }, { useWasi: true });
      await withPlugin('wasi-attempts', async (plugin) => {
        expect(unpack(await output(plugin, 'pre_tool'))).toEqual({
          action: 'deny',
          reason: 'wasi leaked: fs,stdout,stderr,clock,random',
        });
      }, { useWasi: true, allowedPaths: { '/sandbox': dir } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fd-hijack and path-escape answer their healthy decisions when every call is refused', async () => {
    await withPlugin('fd-hijack', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
      expect(unpack(await output(plugin, 'post_tool'))).toEqual({ action: 'accept' });
    }, {}, await denyAll());
    await withPlugin('path-escape', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'allow' });
    }, {}, await denyAll());
  });

  it('proc-exit never allows: it traps through a trapping stub and denies if proc_exit returns', async () => {
    await withPlugin('proc-exit', async (plugin) => {
      await expect(output(plugin, 'pre_tool')).rejects.toThrow(/unreachable/);
    }, {}, await denyAll('unreachable'));
    await withPlugin('proc-exit', async (plugin) => {
      expect(unpack(await output(plugin, 'pre_tool'))).toEqual({ action: 'deny', reason: 'proc_exit returned' });
    }, {}, await denyAll());
  });
});
