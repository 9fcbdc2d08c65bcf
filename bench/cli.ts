/**
 * CLI start-up: wall time of `hookbox` commands in a fresh process each, as
 * a user runs them (`node host/cli/hookbox.mjs …`, the package bin), beside
 * a bare `node -e 0` on the same machine (the floor no command gets under).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cacheRoot } from '../pdk/engine/build.ts';
import { buildInfoPath } from '../pdk/compiler/typecheck.ts';
import { GUARD_BASH_ENTRY, PAYLOAD, type BenchHook } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';

const HOOKBOX_BIN = fileURLToPath(new URL('../host/cli/hookbox.mjs', import.meta.url));

export interface CliRow {
  readonly id: 'node' | 'help' | 'call' | 'build' | 'build-cold';
  readonly command: string;
  readonly summary: Summary;
  readonly p90Us: number;
}

async function timeRuns(args: readonly string[], runs: number, before?: () => Promise<void>): Promise<{ summary: Summary; p90Us: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    const started = performance.now();
    await promisify(execFile)(process.execPath, args);
    samples.push(performance.now() - started);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { summary: summarize(samples), p90Us: (sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] as number) * 1000 };
}

/**
 * `node -e 0`, `hookbox --help`, `hookbox call` on a built hook (`runs` fresh
 * processes each) and `hookbox build` of guard-bash into a temp dir with the
 * engine already cached (fewer runs: each is over a second): as a rebuild
 * finds it (the type-check's build info from the run before), and with the
 * build info removed before each run (a first build of the hook: the full check).
 */
export async function measureCli(hook: BenchHook, options: { runs: number; onProgress: (message: string) => void }): Promise<CliRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-cli-'));
  try {
    const wasm = join(dir, `${hook.name}.wasm`);
    const payload = join(dir, 'payload.json');
    await writeFile(wasm, hook.bytes);
    await writeFile(payload, JSON.stringify(PAYLOAD));
    options.onProgress('cli: node -e 0');
    const node = await timeRuns(['-e', '0'], options.runs);
    options.onProgress('cli: hookbox --help');
    const help = await timeRuns([HOOKBOX_BIN, '--help'], options.runs);
    options.onProgress(`cli: hookbox call ${hook.name}`);
    const call = await timeRuns([HOOKBOX_BIN, 'call', wasm, '--seam', 'tools/pre-execute', '--payload', payload, '--json'], options.runs);
    options.onProgress('cli: hookbox build guard-bash');
    const buildArgs = [HOOKBOX_BIN, 'build', GUARD_BASH_ENTRY, '-o', join(dir, 'build', 'hook.wasm'), '--json'];
    const buildRuns = Math.max(3, Math.ceil(options.runs / 2));
    // One build first, so the rebuild row never times the first check of a fresh cache.
    await promisify(execFile)(process.execPath, buildArgs);
    const build = await timeRuns(buildArgs, buildRuns);
    options.onProgress('cli: hookbox build guard-bash, full type-check');
    const buildCold = await timeRuns(buildArgs, buildRuns, () => rm(buildInfoPath(cacheRoot(), GUARD_BASH_ENTRY), { force: true }));
    return [
      { id: 'node', command: 'node -e 0 (bare node, for reference)', ...node },
      { id: 'help', command: 'hookbox --help', ...help },
      { id: 'call', command: `hookbox call ${hook.name}.wasm --seam tools/pre-execute`, ...call },
      { id: 'build', command: 'hookbox build examples-hooks/guard-bash/hook.ts -o <tmp> (rebuild)', ...build },
      { id: 'build-cold', command: 'hookbox build examples-hooks/guard-bash/hook.ts -o <tmp> (first build: full type-check)', ...buildCold },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
