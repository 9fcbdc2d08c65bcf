/**
 * The incremental type-check `hookbox build` runs (pdk/compiler/typecheck.ts
 * with a build info under the cache root): what it keeps never hides a change
 * or an error, a damaged build info costs only a full check, and the cache
 * directory stays bounded.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../host/errors.ts';
import { MAX_BUILD_INFOS, buildInfoPath, typecheckHook } from '../../pdk/compiler/typecheck.ts';

let dir: string;
let cacheDir: string;

/** A two-file hook: the entry uses what lib.ts exports. */
function project(name: string, lib: string): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'lib.ts'), lib);
  writeFileSync(join(root, 'hook.ts'), "import { limit } from './lib.ts';\nexport const doubled: number = limit() * 2;\n");
  return join(root, 'hook.ts');
}

function check(entry: string): void {
  typecheckHook(entry, [], buildInfoPath(cacheDir, entry));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-typecheck-incremental-'));
  cacheDir = join(dir, 'cache');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('incremental type-check', () => {
  it('a one-off check and an incremental one in the same process share no parsed library file', () => {
    // First in this file, so the one-off check parses the library files: an incremental program
    // needs every file versioned, and the one-off check's are not.
    const entry = project('mixed', 'export function limit(): number {\n  return 4;\n}\n');
    expect(() => typecheckHook(entry)).not.toThrow();
    expect(() => check(entry)).not.toThrow();
    expect(() => typecheckHook(entry)).not.toThrow();
  });

  it('a change to an imported file is checked again: the error it makes in the entry is reported, and its fix clears it', () => {
    const entry = project('edited', 'export function limit(): number {\n  return 4;\n}\n');
    check(entry);
    expect(readdirSync(join(cacheDir, 'typecheck'))).toContain(buildInfoPath(cacheDir, entry).split('/').pop());
    writeFileSync(join(dir, 'edited', 'lib.ts'), "export function limit(): string {\n  return 'four';\n}\n");
    expect(() => check(entry)).toThrow(/hook\.ts:2:32: error TS2362: The left-hand side of an arithmetic operation/);
    writeFileSync(join(dir, 'edited', 'lib.ts'), 'export function limit(): number {\n  return 5;\n}\n');
    expect(() => check(entry)).not.toThrow();
  });

  it('an error stays reported on the next check of the unchanged hook', () => {
    const entry = project('broken', "export function limit(): number {\n  return 'four';\n}\n");
    const first = (() => {
      try {
        check(entry);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(first).toBeInstanceOf(BuildError);
    expect((first as BuildError).message).toMatch(/lib\.ts:2:3: error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(() => check(entry)).toThrow((first as BuildError).message);
  });

  it('a damaged build info costs a full check and is written anew', () => {
    const entry = project('damaged', 'export function limit(): number {\n  return 4;\n}\n');
    const info = buildInfoPath(cacheDir, entry);
    mkdirSync(join(cacheDir, 'typecheck'), { recursive: true });
    writeFileSync(info, '{"version": "5.9.3", "fileNames": [7');
    expect(() => check(entry)).not.toThrow();
    expect(() => JSON.parse(readFileSync(info, 'utf8')) as unknown).not.toThrow();
    writeFileSync(join(dir, 'damaged', 'lib.ts'), "export function limit(): number {\n  return 'four';\n}\n");
    writeFileSync(info, 'not json at all');
    expect(() => check(entry)).toThrow(/error TS2322/);
  });

  it(`keeps at most ${MAX_BUILD_INFOS} build infos, dropping the least recently written`, () => {
    const checks = join(cacheDir, 'typecheck');
    mkdirSync(checks, { recursive: true });
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < MAX_BUILD_INFOS + 5; i++) {
      const file = join(checks, `stale-${i}.tsbuildinfo`);
      writeFileSync(file, '{}');
      utimesSync(file, old + i, old + i);
    }
    const other = join(checks, 'notes.txt');
    writeFileSync(other, 'not a build info');
    utimesSync(other, old - 10, old - 10);
    const entry = project('pruning', 'export function limit(): number {\n  return 4;\n}\n');
    check(entry);
    expect(readdirSync(checks)).toContain('notes.txt');
    const left = readdirSync(checks).filter((name) => name.endsWith('.tsbuildinfo'));
    expect(left).toHaveLength(MAX_BUILD_INFOS);
    expect(left).toContain(buildInfoPath(cacheDir, entry).split('/').pop());
    expect(left).not.toContain('stale-0.tsbuildinfo');
    expect(left).toContain(`stale-${MAX_BUILD_INFOS + 4}.tsbuildinfo`);
  });
});
