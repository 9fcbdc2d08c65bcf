/**
 * A config entry's `pin` (what `hookbox add` reviewed: package name, version,
 * wasm sha256, the whole manifest) is checked by the one loader every command uses, and by
 * `checkPin`, which `hookbox verify` reports. Real wasm files, a real runner.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResolvedHookEntry, checkPin, loadHooks, loadManifest, loadOperatorConfig, manifestPin, specForEntry } from '../../host/config/index.ts';
import { ConfigError, HookLoadError } from '../../host/errors.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

let dir: string;
let allowSha: string;
let denySha: string;
const sha = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

/** A package folder `pkg/` with package.json (name, version) and dist/hook.json + hook.wasm (the allow plugin). */
async function writePackage(version: string): Promise<string> {
  const root = path.join(dir, 'pkg');
  await mkdir(path.join(root, 'dist'), { recursive: true });
  await writeFile(path.join(root, 'dist', 'hook.wasm'), await readFile(path.join(dir, 'allow.wasm')));
  const manifest = { name: 'allow', version, wasm: 'hook.wasm', sha256: allowSha, seams: ['tools/pre-execute'] };
  await writeFile(path.join(root, 'dist', 'hook.json'), JSON.stringify(manifest));
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ name: '@acme/allow', version, hookbox: { hooks: ['dist/hook.json'] } }));
  return path.join(root, 'dist', 'hook.json');
}

async function configWith(hooks: unknown[]): Promise<string> {
  const file = path.join(dir, 'hookbox.config.json');
  await writeFile(file, JSON.stringify({ hooks }));
  return file;
}

/** The config's one entry. */
function onlyEntry(file: string): ResolvedHookEntry {
  const [entry] = loadOperatorConfig(file).hooks;
  if (entry === undefined) throw new Error(`${file} has no hook`);
  return entry;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-pin-'));
  allowSha = await sha(await writeCorpusWasm('allow', dir));
  denySha = await sha(await writeCorpusWasm('deny', dir));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a pinned hook loads only while it matches its pin', () => {
  it('a pinned wasm that matches loads, and the spec carries the pinned digest so the runner re-checks the bytes', async () => {
    const file = await configWith([{ name: 'a', wasm: 'allow.wasm', pin: { sha256: allowSha } }]);
    const config = loadOperatorConfig(file);
    expect(specForEntry(file, onlyEntry(file)).sha256).toBe(allowSha);
    const runner = await HookRunner.start();
    try {
      const hooks = await loadHooks(config, runner);
      expect(hooks.map((hook) => hook.name)).toEqual(['a']);
    } finally {
      await runner.close();
    }
  });

  it('a pinned wasm that changed is refused before it loads, with both digests and the entry', async () => {
    const file = await configWith([{ name: 'a', wasm: 'deny.wasm', pin: { sha256: allowSha } }]);
    const runner = await HookRunner.start();
    try {
      const error = await loadHooks(loadOperatorConfig(file), runner).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(HookLoadError);
      expect((error as Error).message).toBe(
        `${file}: hooks[0] (a): the pinned hook changed: ${path.join(dir, 'deny.wasm')}: the wasm has sha256 ${denySha}, the config pinned ${allowSha}; refusing to load it (run \`hookbox verify\`; re-add the package to review and pin the new one)`,
      );
    } finally {
      await runner.close();
    }
  });

  it("a package pin also holds the package's name and version: another version at the same path is refused", async () => {
    const manifest = await writePackage('1.0.0');
    const entry = { name: 'allow', manifest, pin: { package: '@acme/allow', version: '1.0.0', sha256: allowSha, manifest: manifestPin(loadManifest(manifest)) } };
    expect(checkPin(onlyEntry(await configWith([entry])))).toMatchObject({ status: 'ok', problems: [] });
    await writePackage('1.1.0');
    const file = await configWith([entry]);
    expect(checkPin(onlyEntry(file)).problems).toEqual([
      expect.objectContaining({ what: 'manifest', fields: ['version'] }),
      expect.objectContaining({ what: 'package', expected: '@acme/allow@1.0.0', actual: '@acme/allow@1.1.0' }),
    ]);
    expect(() => specForEntry(file, onlyEntry(file))).toThrow(/the package is @acme\/allow@1\.1\.0, the config pinned @acme\/allow@1\.0\.0/);
  });

  it('checkPin of an unpinned manifest compares the wasm with the manifest; of an unpinned wasm, reports unpinned', async () => {
    const manifest = await writePackage('1.0.0');
    expect(checkPin({ manifest })).toMatchObject({ status: 'unpinned', wasmSha256: allowSha, problems: [] });
    await writeFile(path.join(path.dirname(manifest), 'hook.wasm'), await readFile(path.join(dir, 'deny.wasm')));
    expect(checkPin({ manifest })).toMatchObject({ status: 'changed', problems: [{ what: 'wasm', expected: allowSha, actual: denySha }] });
    expect(checkPin({ wasm: path.join(dir, 'allow.wasm') })).toEqual({ status: 'unpinned', wasmSha256: allowSha, problems: [] });
    expect(checkPin({ wasm: path.join(dir, 'gone.wasm'), pin: { sha256: allowSha } })).toMatchObject({
      status: 'changed',
      problems: [{ what: 'wasm', expected: allowSha, actual: 'missing' }],
    });
  });
});

describe('the pin field in the config', () => {
  it('is refused on a shell hook, and a package pin needs a manifest entry', async () => {
    const shell = await configWith([{ name: 's', command: 'true', unsandboxed: true, protocol: 'claude-code', seams: ['tools/pre-execute'], pin: { sha256: allowSha } }]);
    expect(() => loadOperatorConfig(shell)).toThrow(ConfigError);
    expect(() => loadOperatorConfig(shell)).toThrow(/hooks\[0\]\.pin: applies to wasm hooks only/);
    const wasm = await configWith([{ name: 'w', wasm: 'allow.wasm', pin: { package: 'x', sha256: allowSha } }]);
    expect(() => loadOperatorConfig(wasm)).toThrow(/hooks\[0\]\.pin\.package: a package pin needs a "manifest" entry/);
    const digest = await configWith([{ name: 'w', wasm: 'allow.wasm', pin: { sha256: 'abc' } }]);
    expect(() => loadOperatorConfig(digest)).toThrow(/hooks\[0\]\.pin\.sha256: a 64-digit lowercase hex sha256/);
  });
});
