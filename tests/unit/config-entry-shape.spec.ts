/**
 * The shape of one `hooks` entry (OperatorHookSchema): exactly one kind, and
 * the settings each kind refuses, each refusal naming the file, the JSON
 * path and why, alone (one refusal never drags in another's). Then the
 * string formats the schemas hold: hook names, env names, digests,
 * protocols, lockable keys. Real config files in a temp folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogNames } from '../../host/catalog/index.ts';
import { loadManifest, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-entry-shape-'));
  file = path.join(dir, 'hookbox.config.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function load(config: Record<string, unknown>) {
  writeFileSync(file, JSON.stringify(config));
  return loadOperatorConfig(file);
}

/** The whole message refusing a config whose one hook is `hook`. */
function refusal(hook: Record<string, unknown>, config: Record<string, unknown> = {}): string {
  try {
    load({ hooks: [hook], ...config });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const at = (key: string, message: string) => `${file}: hooks[0].${key}: ${message}`;
const SHA = 'a'.repeat(64);
const MANIFEST_PIN = {
  sha256: SHA,
  fields: Object.fromEntries(['name', 'version', 'protocol', 'wasm', 'sha256', 'seams', 'tools', 'limits', 'capabilities', 'config', 'description'].map((field) => [field, SHA])),
};
const wasm = { name: 'w', wasm: 'w.wasm' };
const rules = { name: 'r', permissions: { deny: ['Bash(rm:*)'], root: '.' } };
const command = { name: 'c', command: './guard.sh', unsandboxed: true, protocol: 'claude-code', seams: ['tools/pre-execute'] };

describe('exactly one kind', () => {
  const ONE_OF =
    'expected exactly one of "wasm" (a .wasm path) or "manifest" (a hook.json path), or "policy" (a built-in policy), or "command" (a shell hook), or "permissions" (Claude Code rules)';

  it('none of wasm, manifest, command, permissions', () => {
    expect(refusal({ name: 'a', timeoutMs: 5 })).toBe(`${file}: hooks[0]: ${ONE_OF}`);
  });

  it.each([
    ['wasm and command', { wasm: 'w.wasm', command: 'x' }],
    ['manifest and permissions', { manifest: 'hook.json', permissions: { root: '.' }, env: { A: '1' } }],
    ['command and permissions', { command: 'x', permissions: { root: '.' } }],
    ['wasm and manifest', { wasm: 'w.wasm', manifest: 'hook.json', unsandboxed: true }],
    ['policy and wasm', { policy: 'protected-paths', wasm: 'w.wasm', config: { paths: 3 } }],
  ])('two of them: %s (and nothing else is reported)', (_what, kinds) => {
    expect(refusal({ name: 'a', ...kinds })).toBe(`${file}: hooks[0]: ${ONE_OF}`);
  });
});

describe('a catalog policy entry', () => {
  const policy = { name: 'p', policy: 'protected-paths', config: { paths: ['.env'] } };

  it('resolves to the built policy, its name and its config (checked, as one JSON value) handed over', () => {
    const [hook] = load({ hooks: [{ ...policy, config: { paths: [' .env '] } }], defaults: { config: { other: 'x', policyName: 'secrets' } } }).hooks;
    expect(hook?.policy).toBe('protected-paths');
    expect(hook?.manifest).toMatch(/dist\/catalog\/protected-paths\/hook\.json$/);
    // Trimmed by the schema; `defaults.config`'s strings do not reach a policy (nor a
    // `policyName` of theirs: the name that picks the catalog module's rules is the resolver's).
    expect(hook?.config).toEqual({ policyName: 'protected-paths', policy: '{"paths":[".env"]}' });
  });

  it.each([
    ['a glob of the wrong type', { paths: ['.env', 3] }, 'config.paths[1]', 'Invalid input: expected string, received number'],
    ['no globs', { paths: [] }, 'config.paths', 'list at least one glob'],
    ['an empty glob', { paths: ['  '] }, 'config.paths[0]', 'an empty glob protects nothing'],
    ['an unknown key', { paths: ['.env'], extra: 1 }, 'config', 'Unrecognized key: "extra"'],
  ])('refuses %s, naming the JSON path inside its config', (_what, config, key, message) => {
    expect(refusal({ ...policy, config })).toBe(at(key, message));
  });

  it('refuses a config that is missing (protected-paths needs its paths)', () => {
    expect(refusal({ name: 'p', policy: 'protected-paths' })).toBe(at('config.paths', 'Invalid input: expected array, received undefined'));
  });

  it.each([
    ['"**" before the last word', { rules: [{ command: 'git ** push', action: 'deny' }] }, 'config.rules[0].command', '"**" may only be the last word'],
    ['an unknown action', { rules: [{ command: 'git push', action: 'block' }] }, 'config.rules[0].action', 'Invalid option: expected one of "deny"|"ask"|"allow"'],
    ['no rules', { rules: [] }, 'config.rules', 'list at least one rule'],
  ])('command-rules refuses %s at its JSON path', (_what, config, key, message) => {
    expect(refusal({ name: 'c', policy: 'command-rules', config })).toBe(at(key, message));
  });

  it("fills git-guards' defaults when its config is left out", () => {
    const [hook] = load({ hooks: [{ name: 'g', policy: 'git-guards' }] }).hooks;
    expect(JSON.parse(hook?.config.policy ?? '')).toEqual({ protectedBranches: ['main', 'master'], forcePush: 'deny', noVerify: 'deny', protectedBranch: 'deny', historyRewrite: 'ask' });
  });

  it('names the catalog when the policy is unknown', () => {
    expect(refusal({ name: 'p', policy: 'protect-paths' })).toBe(at('policy', `no built-in policy "protect-paths" (the catalog has ${catalogNames().join(', ')}; \`hookbox policies\` lists them)`));
  });

  it.each([
    ['protocol', 'claude-code'],
    ['pin', { sha256: SHA }],
  ])('refuses %s (hookbox built it)', (key, value) => {
    expect(refusal({ ...policy, [key]: value })).toBe(at(key, 'does not apply to a catalog "policy" (hookbox built it and knows its protocol)'));
  });

  it("refuses a JSON config value on a hook that is not a policy (its Extism config is strings)", () => {
    expect(refusal({ ...wasm, config: { limit: 3 } })).toBe(at('config.limit', 'expected a string (only a catalog "policy" takes JSON config values)'));
  });
});

describe('a permissions entry', () => {
  it('with only its rules loads', () => {
    expect(load({ hooks: [rules] }).hooks.map((hook) => hook.name)).toEqual(['r']);
  });

  it.each([
    ['memoryMb', 8],
    ['instructionBudget', 100],
    ['config', {}],
    ['grant', {}],
    ['protocol', 'claude-code'],
    ['unsandboxed', true],
    ['seams', ['tools/pre-execute']],
    ['tools', ['bash']],
    ['sources', ['startup']],
    ['env', { A: '1' }],
    ['timeoutMs', 10],
    ['maxOutputBytes', 10],
    ['failPolicy', 'closed'],
    ['quarantineAfter', 1],
    ['pin', { sha256: SHA }],
  ])('refuses %s', (key, value) => {
    expect(refusal({ ...rules, [key]: value })).toBe(at(key, 'does not apply to a "permissions" hook (a native pre-tool hook that fails closed)'));
  });
});

describe('a wasm or manifest entry', () => {
  it('loads with a package pin on a manifest entry', () => {
    const pinned = { name: 'm', manifest: 'hook.json', pin: { package: '@acme/x', version: '1.0.0', sha256: SHA, manifest: MANIFEST_PIN } };
    expect(load({ hooks: [wasm, pinned, { name: 'p', wasm: 'p.wasm', pin: { sha256: SHA } }] }).hooks.map((hook) => hook.pin)).toStrictEqual([undefined, pinned.pin, { sha256: SHA }]);
  });

  it.each([
    ['wasm', wasm],
    ['manifest', { name: 'm', manifest: 'hook.json' }],
  ])('a %s entry refuses env', (_kind, hook) => {
    expect(refusal({ ...hook, env: { A: '1' } })).toBe(at('env', 'only a "command" hook takes "env"'));
  });

  it.each([true, false])('refuses "unsandboxed": %s', (unsandboxed) => {
    expect(refusal({ ...wasm, unsandboxed })).toBe(at('unsandboxed', 'only a "command" hook runs unsandboxed; a wasm hook always runs in the sandbox'));
  });

  it('refuses sources', () => {
    expect(refusal({ ...wasm, sources: ['startup'] })).toBe(at('sources', 'only a "command" hook takes "sources"'));
  });

  it('a wasm entry refuses a package pin and a manifest pin', () => {
    expect(refusal({ ...wasm, pin: { package: '@acme/x', sha256: SHA } })).toBe(at('pin.package', 'a package pin needs a "manifest" entry (the hook.json inside the package)'));
    expect(refusal({ ...wasm, pin: { sha256: SHA, manifest: MANIFEST_PIN } })).toBe(at('pin.manifest', 'pins a manifest, but the entry has none (a "wasm" entry pins only its sha256)'));
  });
});

describe('a command entry', () => {
  it('with unsandboxed, a tool protocol, seams and its own settings loads', () => {
    const [hook] = load({ hooks: [{ ...command, protocol: 'codex', env: { A_1: 'x', _b: 'y' }, sources: ['startup', 'resume'], tools: ['bash'], timeoutMs: 5, failPolicy: 'open' }] }).hooks;
    expect(hook).toMatchObject({ command: './guard.sh', protocol: 'codex', env: { A_1: 'x', _b: 'y' }, sources: ['startup', 'resume'] });
  });

  it.each([
    ['without it', undefined],
    ['false', false],
  ])('refuses "unsandboxed" %s', (_what, unsandboxed) => {
    expect(refusal({ ...command, unsandboxed })).toBe(
      at('unsandboxed', 'a "command" hook runs outside the sandbox with your user\'s rights: set "unsandboxed": true to say you mean it'),
    );
  });

  it.each([
    ['no protocol', undefined],
    ['protocol 1', 1],
  ])('refuses %s', (_what, protocol) => {
    expect(refusal({ ...command, protocol })).toBe(at('protocol', 'a "command" hook needs "protocol": "claude-code" or "codex" (what it reads on stdin and how its exit code is read)'));
  });

  it('refuses no seams', () => {
    expect(refusal({ ...command, seams: undefined })).toBe(at('seams', 'a "command" hook must list the seams it runs for'));
  });

  it.each([
    ['memoryMb', 8],
    ['instructionBudget', 100],
    ['config', { k: 'v' }],
    ['grant', { env: ['A'] }],
    ['pin', { sha256: SHA }],
  ])('refuses the wasm-only %s', (key, value) => {
    expect(refusal({ ...command, [key]: value })).toBe(at(key, 'applies to wasm hooks only, not to a "command" hook'));
  });
});

describe('string formats', () => {
  it('a hook name: lowercase letters, digits, ".", "_", "-", starting with a letter or digit', () => {
    expect(load({ hooks: [{ name: '0.b_c-d', wasm: 'a.wasm' }, { name: 'z', wasm: 'z.wasm' }] }).hooks.map((hook) => hook.name)).toEqual(['0.b_c-d', 'z']);
    for (const name of ['Guard', '-a', '.a', '_a', 'a b', 'a/b', 'ab!']) {
      expect(refusal({ name, wasm: 'a.wasm' }), name).toBe(at('name', 'a lowercase name of letters, digits, ".", "_" or "-"'));
    }
  });

  it('an env name: letters, digits and "_", not starting with a digit', () => {
    // zod reports a bad record key with its own words; the schema's "a variable name" does not reach the message.
    for (const name of ['1A', 'A-B', 'A B', 'Ä']) {
      expect(refusal({ ...command, env: { [name]: 'x' } }), name).toBe(at(`env.${name}`, 'Invalid key in record'));
    }
  });

  it('a pinned digest: 64 lowercase hex digits', () => {
    for (const sha256 of ['A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), `${'a'.repeat(63)}g`]) {
      expect(refusal({ ...wasm, pin: { sha256 } }), sha256).toBe(at('pin.sha256', 'a 64-digit lowercase hex sha256'));
    }
    // The reviewed manifest's digests have the same form, anchored at both ends.
    for (const sha256 of ['a'.repeat(65), `x${'a'.repeat(64)}`]) {
      const manifestPin = { ...MANIFEST_PIN, sha256 };
      expect(refusal({ name: 'm', manifest: 'hook.json', pin: { sha256: SHA, manifest: manifestPin } }), sha256).toBe(at('pin.manifest.sha256', 'a 64-digit lowercase hex sha256'));
    }
  });

  it('a protocol: 1, "claude-code" or "codex"', () => {
    expect(refusal({ ...wasm, protocol: 'claude' })).toBe(at('protocol', 'expected 1 (the hookbox wire), "claude-code" or "codex"'));
  });

  it('a lockable key', () => {
    expect(() => load({ hooks: [], locked: ['hooks', 'defaults.timeoutMs', 'defaults.memoryMb', 'defaults.maxOutputBytes', 'defaults.instructionBudget'] })).not.toThrow();
    expect(() => load({ hooks: [], locked: ['defaults.failPolicy', 'defaults.grant', 'defaults.quarantineAfter', 'defaults.memoryBudgetMb'] })).not.toThrow();
    expect(refusal({ ...wasm }, { locked: ['defaults.config'] })).toBe(
      `${file}: locked[0]: Invalid option: expected one of "hooks"|"defaults.timeoutMs"|"defaults.memoryMb"|"defaults.maxOutputBytes"|"defaults.instructionBudget"|"defaults.failPolicy"|"defaults.grant"|"defaults.quarantineAfter"|"defaults.memoryBudgetMb"`,
    );
  });

  it("a manifest's name and digest", () => {
    const manifest = path.join(dir, 'hook.json');
    const write = (fields: Record<string, unknown>) => writeFileSync(manifest, JSON.stringify({ name: 'ok.name_1-x', version: '1', wasm: 'h.wasm', sha256: SHA, seams: ['tools/pre-execute'], ...fields }));
    write({});
    expect(loadManifest(manifest).name).toBe('ok.name_1-x');
    write({ name: 'Bad' });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: name: a lowercase name of letters, digits, ".", "_" or "-"`));
    write({ name: 'ab!' });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: name: a lowercase name of letters, digits, ".", "_" or "-"`));
    write({ name: '_a' });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: name: a lowercase name of letters, digits, ".", "_" or "-"`));
    write({ sha256: `${SHA}0` });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: sha256: a 64-digit lowercase hex sha256`));
    write({ sha256: 'B'.repeat(64) });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: sha256: a 64-digit lowercase hex sha256`));
    write({ protocol: 2 });
    expect(() => loadManifest(manifest)).toThrow(new ConfigError(`${manifest}: protocol: expected 1 (the hookbox wire), "claude-code" or "codex"`));
  });
});
