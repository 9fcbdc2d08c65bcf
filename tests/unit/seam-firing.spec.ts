/**
 * Every seam fires somewhere in the loop: `SEAM_FIRING` (which `tsc` makes
 * complete) names the file, and that file must dispatch the seam.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEAM_FIRING } from '../../host/loop/index.ts';
import { SEAM_IDS } from '../../host/seams/index.ts';

const LOOP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'host', 'loop');

// Under `npm run mutate:loop` these files are Stryker's instrumented copies, every literal
// wrapped in a mutant switch: the text below is not there to read (the behaviour suites still run).
const INSTRUMENTED = readFileSync(path.join(LOOP, 'session.ts'), 'utf8').includes('stryMutAct_');

describe.skipIf(INSTRUMENTED)('the loop fires every seam', () => {
  it.each(SEAM_IDS)('%s is dispatched in the file SEAM_FIRING names', (seam) => {
    const source = readFileSync(path.join(LOOP, SEAM_FIRING[seam].file), 'utf8');
    expect(source).toMatch(new RegExp(`\\.dispatch\\(\\s*'${seam}'`));
  });
});
