/**
 * When the bin may run the build instead of the sources (host/fresh-build.mjs),
 * on a scratch checkout (a `.git`, a stamp, source files with chosen mtimes) and
 * on a scratch installed package (no `.git`, no host/ sources, every mtime "now").
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs module without types
import { freshBin as freshBinUntyped, freshBuild as freshBuildUntyped, isCheckout as isCheckoutUntyped } from '../../host/fresh-build.mjs';
import { isCheckoutRoot } from '../../host/package.ts';

const freshBin = freshBinUntyped as (root: URL) => URL | undefined;
const freshBuild = freshBuildUntyped as (root: URL) => URL | undefined;
const isCheckout = isCheckoutUntyped as (root: URL) => boolean;

const BUILT_AT = Date.parse('2026-01-01T00:00:00Z');
let dir: string;
let root: URL;

function source(path: string, mtime: number): void {
  const file = join(dir, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '// source\n');
  utimesSync(file, mtime / 1000, mtime / 1000);
}

function stamp(content: unknown): void {
  mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'dist', '.build-stamp'), typeof content === 'string' ? content : JSON.stringify(content));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-fresh-'));
  root = pathToFileURL(`${dir}/`);
  source('host/cli/main.ts', BUILT_AT - 60_000);
  source('host/runner/worker.ts', BUILT_AT - 60_000);
  source('pdk/index.ts', BUILT_AT - 60_000);
  mkdirSync(join(dir, '.git'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('freshBin: the CLI bundle', () => {
  const inputs = ['host/cli/main.ts', 'host/runner/worker.ts'];

  it('runs when every file the bundle was made from is older than the build', () => {
    stamp({ startedAt: BUILT_AT, binInputs: inputs });
    expect(freshBin(root)?.href).toBe(new URL('dist/bin/', root).href);
  });

  it('is stale as soon as one of its files is edited after the build started', () => {
    stamp({ startedAt: BUILT_AT, binInputs: inputs });
    source('host/runner/worker.ts', BUILT_AT + 1);
    expect(freshBin(root)).toBeUndefined();
  });

  it('ignores files outside the bundle, and listed files that are gone (the installed package ships no host/ sources)', () => {
    stamp({ startedAt: BUILT_AT, binInputs: [...inputs, 'host/cli/removed.ts'] });
    source('host/unrelated/newer.ts', BUILT_AT + 60_000);
    expect(freshBin(root)).toBeDefined();
  });

  it('is absent without a stamp, with an unreadable one, or with a stamp from before the bundle (no input list)', () => {
    expect(freshBin(root)).toBeUndefined();
    stamp('{ not json');
    expect(freshBin(root)).toBeUndefined();
    stamp({ startedAt: BUILT_AT });
    expect(freshBin(root)).toBeUndefined();
    stamp({ startedAt: String(BUILT_AT), binInputs: inputs });
    expect(freshBin(root)).toBeUndefined();
  });
});

describe('freshBuild: the tsc output, checked against every source under host/ and pdk/', () => {
  it('is fresh when nothing changed, stale when any .ts under host/ or pdk/ is newer, listed or not', () => {
    stamp({ startedAt: BUILT_AT, binInputs: [] });
    expect(freshBuild(root)?.href).toBe(new URL('dist/', root).href);
    source('pdk/compiler/new-file.ts', BUILT_AT + 1);
    expect(freshBuild(root)).toBeUndefined();
  });
});

describe('an installed package (no .git, no host/ sources): its build always runs, whatever the mtimes', () => {
  function installed(): void {
    rmSync(join(dir, '.git'), { recursive: true });
    unlinkSync(join(dir, 'host', 'cli', 'main.ts'));
    unlinkSync(join(dir, 'host', 'runner', 'worker.ts'));
    // npm gives what it extracts the install time: every shipped file is newer than the stamp.
    source('pdk/index.ts', BUILT_AT + 3_600_000);
    source('host/cli/hookbox.mjs', BUILT_AT + 3_600_000);
  }

  it('runs dist/bin and dist/ with the stamp older than every file, or with no stamp at all', () => {
    installed();
    mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'host'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'bin', 'main.js'), '');
    writeFileSync(join(dir, 'dist', 'host', 'index.js'), '');
    stamp({ startedAt: BUILT_AT, binInputs: ['host/cli/main.ts', 'pdk/index.ts'] });
    expect(freshBin(root)?.href).toBe(new URL('dist/bin/', root).href);
    expect(freshBuild(root)?.href).toBe(new URL('dist/', root).href);
    rmSync(join(dir, 'dist', '.build-stamp'));
    expect(freshBin(root)).toBeDefined();
    expect(freshBuild(root)).toBeDefined();
  });

  it('has no build to run when dist/ is missing (the bin then says so instead of loading sources it lacks)', () => {
    installed();
    expect(freshBin(root)).toBeUndefined();
    expect(freshBuild(root)).toBeUndefined();
  });

  it('is told from a checkout by .git and host/cli/main.ts together, by the bin and the host alike', () => {
    const both = (): [boolean, boolean] => [isCheckout(root), isCheckoutRoot(dir)];
    expect(both()).toEqual([true, true]);
    rmSync(join(dir, '.git'), { recursive: true });
    expect(both()).toEqual([false, false]);
    writeFileSync(join(dir, '.git'), 'gitdir: /elsewhere\n'); // a worktree's .git is a file
    expect(both()).toEqual([true, true]);
    unlinkSync(join(dir, 'host', 'cli', 'main.ts'));
    expect(both()).toEqual([false, false]);
  });

  it('takes HOOKBOX_CHECKOUT=1 for the .git a copy of a checkout lacks (the mutation sandbox), never for the sources', () => {
    const both = (): [boolean, boolean] => [isCheckout(root), isCheckoutRoot(dir)];
    rmSync(join(dir, '.git'), { recursive: true });
    const before = process.env.HOOKBOX_CHECKOUT;
    process.env.HOOKBOX_CHECKOUT = '1';
    try {
      expect(both()).toEqual([true, true]);
      unlinkSync(join(dir, 'host', 'cli', 'main.ts'));
      expect(both()).toEqual([false, false]);
    } finally {
      if (before === undefined) delete process.env.HOOKBOX_CHECKOUT;
      else process.env.HOOKBOX_CHECKOUT = before;
    }
  });
});
