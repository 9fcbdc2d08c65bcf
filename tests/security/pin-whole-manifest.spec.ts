/**
 * A pin is the whole package a person reviewed in `hookbox add`: the wasm
 * and every field of its hook.json. Editing only the installed manifest's
 * `tools` once switched a pinned guard-bash off (`git push --force` no longer
 * denied) while `verify` said ok. Here the real bin and npm (offline) add a
 * packed guard-bash; then each reviewed field is changed on disk and must be
 * refused by `verify`, by `run` and by the loader, naming the field; a pin
 * from before manifests were pinned is refused with how to re-pin; and a
 * second install that differs from the review in any field is refused.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPin, loadOperatorConfig, manifestPin, readHookPackage, specForEntry } from '../../host/config/index.ts';
import { HookLoadError } from '../../host/errors.ts';
import { assertSameAsReviewed } from '../../host/cli/packages/same-as-reviewed.ts';
import { exampleManifest } from '../helpers/examples.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
const GUARD = exampleManifest('guard-bash');
const INSTALLED_MANIFEST = path.join('.hookbox', 'packages', 'node_modules', '@acme', 'guard-bash', 'dist', 'hook.json');

let scratch: string;
let env: NodeJS.ProcessEnv;
let tarball: string;

function hookbox(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

/** A project with guard-bash added from the tarball, and a script whose model asks for `git push --force`. */
function addedProject(name: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const script = { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'git push --force origin main' } }] }, { text: 'done' }] };
  writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
  const added = hookbox(['add', tarball, '--yes', '--offline'], dir);
  expect(added.stderr).toBe('');
  expect(added.status).toBe(0);
  return dir;
}

function editManifest(dir: string, edit: (manifest: Record<string, unknown>) => void): void {
  const file = path.join(dir, INSTALLED_MANIFEST);
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  writeFileSync(file, JSON.stringify(manifest));
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookbox-pin-whole-'));
  env = {
    ...process.env,
    NO_COLOR: '1',
    npm_config_cache: path.join(scratch, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_registry: 'http://127.0.0.1:9/',
    HOOKBOX_ORG_CONFIG: '',
    XDG_CONFIG_HOME: path.join(scratch, 'xdg'),
  };
  const packed = hookbox(['pack', GUARD, '--package-name', '@acme/guard-bash', '--package-version', '1.2.0', '-o', path.join(scratch, 'out'), '--json'], scratch);
  expect(packed.status).toBe(0);
  tarball = (JSON.parse(packed.stdout) as { tarball: string }).tarball;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SLOW = { timeout: 240_000 };

describe('a pinned package hook whose installed manifest was edited', SLOW, () => {
  it('with only its tools changed is refused by verify (exit 1) and run (exit 2), naming tools', () => {
    const dir = addedProject('tools');
    const denied = hookbox(['run', '--config', 'hookbox.config.json', '--script', 'script.json', '--cwd', dir, 'push'], dir);
    expect(denied.status).toBe(0);
    expect(denied.stdout).toContain('hook guard-bash tools/pre-execute deny');

    editManifest(dir, (manifest) => {
      manifest.tools = ['^nothing-matches$'];
    });
    const verified = hookbox(['verify'], dir);
    expect(verified.status).toBe(1);
    expect(verified.stdout).toContain('CHANGED  guard-bash (hooks[0]) @acme/guard-bash@1.2.0');
    expect(verified.stdout).toContain('tools differs from the reviewed manifest');
    const json = JSON.parse(hookbox(['verify', '--json'], dir).stdout) as { ok: boolean; hooks: { problems: { what: string; fields?: string[] }[] }[] };
    expect(json.ok).toBe(false);
    expect(json.hooks[0]?.problems).toEqual([expect.objectContaining({ what: 'manifest', fields: ['tools'] })]);

    const session = hookbox(['run', '--config', 'hookbox.config.json', '--script', 'script.json', '--cwd', dir, 'push'], dir);
    expect(session.status).toBe(2);
    expect(session.stdout).not.toContain('allow');
    expect(session.stderr).toContain('hooks[0] (guard-bash): the pinned package @acme/guard-bash@1.2.0 changed');
    expect(session.stderr).toContain('tools differs from the reviewed manifest');
  });

  it('in any other reviewed field (seams, limits, capabilities, protocol, config keys, description) is refused by the loader, naming it', () => {
    const dir = addedProject('fields');
    const file = path.join(dir, INSTALLED_MANIFEST);
    const original = readFileSync(file, 'utf8');
    const edits: Record<string, (manifest: Record<string, unknown>) => void> = {
      seams: (m) => void (m.seams = [...(m.seams as string[]), 'tools/post-execute']),
      limits: (m) => void (m.limits = { timeoutMs: 60_000 }),
      capabilities: (m) => void (m.capabilities = { allowedHosts: ['exfil.example'] }),
      protocol: (m) => void (m.protocol = 'claude-code'),
      config: (m) => void (m.config = { allow: 'patterns let through' }),
      description: (m) => void (m.description = 'approved by security'),
    };
    const config = path.join(dir, 'hookbox.config.json');
    for (const [field, edit] of Object.entries(edits)) {
      writeFileSync(file, original);
      editManifest(dir, edit);
      const [entry] = loadOperatorConfig(config).hooks;
      if (entry === undefined) throw new Error('no entry');
      expect(checkPin(entry).problems, field).toEqual([expect.objectContaining({ what: 'manifest', fields: [field] })]);
      expect(() => specForEntry(config, entry), field).toThrow(HookLoadError);
      expect(() => specForEntry(config, entry), field).toThrow(`${field} differs from the reviewed manifest`);
    }
    // Rewritten in another key order and spacing, the same manifest is the same pin.
    const same = JSON.parse(original) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify(Object.fromEntries(Object.entries(same).reverse()), null, 4));
    expect(hookbox(['verify'], dir).status).toBe(0);
  });

  it('a pin written before manifests were pinned is refused, saying how to re-pin, and re-adding fixes it', () => {
    const dir = addedProject('old-pin');
    const config = path.join(dir, 'hookbox.config.json');
    const raw = JSON.parse(readFileSync(config, 'utf8')) as { hooks: { pin: Record<string, unknown> }[] };
    delete raw.hooks[0]?.pin.manifest;
    writeFileSync(config, JSON.stringify(raw));
    const verified = hookbox(['verify'], dir);
    expect(verified.status).toBe(1);
    expect(verified.stdout).toContain("the config's pin covers only the wasm's sha256");
    expect(verified.stdout).toContain('run `hookbox add @acme/guard-bash` again');
    expect(hookbox(['add', tarball, '--yes', '--offline'], dir).status).toBe(0);
    expect(hookbox(['verify'], dir).status).toBe(0);
  });
});

describe("add's second install against the review", () => {
  const manifestOf = (extra: Record<string, unknown>) => {
    const base = JSON.parse(readFileSync(GUARD, 'utf8')) as Record<string, unknown>;
    return { ...base, wasm: 'hook.wasm', ...extra };
  };
  function folder(name: string, manifest: Record<string, unknown>): string {
    const dir = path.join(scratch, 'second', name);
    mkdirSync(path.join(dir, 'dist'), { recursive: true });
    copyFileSync(path.join(path.dirname(GUARD), 'hook.wasm'), path.join(dir, 'dist', 'hook.wasm'));
    writeFileSync(path.join(dir, 'dist', 'hook.json'), JSON.stringify(manifest));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: '@acme/guard-bash', version: '1.2.0', hookbox: { hooks: ['dist/hook.json'] } }));
    return dir;
  }

  it('is refused when the same wasm comes with other tools, limits or capabilities, naming each field', () => {
    const reviewed = readHookPackage(folder('reviewed', manifestOf({})));
    expect(() => assertSameAsReviewed(reviewed, readHookPackage(folder('same', manifestOf({}))), 'pkg')).not.toThrow();
    const changed = readHookPackage(folder('changed', manifestOf({ tools: ['^x$'], limits: { timeoutMs: 60_000 }, capabilities: { env: ['HOME'] } })));
    expect(changed.hooks[0]?.sha256).toBe(reviewed.hooks[0]?.sha256);
    expect(manifestPin(changed.hooks[0]!.manifest).sha256).not.toBe(manifestPin(reviewed.hooks[0]!.manifest).sha256);
    expect(() => assertSameAsReviewed(reviewed, changed, 'pkg')).toThrow(HookLoadError);
    expect(() => assertSameAsReviewed(reviewed, changed, 'pkg')).toThrow('hook guard-bash: tools, limits, capabilities of its hook.json differ from the review');
  });
});
