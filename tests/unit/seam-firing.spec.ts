/**
 * Every seam fires somewhere in the loop: `SEAM_FIRING` (which `tsc` makes
 * complete) names the file, and that file must dispatch the seam.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEAM_FIRING } from '../../host/loop/index.ts';
import { SEAM_IDS } from '../../host/seams/index.ts';

const LOOP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'host', 'loop');

// Under `npm run mutate:loop` these files are Stryker's instrumented copies, every literal
// wrapped in a mutant switch: the text below is not there to read (the behaviour suites still run).
const INSTRUMENTED = readFileSync(path.join(LOOP, 'session.ts'), 'utf8').includes('stryMutAct_');

const FIRED = SEAM_IDS.filter((seam) => SEAM_FIRING[seam].file !== null);
const UNFIRED = SEAM_IDS.filter((seam) => SEAM_FIRING[seam].file === null);

describe('SEAM_FIRING names real places', () => {
  // Identifiers survive instrumentation, so these run under Stryker too.
  it.each(FIRED)('%s: its file is a module of host/loop that defines the function its firedBy names', (seam) => {
    const firing = SEAM_FIRING[seam];
    if (firing.file === null) throw new Error('unreachable: FIRED holds fired seams only');
    const { file, firedBy } = firing;
    expect(file).toMatch(/^[a-z-]+\.ts$/);
    expect(statSync(path.join(LOOP, file)).isFile()).toBe(true);
    const named = /^(?<owner>[A-Za-z]+)(?:\.(?<member>#?[A-Za-z]+))?, \S/.exec(firedBy);
    expect(named, `firedBy "${firedBy}" starts with the function (or Class.method) and, after a comma, when`).not.toBeNull();
    const source = readFileSync(path.join(LOOP, file), 'utf8');
    const { owner = '', member } = named?.groups ?? {};
    if (member === undefined) {
      expect(source).toMatch(new RegExp(`function ${owner}\\(`));
    } else {
      expect(source).toMatch(new RegExp(`class ${owner} `));
      expect(source).toMatch(new RegExp(`\\s(?:async )?${member}\\(`));
    }
  });
});

describe.skipIf(INSTRUMENTED)('the loop fires every seam it has a moment for', () => {
  it.each(FIRED)('%s is dispatched in the file SEAM_FIRING names', (seam) => {
    const source = readFileSync(path.join(LOOP, SEAM_FIRING[seam].file ?? ''), 'utf8');
    expect(source).toMatch(new RegExp(`\\.dispatch\\(\\s*'${seam}'`));
  });

  // A seam said to have no moment in the loop must really not be fired there: the table stays true.
  it.each(UNFIRED)('%s says why the loop has no moment for it, and no loop file dispatches it', (seam) => {
    const firing = SEAM_FIRING[seam];
    expect(firing.file === null && firing.why.length > 0).toBe(true);
    for (const file of readdirSync(LOOP).filter((name) => name.endsWith('.ts'))) {
      expect(readFileSync(path.join(LOOP, file), 'utf8'), file).not.toMatch(new RegExp(`\\.dispatch\\(\\s*'${seam}'`));
    }
  });
});
