/**
 * A checkout's built policy older than its source is refused by name (it
 * would test and run old code); an installed package, which has no sources,
 * never is. Real files with set mtimes in a temp folder.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleCatalogSource } from '../../host/catalog/index.ts';

let root: string;
const at = (seconds: number) => new Date(1_800_000_000_000 + seconds * 1000);

function file(relative: string, seconds: number): void {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at(seconds), at(seconds));
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-catalog-stale-'));
  file('dist/catalog/p/hook.wasm', 100);
  file('examples-hooks/policies/p/hook.ts', 50);
  file('examples-hooks/policies/shared/globs.ts', 50);
  file('examples-hooks/guard-bash/shell.ts', 50);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleCatalogSource', () => {
  it('is undefined when the build is newer than every source', () => {
    expect(staleCatalogSource('p', root, true)).toBeUndefined();
  });

  it.each([['examples-hooks/policies/p/rules.ts', 'examples-hooks/policies/p'], ['examples-hooks/policies/shared/globs.ts', 'examples-hooks/policies/shared'], ['examples-hooks/guard-bash/shell.ts', 'examples-hooks/guard-bash']])('names the folder when %s changed after the build', (changed, folder) => {
    file(changed, 200);
    expect(staleCatalogSource('p', root, true)).toBe(path.join(root, folder));
  });

  it('ignores what is not TypeScript (a README, the decision table)', () => {
    file('examples-hooks/policies/p/README.md', 200);
    file('examples-hooks/policies/p/test/hookbox.test.json', 200);
    expect(staleCatalogSource('p', root, true)).toBeUndefined();
  });

  it('never says stale in an installed package, nor for a policy not built at all', () => {
    file('examples-hooks/policies/p/rules.ts', 200);
    expect(staleCatalogSource('p', root, false)).toBeUndefined();
    expect(staleCatalogSource('q', root, true)).toBeUndefined();
  });
});
