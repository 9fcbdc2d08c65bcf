/**
 * PDK figures. As a module (`bench/run.ts` calls it): build time of one hook
 * with a warm engine (in-process with a per-step breakdown, and as a fresh
 * `hookbox build` process), module size raw and gzipped, and the engine's
 * cold build. Run directly, the PDK's deeper standalone bench: build time
 * over several builds (in-process and fresh processes), a built hook's call
 * latency on the main thread through the bare SDK, module size, and the
 * hook-side msgpack codecs side by side.
 *
 *   npx tsx bench/pdk.ts            # everything (the cold engine build takes ~1 min)
 *   npx tsx bench/pdk.ts --no-cold  # skip the cold engine build
 */
import createPlugin from '@extism/extism';
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { pack, unpack } from 'msgpackr';
import { PreToolDecisionSchema } from '../host/seams/index.ts';
import { buildHook } from '../pdk/compiler/index.ts';
import { buildEngine } from '../pdk/engine/build.ts';

/** One timed hook build with a warm engine. */
export interface BuildFigure {
  readonly hook: string;
  /** `first in process` pays for loading TypeScript and esbuild; later builds do not; the CLI pays node start too. */
  readonly when: 'first in process' | 'warm process' | '`hookbox build` CLI';
  readonly durationMs: number;
  /** Milliseconds per build step, as the compiler reports its progress. */
  readonly steps: Readonly<Record<string, number>>;
  readonly sizeBytes: number;
  readonly gzipBytes: number;
  readonly bytes: Uint8Array;
}

/** A clean build of the JS engine (QuickJS + glue) with `@yowasp/clang`. */
export interface EngineFigure {
  readonly durationMs: number;
  readonly sizeBytes: number;
}

/** Builds one hook into a temp dir, timing it and its steps. */
export async function timeBuild(hook: string, entry: string, when: BuildFigure['when']): Promise<BuildFigure> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-build-'));
  try {
    const steps: Record<string, number> = {};
    let step = 'engine lookup';
    const started = performance.now();
    let last = started;
    const built = await buildHook({
      entry,
      outFile: join(dir, 'hook.wasm'),
      onProgress: (message) => {
        const now = performance.now();
        steps[step] = (steps[step] ?? 0) + (now - last);
        step = message;
        last = now;
      },
    });
    const finished = performance.now();
    steps[step] = (steps[step] ?? 0) + (finished - last);
    const bytes = new Uint8Array(await readFile(built.wasmPath));
    return { hook, when, durationMs: finished - started, steps, sizeBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const HOOKBOX_BIN = fileURLToPath(new URL('../host/cli/hookbox.mjs', import.meta.url));

/**
 * `hookbox build <entry> -o <tmp>` in a fresh process: what a hook author
 * waits for (node start, loading TypeScript and the compiler included).
 */
export async function timeCliBuild(hook: string, entry: string): Promise<BuildFigure> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-cli-'));
  try {
    const outFile = join(dir, 'hook.wasm');
    const started = performance.now();
    await promisify(execFile)(process.execPath, [HOOKBOX_BIN, 'build', entry, '-o', outFile, '--json']);
    const durationMs = performance.now() - started;
    const bytes = new Uint8Array(await readFile(outFile));
    return { hook, when: '`hookbox build` CLI', durationMs, steps: {}, sizeBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Builds the engine from scratch into a throw-away cache (about a minute on 2 cores). */
export async function timeEngineColdBuild(onProgress: (message: string) => void): Promise<EngineFigure> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'hookbox-bench-engine-'));
  try {
    const result = await buildEngine({ cacheDir, onProgress });
    return { durationMs: result.durationMs, sizeBytes: (await readFile(result.wasmPath)).length };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

// ---- The standalone PDK bench (`npx tsx bench/pdk.ts`) ----

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(REPO, 'tests', 'pdk', 'fixtures', 'all-seams', 'hook.ts');
const WORK = join(REPO, '.cache', 'bench-pdk');

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const ms = (n: number) => `${n.toFixed(0)} ms`;
const us = (n: number) => `${n.toFixed(1)} µs`;


async function buildTimes(): Promise<void> {
  await buildEngine({ onProgress: () => {} });
  const steps = new Map<string, number[]>();
  const totals: number[] = [];
  for (let i = 0; i < 6; i++) {
    let last = performance.now();
    let step = 'engine lookup';
    const started = last;
    await buildHook({
      entry: ENTRY,
      outFile: join(WORK, `warm-${i}`, 'hook.wasm'),
      onProgress: (m) => {
        const now = performance.now();
        if (i > 0) steps.set(step, [...(steps.get(step) ?? []), now - last]);
        step = m;
        last = now;
      },
    });
    const now = performance.now();
    if (i > 0) steps.set(step, [...(steps.get(step) ?? []), now - last]);
    totals.push(now - started);
  }
  const rest = totals.slice(1).sort((a, b) => a - b);
  console.log(`build, warm engine, first in process: ${ms(totals[0] as number)}`);
  console.log(`build, warm engine, later in process: p50 ${ms(quantile(rest, 0.5))} (max ${ms(rest.at(-1) as number)})`);
  for (const [name, values] of steps) console.log(`  ${name.padEnd(16)} p50 ${ms(quantile([...values].sort((a, b) => a - b), 0.5))}`);
  const fresh: number[] = [];
  for (let i = 0; i < 3; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--one-build', ENTRY, join(WORK, `fresh-${i}`, 'hook.wasm')], {
      cwd: REPO,
      encoding: 'utf8',
    });
    fresh.push(Number(out.trim()));
  }
  fresh.sort((a, b) => a - b);
  console.log(`build, warm engine, fresh process (buildHook only): p50 ${ms(quantile(fresh, 0.5))}`);
}

async function coldEngine(): Promise<void> {
  const result = await timeEngineColdBuild(() => {});
  console.log(`engine cold build: ${(result.durationMs / 1000).toFixed(1)} s, engine.wasm ${(result.sizeBytes / 1024).toFixed(0)} KiB`);
}

/** A ~2.5 KB pre-tool payload: a bash call with a long command and some extra arguments. */
function payload(): unknown {
  const command = `cd /workspace && npm run build -- --verbose ${'--flag=value '.repeat(60)}`.trim();
  return { toolCallId: 'call-42', toolName: 'bash', arguments: { command, timeoutMs: 120000, description: 'x'.repeat(1400) } };
}

async function callLatency(wasm: Uint8Array, label: string, iterations = 5000): Promise<void> {
  const plugin = await createPlugin({ wasm: [{ data: wasm }] }, { useWasi: true, runInWorker: false });
  try {
    const envelope = { v: 1, seam: 'tools/pre-execute', session: { id: 's', turn: 1, step: 0, cwd: '/workspace' }, payload: payload(), next: { action: 'allow' } };
    const input = pack(envelope);
    const bare: number[] = [];
    const full: number[] = [];
    for (let i = 0; i < iterations + 500; i++) {
      const t0 = performance.now();
      const out = await plugin.call('pre_tool', input);
      const t1 = performance.now();
      const bytes = pack(envelope);
      const result = await plugin.call('pre_tool', bytes);
      const decision = PreToolDecisionSchema.safeParse(unpack(result?.bytes() ?? new Uint8Array()));
      const t2 = performance.now();
      if (!decision.success || out === null) throw new Error(`${label}: unexpected output`);
      if (i >= 500) {
        bare.push((t1 - t0) * 1000);
        full.push((t2 - t1) * 1000);
      }
    }
    bare.sort((a, b) => a - b);
    full.sort((a, b) => a - b);
    console.log(
      `${label}: input ${input.length} B; plugin.call p50 ${us(quantile(bare, 0.5))} p99 ${us(quantile(bare, 0.99))}; ` +
        `pack+call+unpack+zod p50 ${us(quantile(full, 0.5))} p99 ${us(quantile(full, 0.99))}`,
    );
  } finally {
    await plugin.close();
  }
}

/**
 * Raw hooks answering allow, side by side: the floor (read the input, write a
 * fixed answer: what the Extism kernel ABI costs), the engine's C codec, the
 * PDK's portable JS codec, and msgpackr bundled into the hook.
 */
async function codecComparison(): Promise<void> {
  const dir = join(WORK, 'codec');
  await mkdir(dir, { recursive: true });
  const body = (decode: string, encode: string) =>
    `export function pre_tool() {\n  const env = ${decode}(new Uint8Array(Host.inputBytes()));\n` +
    `  if (env.payload.toolName === 'never') throw new Error('x');\n  Host.outputBytes(${encode}({ action: 'allow' }));\n  return 0;\n}\n`;
  await writeFile(
    join(dir, 'floor.js'),
    `const ALLOW = new Uint8Array([0x81, 0xa6, 0x61, 0x63, 0x74, 0x69, 0x6f, 0x6e, 0xa5, 0x61, 0x6c, 0x6c, 0x6f, 0x77]);\n` +
      `export function pre_tool() {\n  Host.inputBytes();\n  Host.outputBytes(ALLOW);\n  return 0;\n}\n`,
  );
  await writeFile(
    join(dir, 'native.js'),
    `export function pre_tool() {\n  const env = __hookbox.readInput();\n  if (env.payload.toolName === 'never') throw new Error('x');\n` +
      `  __hookbox.writeOutput({ action: 'allow' });\n  return 0;\n}\n`,
  );
  await writeFile(join(dir, 'pdk-js.js'), `import { decode, encode } from '../../../pdk/runtime/msgpack.ts';\n${body('decode', 'encode')}`);
  await writeFile(join(dir, 'msgpackr.js'), `import { pack, unpack } from 'msgpackr';\n${body('unpack', 'pack')}`);
  for (const name of ['floor', 'native', 'pdk-js', 'msgpackr']) {
    try {
      const built = await buildHook({ entry: join(dir, `${name}.js`), outFile: join(dir, name, 'hook.wasm'), typecheck: false });
      const wasm = new Uint8Array(await readFile(built.wasmPath));
      console.log(`codec ${name}: module ${(wasm.length / 1024).toFixed(0)} KiB`);
      await callLatency(wasm, `codec ${name}`, 2000);
    } catch (error) {
      console.log(`codec ${name}: failed: ${(error as Error).message.split('\n')[0]}`);
    }
  }
}

const IS_ENTRY = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;

// Child mode: one build in a fresh process, printing its wall time (what `hookbox build` costs).
if (IS_ENTRY && process.argv[2] === '--one-build') {
  const started = performance.now();
  await buildHook({ entry: process.argv[3] as string, outFile: process.argv[4] as string });
  process.stdout.write(`${performance.now() - started}\n`);
  process.exit(0);
}

if (IS_ENTRY) {
  await mkdir(WORK, { recursive: true });
  try {
    await buildTimes();
    const built = await buildHook({ entry: ENTRY, outFile: join(WORK, 'hook', 'hook.wasm') });
    const wasm = new Uint8Array(await readFile(built.wasmPath));
    console.log(`module size: ${(wasm.length / 1024).toFixed(0)} KiB, gzipped ${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(0)} KiB`);
    await callLatency(wasm, 'all-seams hook, pre_tool (allow)');
    await codecComparison();
    if (!process.argv.includes('--no-cold')) await coldEngine();
  } finally {
    await rm(WORK, { recursive: true, force: true });
  }
}
