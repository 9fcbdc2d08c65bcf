// Node's compile cache for hookbox's own processes (host/cli/compile-cache.cjs): cached code is
// code, so its folder is made 0700 and one another user owns, or a group or others can write, is
// not used. Judged on real folders (the cache itself runs only on Node 22+; the rule on every Node).
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skipUnless } from '../helpers/skips.ts';

const { compileCacheProblem } = createRequire(import.meta.url)('../../host/cli/compile-cache.cjs') as { compileCacheProblem(dir: string): string | undefined };
const notRoot = process.getuid?.() === 0 ? undefined : 'a folder of another owner is made with chown, which needs root';

describe('the compile cache folder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hookbox-compile-cache-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is made 0700, and a folder of the user\'s own that others could read is narrowed to 0700', () => {
    const dir = join(root, 'node-compile-cache');
    expect(compileCacheProblem(dir)).toBeUndefined();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    expect(compileCacheProblem(dir)).toBeUndefined();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('is not used when its root or itself is writable by group or others', () => {
    const dir = join(root, 'node-compile-cache');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o770);
    expect(compileCacheProblem(dir)).toBe(`${dir} is writable by its group (mode 0770)`);
    chmodSync(dir, 0o702);
    expect(compileCacheProblem(dir)).toBe(`${dir} is writable by others (mode 0702)`);
    chmodSync(dir, 0o700);
    chmodSync(root, 0o777);
    expect(compileCacheProblem(dir)).toBe(`${root} is writable by its group (mode 0777)`);
  });

  it.skipIf(skipUnless('a compile cache folder of another owner', notRoot))('is not used when another user owns it', () => {
    const dir = join(root, 'node-compile-cache');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(compileCacheProblem(dir)).toBe(`${dir} is owned by uid 65534, not by this user (uid 0)`);
  });
});
