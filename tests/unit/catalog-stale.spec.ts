/**
 * A checkout's built catalog module older than a source is refused, naming
 * the file (it would test and run old code); one module holds every policy,
 * so another policy's change makes this one old too; an installed package, which has no sources,
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
  file('dist/catalog/policies.wasm', 100);
  file('examples-hooks/policies/p/hook.ts', 50);
  file('examples-hooks/policies/shared/globs.ts', 50);
  file('examples-hooks/guard-bash/shell.ts', 50);
  file('examples-hooks/shared/secrets.ts', 50);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('staleCatalogSource', () => {
  it('is undefined when the build is newer than every source', () => {
    expect(staleCatalogSource(root, true)).toBeUndefined();
  });

  it.each(['examples-hooks/policies/p/rules.ts', 'examples-hooks/policies/q/rules.ts', 'examples-hooks/policies/hook.ts', 'examples-hooks/policies/shared/globs.ts', 'examples-hooks/guard-bash/shell.ts', 'examples-hooks/shared/secrets.ts'])('names %s when it changed after the build', (changed) => {
    file(changed, 200);
    expect(staleCatalogSource(root, true)).toBe(path.join(root, changed));
  });

  it('ignores what is not TypeScript (a README, the decision table)', () => {
    file('examples-hooks/policies/p/README.md', 200);
    file('examples-hooks/policies/p/test/hookbox.test.json', 200);
    expect(staleCatalogSource(root, true)).toBeUndefined();
  });

  it('never says stale in an installed package, nor when the module is not built at all', () => {
    file('examples-hooks/policies/p/rules.ts', 200);
    expect(staleCatalogSource(root, false)).toBeUndefined();
    rmSync(path.join(root, 'dist'), { recursive: true });
    expect(staleCatalogSource(root, true)).toBeUndefined();
  });
});
