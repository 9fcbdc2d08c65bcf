#!/usr/bin/env node
// One line after `npm test` (`.ci/run` runs it): which suites skipped themselves, and why,
// from the record tests/helpers/skips.ts writes (reports/skipped-suites.jsonl, emptied by
// the global setup at the start of each run). Never fails the build: a skip that must not
// happen in CI already failed its suite.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const record = process.env.HOOKBOX_SKIP_RECORD ?? join(root, 'reports', 'skipped-suites.jsonl');
const lines = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter((line) => line.trim() !== '') : [];
const reasons = new Map();
for (const line of lines) {
  try {
    const { suite, reason } = JSON.parse(line);
    reasons.set(String(suite), String(reason));
  } catch {
    reasons.set(`(unreadable line in ${record})`, line.slice(0, 200));
  }
}
const shown = [...reasons].map(([suite, reason]) => `${suite} (${reason})`);
console.log(reasons.size === 0 ? 'skipped suites: none' : `skipped suites: ${reasons.size} — ${shown.join('; ')}`);
