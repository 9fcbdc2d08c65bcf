/**
 * The session shape: what a user sees per decision in a real session, where
 * a hook is called a handful of times, seconds apart, in a process that just
 * started. Each trial is a fresh child process (`session-trial.ts`): runner
 * start, load, a new session, `calls` decisions `gapMs` apart, then the hot
 * p50 in the same process for the ratio. `variant: 'cold'` runs the runner as
 * it was before warm-up, session preparation and eager wasm compilation
 * (node `--wasm-lazy-compilation`), so the before/after is measured in one run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchHook } from './fixtures.ts';
import { type Summary, percentile, summarize } from './harness.ts';
import type { SessionTrialResult } from './session-trial.ts';

/** `floor`: no hook at all, the host's codec on one thread (see session-trial.ts). */
export type SessionVariant = 'tuned' | 'cold' | 'floor';

/** One hook's session figures, merged over its trials. */
export interface SessionRow {
  readonly hook: string;
  readonly variant: SessionVariant;
  readonly trials: number;
  readonly gapMs: number;
  readonly calls: number;
  /** The session's first call, p50 and max over trials (µs). */
  readonly firstP50Us: number;
  readonly firstMaxUs: number;
  /** Every later spaced call of every trial. */
  readonly rest: Summary;
  /** Process CPU time (all threads) per later spaced call, p50 (µs): robust to a loaded machine. */
  readonly restCpuP50Us: number;
  readonly firstCpuP50Us: number;
  /** Back-to-back calls in the same processes. */
  readonly hot: Summary;
  /** rest p50 ÷ hot p50. */
  readonly ratio: number;
}

export interface SessionOptions {
  readonly gapMs: number;
  readonly calls: number;
  readonly trials: number;
  readonly hot: number;
  readonly variants: readonly SessionVariant[];
  /** Also time the host codec alone, spaced and hot (one more fresh process per trial). */
  readonly floor: boolean;
  readonly onProgress: (message: string) => void;
}

/** The row name of the `floor` trial. */
export const FLOOR_ROW = 'host codec (no hook)';
const TRIAL = fileURLToPath(new URL('./session-trial.ts', import.meta.url));
const TSX_LOADER = 'tsx';
const REPO = fileURLToPath(new URL('..', import.meta.url));

function runTrial(hook: { wasm: string; name: string } | undefined, variant: SessionVariant, options: SessionOptions): Promise<SessionTrialResult> {
  const nodeArgs = ['--disable-warning=ExperimentalWarning', ...(variant === 'cold' ? ['--wasm-lazy-compilation'] : []), '--import', TSX_LOADER];
  const name = hook?.name ?? FLOOR_ROW;
  const args = [...nodeArgs, TRIAL, ...(hook ? ['--wasm', hook.wasm, '--name', hook.name] : []), '--gap-ms', String(options.gapMs), '--calls', String(options.calls), '--hot', String(options.hot), '--variant', variant];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`session trial for ${name} exited ${code}: ${stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('    at ')).slice(-4).join('\n')}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) as string) as SessionTrialResult);
    });
  });
}

/** Runs `trials` fresh-process sessions per hook and variant, interleaved (hook A, B, C, then again). */
export async function measureSessions(hooks: readonly BenchHook[], options: SessionOptions): Promise<SessionRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-session-'));
  try {
    const files = new Map<string, string>();
    for (const hook of hooks) {
      const file = join(dir, `${hook.name}.wasm`);
      await writeFile(file, hook.bytes);
      files.set(hook.name, file);
    }
    const results = new Map<string, SessionTrialResult[]>();
    const record = (key: string, result: SessionTrialResult) => results.set(key, [...(results.get(key) ?? []), result]);
    for (let trial = 0; trial < options.trials; trial++) {
      if (options.floor) {
        options.onProgress(`session: ${FLOOR_ROW}, trial ${trial + 1}/${options.trials}, ${options.calls} calls ${options.gapMs} ms apart`);
        record(`${FLOOR_ROW}:floor`, await runTrial(undefined, 'floor', options));
      }
      for (const variant of options.variants) {
        for (const hook of hooks) {
          options.onProgress(`session: ${hook.name} (${variant}), trial ${trial + 1}/${options.trials}, ${options.calls} calls ${options.gapMs} ms apart`);
          record(`${hook.name}:${variant}`, await runTrial({ wasm: files.get(hook.name) as string, name: hook.name }, variant, options));
        }
      }
    }
    const rows: SessionRow[] = [];
    const measured: Array<[string, SessionVariant]> = [
      ...(options.floor ? [[FLOOR_ROW, 'floor'] as [string, SessionVariant]] : []),
      ...options.variants.flatMap((variant) => hooks.map((hook): [string, SessionVariant] => [hook.name, variant])),
    ];
    for (const [name, variant] of measured) {
      const trials = results.get(`${name}:${variant}`) ?? [];
      const first = trials.map((t) => t.callsUs[0] as number).sort((a, b) => a - b);
      const firstCpu = trials.map((t) => t.callsCpuUs[0] as number).sort((a, b) => a - b);
      const restCpu = trials.flatMap((t) => t.callsCpuUs.slice(1)).sort((a, b) => a - b);
      const rest = summarize(trials.flatMap((t) => t.callsUs.slice(1)).map((us) => us / 1000));
      const hot = summarize(trials.flatMap((t) => t.hotUs).map((us) => us / 1000));
      rows.push({
        hook: name,
        variant,
        trials: trials.length,
        gapMs: options.gapMs,
        calls: options.calls,
        firstP50Us: percentile(first, 0.5),
        firstMaxUs: first.at(-1) ?? Number.NaN,
        firstCpuP50Us: percentile(firstCpu, 0.5),
        rest,
        restCpuP50Us: percentile(restCpu, 0.5),
        hot,
        ratio: rest.p50Us / hot.p50Us,
      });
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
