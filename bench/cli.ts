/**
 * CLI start-up: wall time of `hookbox` commands in a fresh process each, as
 * a user runs them (`node host/cli/hookbox.mjs …`, the package bin).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PAYLOAD, type BenchHook } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';

const HOOKBOX_BIN = fileURLToPath(new URL('../host/cli/hookbox.mjs', import.meta.url));

export interface CliRow {
  readonly id: 'help' | 'call';
  readonly command: string;
  readonly summary: Summary;
}

async function timeRuns(args: readonly string[], runs: number): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await promisify(execFile)(process.execPath, [HOOKBOX_BIN, ...args]);
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/** `hookbox --help` and `hookbox call` on a built hook, `runs` fresh processes each. */
export async function measureCli(hook: BenchHook, options: { runs: number; onProgress: (message: string) => void }): Promise<CliRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-cli-'));
  try {
    const wasm = join(dir, `${hook.name}.wasm`);
    const payload = join(dir, 'payload.json');
    await writeFile(wasm, hook.bytes);
    await writeFile(payload, JSON.stringify(PAYLOAD));
    options.onProgress('cli: hookbox --help');
    const help = await timeRuns(['--help'], options.runs);
    options.onProgress(`cli: hookbox call ${hook.name}`);
    const call = await timeRuns(['call', wasm, '--seam', 'tools/pre-execute', '--payload', payload, '--json'], options.runs);
    return [
      { id: 'help', command: 'hookbox --help', summary: help },
      { id: 'call', command: `hookbox call ${hook.name}.wasm --seam tools/pre-execute`, summary: call },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
