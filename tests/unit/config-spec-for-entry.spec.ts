/**
 * `specForEntry`: what the runner loads for one config entry. A wasm entry
 * carries the operator's settings as written; a manifest entry merges them
 * with its hook.json (the operator wins, the manifest fills the rest, the
 * capabilities are the intersection), and every way the two contradict each
 * other is a `ConfigError` naming the config file, the JSON path and the
 * manifest. Real files in a temp folder; every spec compared whole.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ResolvedHookEntry, loadManifest, loadOperatorConfig, manifestPin, specForEntry } from '../../host/config/index.ts';
import { ConfigError, HookLoadError } from '../../host/errors.ts';
import { compileWat } from '../helpers/wat.ts';

let dir: string;
let file: string;
let wasm: string;
let sha: string;

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-spec-')));
  file = path.join(dir, 'hookbox.config.json');
  wasm = path.join(dir, 'allow.wasm');
  const bytes = await compileWat('allow');
  writeFileSync(wasm, bytes);
  sha = createHash('sha256').update(bytes).digest('hex');
  mkdirSync(path.join(dir, 'data'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The one entry of a config holding `hook`. */
function entryOf(hook: Record<string, unknown>): ResolvedHookEntry {
  writeFileSync(file, JSON.stringify({ hooks: [hook] }));
  const [entry] = loadOperatorConfig(file).hooks;
  return entry!;
}

function writeManifest(name: string, fields: Record<string, unknown> = {}): string {
  const manifest = path.join(dir, name);
  writeFileSync(manifest, JSON.stringify({ name: 'allow-hook', version: '1.0.0', wasm: 'allow.wasm', sha256: sha, seams: ['tools/pre-execute'], ...fields }));
  return manifest;
}

function thrown(fn: () => unknown, kind: typeof ConfigError | typeof HookLoadError): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return (error as Error).message;
  }
  throw new Error(`expected a ${kind.name}`);
}

function refusal(hook: Record<string, unknown>): string {
  const entry = entryOf(hook);
  return thrown(() => specForEntry(file, entry), ConfigError);
}

const codec = (name: string) => ({ name, encode: expect.any(Function), decode: expect.any(Function) });
const grantSource = 'hooks[0].grant.allowedPaths';

describe('a wasm entry', () => {
  it('with every setting: each reaches the spec; the grant is all it requests', () => {
    const entry = entryOf({
      name: 'full',
      wasm: 'allow.wasm',
      protocol: 'claude-code',
      seams: ['tools/pre-execute'],
      tools: ['bash'],
      timeoutMs: 100,
      memoryMb: 16,
      maxOutputBytes: 2048,
      instructionBudget: 10000,
      failPolicy: 'closed',
      config: { mode: 'strict' },
      grant: { allowedHosts: ['api.example.com'], allowedPaths: { data: '/data' }, env: ['LANG'], clock: true },
      quarantineAfter: 2,
    });
    const expected = {
      name: 'full',
      wasm,
      codec: codec('claude-code'),
      seams: ['tools/pre-execute'],
      tools: ['bash'],
      limits: { timeoutMs: 100, memoryMb: 16, maxOutputBytes: 2048, instructionBudget: 10000 },
      failPolicy: 'closed',
      config: { mode: 'strict' },
      capabilities: { allowedHosts: ['api.example.com'], allowedPaths: { [path.join(dir, 'data')]: '/data' }, env: ['LANG'], clock: true },
      quarantineAfter: 2,
    };
    expect(specForEntry(file, entry)).toStrictEqual(expected);
    expect(specForEntry(file, { ...entry, lane: 'organisation' })).toStrictEqual({ ...expected, lane: 'organisation' });
  });

  it('with no setting: no codec (hookbox wire), no seams, tools, fail policy or quarantine; empty config and capabilities', () => {
    const bare = { name: 'bare', wasm, limits: {}, config: {}, capabilities: {} };
    expect(specForEntry(file, entryOf({ name: 'bare', wasm: 'allow.wasm' }))).toStrictEqual(bare);
    expect(specForEntry(file, entryOf({ name: 'bare', wasm: 'allow.wasm', protocol: 1 }))).toStrictEqual(bare);
  });

  it('a granted path that does not exist names the config file and the grant', () => {
    expect(refusal({ name: 'a', wasm: 'allow.wasm', grant: { allowedPaths: { missing: '/m' } } })).toBe(
      `${file}: ${grantSource}: "${path.join(dir, 'missing')}" does not exist (or cannot be resolved); a granted path must be an existing directory`,
    );
  });
});

describe('a manifest entry', () => {
  const everything = {
    protocol: 'codex',
    seams: ['tools/pre-execute', 'tools/post-execute'],
    tools: ['bash'],
    limits: { timeoutMs: 900, memoryMb: 32 },
    capabilities: { allowedHosts: ['api.example.com', 'other.example.com'], allowedPaths: { data: '/data' }, env: ['LANG', 'TZ'], clock: true },
    config: { mode: 'how strict' },
    description: 'a hook with every field',
  };

  it('with every setting: the operator wins, the manifest fills the rest, the capabilities are the intersection', () => {
    writeManifest('hook.json', everything);
    const entry = entryOf({
      name: 'guard',
      manifest: 'hook.json',
      protocol: 'codex',
      seams: ['tools/pre-execute'],
      tools: ['read_file'],
      timeoutMs: 100,
      failPolicy: 'open',
      config: { mode: 'strict' },
      grant: { allowedHosts: ['*.example.com'], allowedPaths: { '.': '/root' }, env: ['TZ'], clock: true },
      quarantineAfter: 5,
    });
    const expected = {
      name: 'guard',
      wasm,
      sha256: sha,
      codec: codec('codex'),
      seams: ['tools/pre-execute'],
      tools: ['read_file'],
      limits: { timeoutMs: 100, memoryMb: 32 },
      failPolicy: 'open',
      config: { mode: 'strict' },
      capabilities: { allowedHosts: ['api.example.com', 'other.example.com'], allowedPaths: { [path.join(dir, 'data')]: '/data' }, env: ['TZ'], clock: true },
      quarantineAfter: 5,
    };
    expect(specForEntry(file, entry)).toStrictEqual(expected);
    expect(specForEntry(file, { ...entry, lane: 'organisation' })).toStrictEqual({ ...expected, lane: 'organisation' });
  });

  it("with no setting: the manifest's name is not used, its seams and tools are; nothing is granted", () => {
    writeManifest('hook.json', { seams: ['tools/post-execute'], tools: ['bash'], capabilities: { env: ['LANG'] } });
    expect(specForEntry(file, entryOf({ name: 'plain', manifest: 'hook.json' }))).toStrictEqual({
      name: 'plain',
      wasm,
      sha256: sha,
      seams: ['tools/post-execute'],
      tools: ['bash'],
      limits: {},
      config: {},
      capabilities: {},
    });
    writeManifest('bare.json');
    expect(specForEntry(file, entryOf({ name: 'bare', manifest: 'bare.json', protocol: 1 }))).toStrictEqual({
      name: 'bare',
      wasm,
      sha256: sha,
      seams: ['tools/pre-execute'],
      limits: {},
      config: {},
      capabilities: {},
    });
  });

  it('a protocol other than the manifest declares', () => {
    const manifest = writeManifest('hook.json');
    expect(refusal({ name: 'a', manifest: 'hook.json', protocol: 'claude-code' })).toBe(`${file}: hooks[0].protocol: "claude-code" but the manifest ${manifest} declares 1`);
    const codex = writeManifest('codex.json', { protocol: 'codex' });
    expect(refusal({ name: 'a', manifest: 'codex.json', protocol: 1 })).toBe(`${file}: hooks[0].protocol: 1 but the manifest ${codex} declares "codex"`);
  });

  it('seams the manifest does not list, each named', () => {
    const manifest = writeManifest('hook.json', { seams: ['tools/pre-execute', 'agent/prompt-submit'] });
    expect(refusal({ name: 'a', manifest: 'hook.json', seams: ['tools/pre-execute', 'tools/post-execute', 'agent/session-start'] })).toBe(
      `${file}: hooks[0].seams: tools/post-execute, agent/session-start not handled by the hook (its manifest ${manifest} lists tools/pre-execute, agent/prompt-submit)`,
    );
  });

  it('config keys the manifest does not declare, each named with what it declares', () => {
    writeManifest('hook.json', { config: { mode: 'how strict', level: 'how loud' } });
    expect(refusal({ name: 'a', manifest: 'hook.json', config: { mode: 'x', mood: 'y', colour: 'z' } })).toBe(
      `${file}: hooks[0].config: "mood", "colour" not a config key of hook "allow-hook" (declared: mode, level)`,
    );
    writeManifest('none.json', { config: {} });
    expect(refusal({ name: 'a', manifest: 'none.json', config: { mode: 'x' } })).toBe(`${file}: hooks[0].config: "mode" not a config key of hook "allow-hook" (declared: none)`);
  });

  it('a manifest that declares no config takes any keys', () => {
    writeManifest('hook.json');
    expect(specForEntry(file, entryOf({ name: 'a', manifest: 'hook.json', config: { anything: '1' } })).config).toStrictEqual({ anything: '1' });
  });

  it('a requested path that leaves the grant through a symlink names the manifest and the grant', () => {
    mkdirSync(path.join(dir, 'elsewhere'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'data', 'link'));
    const manifest = writeManifest('hook.json', { capabilities: { allowedPaths: { 'data/link': '/l' } } });
    expect(refusal({ name: 'a', manifest: 'hook.json', grant: { allowedPaths: { data: '/data' } } })).toBe(
      `${manifest}: capabilities.allowedPaths: "${path.join(dir, 'data', 'link')}" resolves to ${path.join(dir, 'elsewhere')}, outside the grant "${path.join(dir, 'data')}" (${file}: ${grantSource}); a path that leaves its grant through a symlink is refused`,
    );
  });

  it('a requested write the grant does not give', () => {
    const manifest = writeManifest('hook.json', { capabilities: { allowedPaths: { data: { path: '/data', write: true } } } });
    expect(refusal({ name: 'a', manifest: 'hook.json', grant: { allowedPaths: { data: '/data' } } })).toBe(
      `${manifest}: capabilities.allowedPaths: "${path.join(dir, 'data')}" asks for "write": true, but ${file}: ${grantSource} grants "${path.join(dir, 'data')}" read-only (add "write": true to that grant to allow writes)`,
    );
  });
});

describe('a pinned entry', () => {
  it('that matches: the spec carries the pinned digest', () => {
    expect(specForEntry(file, entryOf({ name: 'a', wasm: 'allow.wasm', pin: { sha256: sha } }))).toStrictEqual({
      name: 'a',
      wasm,
      limits: {},
      config: {},
      capabilities: {},
      sha256: sha,
    });
    const manifest = writeManifest('hook.json');
    const pin = { sha256: sha, manifest: manifestPin(loadManifest(manifest)) };
    expect(specForEntry(file, entryOf({ name: 'm', manifest: 'hook.json', pin }))).toStrictEqual({
      name: 'm',
      wasm,
      sha256: sha,
      seams: ['tools/pre-execute'],
      limits: {},
      config: {},
      capabilities: {},
    });
  });

  it('of a package that changed: a HookLoadError naming the package and version (or *) and every problem', () => {
    mkdirSync(path.join(dir, 'pkg'));
    writeFileSync(path.join(dir, 'pkg', 'package.json'), JSON.stringify({ name: '@acme/other', version: '2.0.0' }));
    writeFileSync(path.join(dir, 'pkg', 'allow.wasm'), readFileSync(wasm));
    const manifest = path.join(dir, 'pkg', 'hook.json');
    writeFileSync(manifest, readFileSync(writeManifest('hook.json')));
    const pin = { package: '@acme/allow', version: '1.0.0', sha256: sha, manifest: manifestPin(loadManifest(manifest)) };
    const packageProblem = `${path.join(dir, 'pkg', 'package.json')}: the package is @acme/other@2.0.0, the config pinned @acme/allow@`;
    const messageFor = (pinned: string, problem: string) =>
      `${file}: hooks[0] (guard): the pinned package ${pinned} changed: ${problem}; refusing to load it (run \`hookbox verify\`; re-add the package to review and pin the new one)`;

    const versioned = entryOf({ name: 'guard', manifest: 'pkg/hook.json', pin });
    expect(thrown(() => specForEntry(file, versioned), HookLoadError)).toBe(messageFor('@acme/allow@1.0.0', `${packageProblem}1.0.0`));

    writeFileSync(path.join(dir, 'pkg', 'allow.wasm'), 'changed');
    const changedSha = createHash('sha256').update('changed').digest('hex');
    const unversioned = entryOf({ name: 'guard', manifest: 'pkg/hook.json', pin: { ...pin, version: undefined } });
    expect(thrown(() => specForEntry(file, unversioned), HookLoadError)).toBe(
      messageFor('@acme/allow@*', `${packageProblem}*; ${path.join(dir, 'pkg', 'allow.wasm')}: the wasm has sha256 ${changedSha}, the config pinned ${sha}`),
    );
  });
});
