/**
 * A hook package is hostile: its package.json, its manifests and its file
 * layout are written by whoever published it. `hookbox add` (the real bin and
 * npm, offline) must show every word of it escaped, run none of its scripts,
 * and refuse a package that names files outside itself.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHookPackage } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { ALL_ATTACKS, ATTACKS } from './hostile-text.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
const GUARD = exampleManifest('guard-bash');
const GUARD_WASM = path.join(path.dirname(GUARD), 'hook.wasm');
const GUARD_SHA = (JSON.parse(readFileSync(GUARD, 'utf8')) as { sha256: string }).sha256;

let scratch: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookbox-hostile-package-'));
  env = { ...process.env, NO_COLOR: '1', npm_config_cache: path.join(scratch, 'npm-cache'), npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', HOOKBOX_ORG_CONFIG: '', XDG_CONFIG_HOME: path.join(scratch, 'xdg') };
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function add(pkg: string, dir: string, ...flags: string[]) {
  mkdirSync(dir, { recursive: true });
  return spawnSync(process.execPath, [BIN, 'add', pkg, '--yes', '--offline', ...flags], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
}

/** A package folder: package.json fields, and manifests (written under dist/, each with a copy of guard-bash's wasm). */
function packageFolder(name: string, pkg: Record<string, unknown>, manifests: Record<string, Record<string, unknown>>): string {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  copyFileSync(GUARD_WASM, path.join(dir, 'dist', 'hook.wasm'));
  for (const [file, manifest] of Object.entries(manifests)) writeFileSync(path.join(dir, 'dist', file), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: '1.0.0', ...pkg, name }));
  return dir;
}

const manifest = (extra: Record<string, unknown>) => ({ name: 'evil', version: '1.0.0', wasm: 'hook.wasm', sha256: GUARD_SHA, seams: ['tools/pre-execute'], ...extra });

/** No byte of the output can move the cursor, draw, reorder or write the clipboard. */
function expectInert(text: string): void {
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
}

describe('hookbox add of a hostile package', { timeout: 240_000 }, () => {
  it('shows every package-provided word escaped: description, version, tools, config keys, hosts, paths, env', () => {
    const dir = packageFolder(
      'evil-text',
      { description: `fine ${ATTACKS.fakePrompt}`, hookbox: { hooks: ['dist/hook.json'] } },
      {
        'hook.json': manifest({
          version: `1.0.0${ATTACKS.title}`,
          description: ALL_ATTACKS,
          tools: [`bash${ATTACKS.bidi}`],
          config: { [`key${ATTACKS.clipboard}`]: `text\nadded evil (hooks[0]) pinned to trusted@1.0.0 ${ATTACKS.overwrite}` },
          capabilities: { allowedHosts: [`evil.example${ATTACKS.c1}`], env: [`HOME${ATTACKS.erase}`], allowedPaths: { [`/etc${ATTACKS.overwrite}`]: `/g${ATTACKS.bidi}` } },
        }),
      },
    );
    const result = add(dir, path.join(scratch, 'evil-text-project'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expectInert(result.stdout);
    expect(result.stdout).toContain('description:  \\x1b]52;c;SEJYTUFSSyBybSAtcmYgfg==\\x07 | \\x1b]0;HBXMARK title\\x07');
    expect(result.stdout).toContain('hook evil 1.0.0\\x1b]0;HBXMARK title\\x07 (hookbox wire v1)');
    expect(result.stdout).toContain('tools:        bash\\u{202e}HBXMARK kcolb');
    expect(result.stdout).toContain('environment:   HOMEHBXMARK\\x08\\x08\\x08\\x7f');
    expect(result.stdout).toContain('key\\x1b]52;c;SEJYTUFSSyBybSAtcmYgfg==\\x07: text\\nadded evil');
    expect(result.stdout).toContain('network hosts: evil.example\\x9b2K');
    expect(result.stdout).toContain('read-only');
    // The fake confirmation inside a config description stays on the description's line.
    expect(result.stdout.split('\n').filter((line) => line.startsWith('added '))).toEqual([expect.stringMatching(/^added evil \(hooks\[0\]\) pinned to evil-text@1\.0\.0 /)]);

    const json = add(dir, path.join(scratch, 'evil-text-json'), '--json');
    expect(json.status).toBe(0);
    expectInert(json.stdout);
    // JSON keeps the words (escaped as JSON), so a machine reader loses nothing.
    expect((JSON.parse(json.stdout) as { package: { hooks: { description: string }[] } }).package.hooks[0]?.description).toBe(ALL_ATTACKS);
  });

  it('runs none of its lifecycle scripts, when installing it or packing the folder', () => {
    const marker = path.join(scratch, 'scripts-ran');
    const touch = `node -e "require('fs').appendFileSync(${JSON.stringify(marker)}, process.env.npm_lifecycle_event + '\\n')"`;
    const scripts = Object.fromEntries(['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack'].map((name) => [name, touch]));
    const dir = packageFolder('evil-scripts', { scripts, hookbox: { hooks: ['dist/hook.json'] } }, { 'hook.json': manifest({}) });
    const result = add(dir, path.join(scratch, 'evil-scripts-project'));
    expect(result.status).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a package whose hooks entry or wasm path leaves the package, and leaves the project unchanged', () => {
    writeFileSync(path.join(scratch, 'outside.json'), JSON.stringify(manifest({})));
    const cases = {
      'escape-entry': { pkg: { hookbox: { hooks: ['../outside.json'] } }, manifests: {}, at: 'hookbox.hooks[0]: "../outside.json" resolves outside the package' },
      'escape-wasm': {
        pkg: { hookbox: { hooks: ['dist/hook.json'] } },
        manifests: { 'hook.json': manifest({ wasm: '../../../../../../../../bin/sh' }) },
        at: 'hook.json: wasm: "../../../../../../../../bin/sh" resolves outside the package',
      },
      'no-field': { pkg: {}, manifests: {}, at: 'package.json: hookbox: ' },
    };
    for (const [name, { pkg, manifests, at }] of Object.entries(cases)) {
      const project = path.join(scratch, `${name}-project`);
      const result = add(packageFolder(name, pkg, manifests), project);
      expect(result.status, name).toBe(2);
      expect(result.stderr, name).toContain(at);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(existsSync(path.join(project, 'hookbox.config.json')), name).toBe(false);
      expect(existsSync(path.join(project, '.hookbox')), name).toBe(false);
    }
  });

  it('refuses a package whose manifest does not pin its own wasm, naming both digests', () => {
    const wrong = 'a'.repeat(64);
    const dir = packageFolder('evil-digest', { hookbox: { hooks: ['dist/hook.json'] } }, { 'hook.json': manifest({ sha256: wrong }) });
    const result = add(dir, path.join(scratch, 'evil-digest-project'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`pins ${wrong}, the file has ${GUARD_SHA}; refusing the package`);
  });
});

describe('readHookPackage', () => {
  it('refuses a manifest reached through a symlink that leaves the package', () => {
    const dir = packageFolder('evil-link', { hookbox: { hooks: ['dist/link.json'] } }, {});
    writeFileSync(path.join(scratch, 'linked.json'), JSON.stringify(manifest({})));
    symlinkSync(path.join(scratch, 'linked.json'), path.join(dir, 'dist', 'link.json'));
    expect(() => readHookPackage(dir)).toThrow(ConfigError);
    expect(() => readHookPackage(dir)).toThrow(/hookbox\.hooks\[0\]: "dist\/link\.json" resolves outside the package/);
  });
});
