/**
 * A write-granted hook must not leave a symlink in its grant that leads out
 * of it for whoever follows it later (the operator's `cat`, the agent's Read
 * tool, a CI upload): hookbox's own resolver refuses to follow such a link,
 * but they do not. `path_symlink` once counted `..` as text, so a component
 * that is itself a link to `..` climbed (`d/up -> ..`, then
 * `out/report.txt -> ../d/up/d/up/../secret.txt`), and a link allowed where
 * it was made climbed further once renamed, hard-linked or carried (inside
 * its directory) to a shallower place. The C hook (tests/security/c/link-climb.c)
 * tries each; the host's own `realpath` then judges every link in the grant.
 */
import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileC } from '../helpers/clang.ts';
import { type Fixture, callSeam, openFixture } from './harness.ts';

let fx: Fixture;
let dir: string;

beforeAll(async () => {
  fx = await openFixture();
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-symlink-target-'));
});
afterAll(async () => {
  await fx.runner.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every symlink under `root` whose target, as the host resolves it, lies outside `root` (dangling ones are skipped). */
function linksOut(root: string): string[] {
  const out: string[] = [];
  const visit = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      const stat = lstatSync(file);
      if (stat.isSymbolicLink()) {
        if (!existsSync(file)) continue;
        const real = realpathSync(file);
        const relative = path.relative(root, real);
        if (relative.startsWith('..') || path.isAbsolute(relative)) out.push(`${path.relative(root, file)} -> ${real}`);
      } else if (stat.isDirectory()) visit(file);
    }
  };
  visit(root);
  return out.sort();
}

describe('path_symlink judges a link by what it resolves to', { timeout: 180_000 }, () => {
  it('refuses links that climb through other links, `..` after a name, and links moved to a shallower place', async () => {
    const grant = path.join(dir, 'grant');
    await mkdir(grant, { recursive: true });
    await writeFile(path.join(dir, 'secret.txt'), 'outside the grant\n');
    await writeFile(path.join(grant, 'inside.txt'), 'inside the grant\n');
    const source = fileURLToPath(new URL('./c/link-climb.c', import.meta.url));
    const hook = await fx.runner.load({
      name: 'link-climb',
      wasm: await compileC(source),
      capabilities: { allowedPaths: { [grant]: { path: '/data', write: true } } },
      limits: { timeoutMs: 20_000 },
    });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault).toBeUndefined();
      expect(result.decision).toEqual({ action: 'deny', reason: 'made: up,via-up' });
    } finally {
      await hook.close();
    }
    expect(linksOut(grant)).toEqual([]);
    expect(realpathSync(path.join(grant, 'ok'))).toBe(path.join(realpathSync(grant), 'inside.txt'));
  });
});
