/**
 * When the bin may run the build instead of the sources (host/cli/fresh-build.mjs),
 * on a scratch checkout: a stamp, source files with chosen mtimes.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs module without types
import { freshBin as freshBinUntyped, freshBuild as freshBuildUntyped } from '../../host/cli/fresh-build.mjs';

const freshBin = freshBinUntyped as (root: URL) => URL | undefined;
const freshBuild = freshBuildUntyped as (root: URL) => URL | undefined;

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
