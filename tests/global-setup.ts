/**
 * Runs once before the suites: builds what the tests need from source (the
 * JS engine, then the example hooks) so the suites share one build. On a
 * fresh clone the engine build takes about a minute; progress goes to stderr.
 */
import { rmSync } from 'node:fs';
import { buildExamples } from '../examples-hooks/build.ts';
import { ensureEngine } from '../pdk/engine/build.ts';
import { SKIP_RECORD } from './helpers/skips.ts';

export default async function setup(): Promise<void> {
  const progress = (message: string): void => {
    process.stderr.write(`[setup] ${message}\n`);
  };
  // This run's skips only (tests/helpers/skips.ts appends; scripts/skip-summary.mjs reads).
  rmSync(SKIP_RECORD, { force: true });
  await ensureEngine({ onProgress: progress });
  await buildExamples(progress);
}
