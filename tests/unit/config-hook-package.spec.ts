/**
 * `readHookPackage`: a hook package's package.json `hookbox.hooks`, each
 * manifest and each wasm digest. A package is hostile: every path it names
 * must stay inside it, by name and by realpath; each refusal names the file,
 * the JSON path and the path as written. Real files in a temp folder.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readHookPackage } from '../../host/config/index.ts';
import { ConfigError, HookLoadError } from '../../host/errors.ts';
import { compileWat } from '../helpers/wat.ts';

let scratch: string;
let root: string;
let packageFile: string;
let bytes: Uint8Array;
let sha: string;

beforeEach(async () => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-package-')));
  root = path.join(scratch, 'pkg');
  packageFile = path.join(root, 'package.json');
  mkdirSync(path.join(root, 'dist', 'sub'), { recursive: true });
  bytes = await compileWat('allow');
  sha = createHash('sha256').update(bytes).digest('hex');
  writeFileSync(path.join(root, 'dist', 'hook.wasm'), bytes);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function writePackage(hooks: string[], extra: Record<string, unknown> = {}): void {
  writeFileSync(packageFile, JSON.stringify({ name: '@acme/guards', version: '1.2.3', hookbox: { hooks }, ...extra }));
}

/** Writes `dist/<file>` (a manifest of the allow plugin) and returns its path. */
function writeManifest(file: string, fields: Record<string, unknown> = {}): string {
  const manifest = path.join(root, 'dist', file);
  writeFileSync(manifest, JSON.stringify({ name: 'guard', version: '1.0.0', wasm: 'hook.wasm', sha256: sha, seams: ['tools/pre-execute'], ...fields }));
  return manifest;
}

function thrown(kind: typeof ConfigError | typeof HookLoadError, dir = root): Error {
  try {
    readHookPackage(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return error as Error;
  }
  throw new Error(`expected a ${kind.name}`);
}

const outside = (at: string, written: string, resolved: string) =>
  `${at}: ${JSON.stringify(written)} resolves outside the package (${resolved}); a hook package may only name its own files`;

describe('a package that keeps to itself', () => {
  it('is read whole: its name, version, description, and each hook with its manifest, wasm and digest', () => {
    const first = writeManifest('hook.json', { description: 'the first' });
    // A manifest may name a wasm outside its own folder, as long as it is inside the package.
    const second = writeManifest('sub/hook.json', { name: 'second', wasm: '../hook.wasm', protocol: 'codex' });
    writePackage(['dist/hook.json', './dist/sub/hook.json'], { description: 'two guards' });
    const wasmFile = path.join(root, 'dist', 'hook.wasm');
    expect(readHookPackage(root)).toStrictEqual({
      dir: root,
      name: '@acme/guards',
      version: '1.2.3',
      description: 'two guards',
      hooks: [
        {
          manifestFile: first,
          entry: 'dist/hook.json',
          manifest: { name: 'guard', version: '1.0.0', protocol: 1, wasm: 'hook.wasm', sha256: sha, seams: ['tools/pre-execute'], description: 'the first' },
          wasmFile,
          sha256: sha,
        },
        {
          manifestFile: second,
          entry: './dist/sub/hook.json',
          manifest: { name: 'second', version: '1.0.0', protocol: 'codex', wasm: '../hook.wasm', sha256: sha, seams: ['tools/pre-execute'] },
          wasmFile,
          sha256: sha,
        },
      ],
    });
  });

  it('without a description, has none; read through a symlink, its dir is the real folder', () => {
    writeManifest('hook.json');
    writePackage(['dist/hook.json']);
    symlinkSync(root, path.join(scratch, 'alias'));
    const read = readHookPackage(path.join(scratch, 'alias'));
    expect(read.dir).toBe(root);
    expect(read).not.toHaveProperty('description');
    expect(read.hooks.map((hook) => hook.manifestFile)).toEqual([path.join(root, 'dist', 'hook.json')]);
  });

  it('a file whose name merely starts with ".." inside a folder of the package is inside it', () => {
    writeFileSync(path.join(root, 'dist', '..hook.wasm'), bytes);
    writeManifest('..hook.json', { wasm: '..hook.wasm' });
    writePackage(['dist/..hook.json']);
    expect(readHookPackage(root).hooks.map((hook) => hook.wasmFile)).toEqual([path.join(root, 'dist', '..hook.wasm')]);
  });

  it('so is one at the package root: only ".." itself and "../…" lead out', () => {
    // Was refused as "resolves outside the package": the check read the text, not the segments.
    writeFileSync(path.join(root, '..hook.wasm'), bytes);
    writeFileSync(path.join(root, '..hook.json'), JSON.stringify({ name: 'guard', version: '1.0.0', wasm: '..hook.wasm', sha256: sha, seams: ['tools/pre-execute'] }));
    writePackage(['..hook.json']);
    expect(readHookPackage(root).hooks.map((hook) => [hook.manifestFile, hook.wasmFile])).toEqual([[path.join(root, '..hook.json'), path.join(root, '..hook.wasm')]]);
  });
});

describe('a package is refused', () => {
  it('when two of its hooks have one name', () => {
    writeManifest('hook.json');
    writeManifest('sub/hook.json', { wasm: '../hook.wasm' });
    writePackage(['dist/hook.json', 'dist/sub/hook.json']);
    expect(thrown(ConfigError).message).toBe(`${packageFile}: hookbox.hooks[1]: hook name "guard" is already used by hookbox.hooks[0]`);
  });

  it('when a wasm cannot be read', () => {
    mkdirSync(path.join(root, 'dist', 'folder.wasm'));
    const manifest = writeManifest('hook.json', { wasm: 'folder.wasm' });
    writePackage(['dist/hook.json']);
    expect(thrown(HookLoadError).message).toBe(`${manifest}: wasm: cannot read ${path.join(root, 'dist', 'folder.wasm')}`);
  });

  it('when a wasm is not the one its manifest pins, naming both digests', () => {
    const wrong = 'e'.repeat(64);
    const manifest = writeManifest('hook.json', { sha256: wrong });
    writePackage(['dist/hook.json']);
    expect(thrown(HookLoadError).message).toBe(
      `${path.join(root, 'dist', 'hook.wasm')}: sha256 mismatch: the manifest ${manifest} pins ${wrong}, the file has ${sha}; refusing the package`,
    );
  });

  it('when a hooks entry or a wasm path leads out of the package by name, whether or not the file is there', () => {
    writeFileSync(path.join(scratch, 'outside.json'), '{}');
    writePackage(['../outside.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${packageFile}: hookbox.hooks[0]`, '../outside.json', path.join(scratch, 'outside.json')));
    writePackage(['../nowhere.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${packageFile}: hookbox.hooks[0]`, '../nowhere.json', path.join(scratch, 'nowhere.json')));
    writeFileSync(path.join(scratch, 'hook.wasm'), bytes);
    const manifest = writeManifest('hook.json', { wasm: '../../hook.wasm' });
    writePackage(['dist/hook.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${manifest}: wasm`, '../../hook.wasm', path.join(scratch, 'hook.wasm')));
    writeManifest('hook.json', { wasm: '../../nowhere.wasm' });
    expect(thrown(ConfigError).message).toBe(outside(`${manifest}: wasm`, '../../nowhere.wasm', path.join(scratch, 'nowhere.wasm')));
  });

  it('when a manifest or a wasm is a symlink to a file outside the package', () => {
    writeFileSync(path.join(scratch, 'outside.json'), '{}');
    symlinkSync(path.join(scratch, 'outside.json'), path.join(root, 'dist', 'link.json'));
    writePackage(['dist/link.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${packageFile}: hookbox.hooks[0]`, 'dist/link.json', path.join(scratch, 'outside.json')));
    writeFileSync(path.join(scratch, 'outside.wasm'), bytes);
    symlinkSync(path.join(scratch, 'outside.wasm'), path.join(root, 'dist', 'link.wasm'));
    const manifest = writeManifest('hook.json', { wasm: 'link.wasm' });
    writePackage(['dist/hook.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${manifest}: wasm`, 'link.wasm', path.join(scratch, 'outside.wasm')));
  });

  it('when a path names the package root itself', () => {
    writePackage(['.']);
    expect(thrown(ConfigError).message).toBe(outside(`${packageFile}: hookbox.hooks[0]`, '.', root));
    const manifest = writeManifest('hook.json', { wasm: '..' });
    writePackage(['dist/hook.json']);
    expect(thrown(ConfigError).message).toBe(outside(`${manifest}: wasm`, '..', root));
  });

  it('when a file it names does not exist, with the errno code and the cause', () => {
    writePackage(['dist/none.json']);
    const entry = thrown(ConfigError);
    expect(entry.message).toBe(`${packageFile}: hookbox.hooks[0]: "dist/none.json": no such file in the package (ENOENT)`);
    expect(entry.cause).toMatchObject({ code: 'ENOENT' });
    const manifest = writeManifest('hook.json', { wasm: 'gone.wasm' });
    writePackage(['dist/hook.json']);
    expect(thrown(ConfigError).message).toBe(`${manifest}: wasm: "gone.wasm": no such file in the package (ENOENT)`);
  });
});
