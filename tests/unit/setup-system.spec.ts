/**
 * Each agent's machine-wide scope (`AgentSetup.system`): where it is, what
 * `--lock` writes, that applying twice changes nothing and that `--remove`
 * gives back exactly the operator's text; `setupSystem` under a stand-in
 * root, and a file it cannot write named with its exact path.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_BRIDGES, type ManagedSystemSetup, agentProtectedPaths } from '../../host/agents/index.ts';
import { setupSystem, systemCommand } from '../../host/cli/setup-system.ts';
import { exampleManifest } from '../helpers/examples.ts';

const COMMAND = systemCommand('x', '/etc/hookbox/config.json', 25_000);
const managed = (name: keyof typeof AGENT_BRIDGES): ManagedSystemSetup => {
  const system = AGENT_BRIDGES[name].setup.system;
  if (system.kind !== 'managed') throw new Error(`${name} has no managed scope`);
  return system;
};
const commandFor = (agent: string) => COMMAND.replace(' x ', ` ${agent} `);

describe('each agent\'s machine-wide scope', () => {
  it('names the file Linux and macOS read, and says why the others have none and what is strongest instead', () => {
    expect(managed('claude-code').file('linux')).toBe('/etc/claude-code/managed-settings.json');
    expect(managed('claude-code').file('darwin')).toBe('/Library/Application Support/ClaudeCode/managed-settings.json');
    expect(managed('codex').file('linux')).toBe('/etc/codex/requirements.toml');
    expect(managed('gemini').file('linux')).toBe('/etc/gemini-cli/settings.json');
    expect(managed('gemini').file('darwin')).toBe('/Library/Application Support/GeminiCli/settings.json');
    for (const name of ['qwen', 'factory', 'pi', 'opencode', 'kilo', 'copilot'] as const) {
      const system = AGENT_BRIDGES[name].setup.system;
      expect(system.kind, name).toBe('none');
      if (system.kind === 'none') expect(system.alternative).toContain(`hookbox setup ${name} --user`);
    }
  });

  it('self-protection covers every machine-wide file and the record beside it', () => {
    const paths = agentProtectedPaths([], 'linux').map((entry) => entry.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/etc/claude-code/managed-settings.json',
        '/etc/claude-code/.managed-settings.json.hookbox-original',
        '/etc/codex/requirements.toml',
        '/etc/gemini-cli/settings.json',
      ]),
    );
  });

  it('Claude Code: the entries in its hooks layout, --lock writes allowManagedHooksOnly; twice is once; --remove gives back the operator\'s bytes, their own lock value too', () => {
    const system = managed('claude-code');
    const original = '{ "allowManagedHooksOnly": false,\n\t"permissions": {"deny": ["Read(./.env)"]} }';
    const once = system.apply(original, commandFor('claude-code'), { lock: true });
    expect(system.apply(once, commandFor('claude-code'), { lock: true })).toBe(once);
    const parsed = JSON.parse(once) as { allowManagedHooksOnly: boolean; hooks: Record<string, { hooks: { command: string; onFailure?: string }[] }[]> };
    expect(parsed.allowManagedHooksOnly).toBe(true);
    expect(parsed.hooks.PreToolUse![0]!.hooks[0]).toMatchObject({ command: commandFor('claude-code'), onFailure: 'block' });
    expect(system.inspect(once)).toEqual({ missing: [], commands: [commandFor('claude-code')], locked: true });
    expect(system.remove(once, { existed: true, text: original })).toBe(original);
    // Unlocked: weakened, not missing.
    expect(system.inspect(system.apply(undefined, commandFor('claude-code'), { lock: false })).locked).toBe(false);
  });

  it('Claude Code: a file hookbox made goes on --remove; one the operator changed since keeps their change', () => {
    const system = managed('claude-code');
    const made = system.apply(undefined, commandFor('claude-code'), { lock: true });
    expect(system.remove(made, { existed: false })).toBeUndefined();
    const edited = JSON.stringify({ ...(JSON.parse(made) as object), env: { ORG: '1' } });
    expect(JSON.parse(system.remove(edited, { existed: false })!)).toEqual({ env: { ORG: '1' } });
  });

  it('Gemini CLI: --lock writes hooksConfig.enabled true over the operator\'s other hooksConfig keys; --remove gives back the bytes', () => {
    const system = managed('gemini');
    const original = '{"hooksConfig": {"notifications": false}, "general": {"disableAutoUpdate": true}}\n';
    const once = system.apply(original, commandFor('gemini'), { lock: true });
    expect(JSON.parse(once)).toMatchObject({ hooksConfig: { enabled: true, notifications: false }, general: { disableAutoUpdate: true } });
    expect(system.inspect(once).missing).toEqual([]);
    expect(system.remove(once, { existed: true, text: original })).toBe(original);
  });

  it('Codex: two marked blocks on the operator\'s TOML (the top-level key first, the tables last), valid TOML; --remove gives back their text exactly, with or without a final newline', () => {
    const system = managed('codex');
    for (const original of ['# ours\nallowed_web_search_modes = ["disabled"]\n\n[mcp_servers]\n', '[mcp_servers]', '']) {
      const once = system.apply(original === '' ? undefined : original, commandFor('codex'), { lock: true });
      expect(system.apply(once, commandFor('codex'), { lock: true })).toBe(once);
      const value = parse(once) as { allow_managed_hooks_only?: boolean; features?: { hooks?: boolean } };
      expect(value.allow_managed_hooks_only).toBe(true);
      expect(value.features?.hooks).toBe(true);
      expect(system.inspect(once)).toEqual({ missing: [], commands: [commandFor('codex')], locked: true });
      expect(system.remove(once, original === '' ? { existed: false } : { existed: true, text: original })).toBe(original === '' ? undefined : original);
    }
  });

  it('Codex: an operator\'s own allow_managed_hooks_only or [features] clashes — an error, nothing written', () => {
    const system = managed('codex');
    expect(() => system.apply('allow_managed_hooks_only = false\n', commandFor('codex'), { lock: true })).toThrow(/not valid TOML/);
    expect(() => system.apply('[features]\nweb_search = true\n', commandFor('codex'), { lock: true })).toThrow(/a key or table of the same name is already there/);
    expect(() => system.apply('this is = = not toml', commandFor('codex'), { lock: false })).toThrow(/the file is not valid TOML/);
  });
});

describe('setupSystem under a stand-in root', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function place() {
    root = mkdtempSync(join(tmpdir(), 'hookbox-system-unit-'));
    const org = join(root, 'org.json');
    writeFileSync(org, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }));
    return { root, org, env: { ...process.env, HOOKBOX_ORG_CONFIG: org, XDG_CONFIG_HOME: join(root, 'xdg') } };
  }

  it('writes every managed agent, names the others with their alternative, and --remove leaves the root as it was', () => {
    const { root: dir, env, org } = place();
    const out: string[] = [];
    setupSystem(['claude-code', 'codex', 'gemini', 'pi'], { lock: true }, (text) => out.push(text), { root: dir, env, platform: 'linux' });
    const written = readFileSync(join(dir, 'etc', 'claude-code', 'managed-settings.json'), 'utf8');
    expect(written).toContain(`HOOKBOX_ORG_CONFIG='${org}'`);
    expect(written).toContain(`'${process.execPath}'`);
    expect(out.join('')).toMatch(/pi \(pi\): no machine-wide scope — .*Strongest instead: hookbox setup pi --user/);
    setupSystem([], { remove: true }, () => undefined, { root: dir, env, platform: 'linux' });
    expect(() => readFileSync(join(dir, 'etc', 'claude-code', 'managed-settings.json'))).toThrow(/ENOENT/);
    expect(() => readFileSync(join(dir, 'etc', 'claude-code', '.managed-settings.json.hookbox-original'))).toThrow(/ENOENT/);
  });

  it('a file it cannot write is named with its exact path and what to do (root, or the platform\'s mechanism)', () => {
    const { root: dir, env } = place();
    // `etc/codex` is a file: the folder cannot be made, whoever runs it (root too).
    writeFileSync(join(dir, 'etc'), 'not a folder');
    expect(() => setupSystem(['codex'], { lock: true }, () => undefined, { root: dir, env, platform: 'linux' })).toThrow(
      new RegExp(`${join(dir, 'etc', 'codex', 'requirements.toml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not writable \\(ENOTDIR.*run setup --system as root \\(sudo\\), or deliver this file through the platform's managed-settings mechanism`),
    );
  });

  it('an organisation config that is not there stops setup before anything is written', () => {
    const { root: dir, env } = place();
    rmSync(env.HOOKBOX_ORG_CONFIG);
    expect(() => setupSystem(['claude-code'], {}, () => undefined, { root: dir, env: { ...env, HOOKBOX_ORG_CONFIG: undefined }, platform: 'linux' })).toThrow(/organisation config \/etc\/hookbox\/config\.json does not exist/);
  });
});
