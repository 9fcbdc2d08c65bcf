/**
 * Runs once before the suites: builds what the tests need from source (the
 * JS engine, then the example hooks) so the suites share one build. On a
 * fresh clone the engine build takes about a minute; progress goes to stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExamples } from '../examples-hooks/build.ts';
import { ensureEngine } from '../pdk/engine/build.ts';
import { MACHINE_TMP_ENV } from './helpers/run-tmp.ts';
import { SKIP_RECORD } from './helpers/skips.ts';

export default async function setup(): Promise<() => void> {
  const progress = (message: string): void => {
    process.stderr.write(`[setup] ${message}\n`);
  };
  // This run's skips only (tests/helpers/skips.ts appends; scripts/skip-summary.mjs reads).
  rmSync(SKIP_RECORD, { force: true });
  await ensureEngine({ onProgress: progress });
  await buildExamples(progress);
  // The run's own temp dir (tests/helpers/run-tmp.ts): the workers, and every process they start, inherit it.
  const machineTmp = tmpdir();
  const runTmp = mkdtempSync(join(machineTmp, 'hookbox-tests-'));
  process.env[MACHINE_TMP_ENV] = machineTmp;
  process.env.TMPDIR = runTmp;
  return () => {
    if (process.env.HOOKBOX_KEEP_TMP === '1') process.stderr.write(`[setup] the run's temp files are kept in ${runTmp}\n`);
    else rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
    process.env.TMPDIR = machineTmp;
  };
}
