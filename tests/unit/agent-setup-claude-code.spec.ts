import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeBridge, isHookboxHandler } from '../../host/agents/index.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { NATIVE_MISSING } from '../helpers/command-hook.ts';

const setup = claudeCodeBridge.setup;
const COMMAND = { kind: 'command', command: "'/usr/bin/node' '/opt/hookbox/host/cli/hookbox.mjs' 'hook' 'claude-code' '--socket' '/s.sock'" } as const;
const HTTP = { kind: 'http', url: 'http://127.0.0.1:47100/hooks/claude-code', headers: { Authorization: 'Bearer t' } } as const;

/** A user's settings with their own hooks, unknown keys and an order worth keeping. */
function userSettings(): Record<string, unknown> {
  return {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './my-guard.sh', timeout: 5 }] }],
      Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
    },
    zz_unknown: { keep: true },
  };
}

describe('hookbox setup claude-code: merging into settings', () => {
  it("adds hookbox's handler to each event after the user's own, keeping every other key in order", () => {
    const before = userSettings();
    const { settings, changes } = setup.apply(before, COMMAND);
    expect(Object.keys(settings)).toEqual(['model', 'permissions', 'hooks', 'zz_unknown']);
    const hooks = settings.hooks as Record<string, { matcher?: string; hooks: unknown[] }[]>;
    expect(hooks.PreToolUse![0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: './my-guard.sh', timeout: 5 }] });
    // Claude Code's own fail-closed switch on the events whose closed form is a block; not on Stop (ignored there) or SessionStart.
    expect(hooks.PreToolUse![1]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: COMMAND.command, timeout: 30, onFailure: 'block' }] });
    for (const event of ['UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure']) expect(hooks[event]![0]!.hooks[0]).toMatchObject({ onFailure: 'block' });
    for (const event of ['SessionStart', 'Stop']) expect(hooks[event]![0]!.hooks[0]).not.toHaveProperty('onFailure');
    // The user's Notification hook first, hookbox's after it (a lifecycle event of #51).
    expect(hooks.Notification).toEqual([{ hooks: [{ type: 'command', command: 'notify-send hi' }] }, { hooks: [{ type: 'command', command: COMMAND.command, timeout: 30 }] }]);
    expect(hooks.PermissionRequest![0]).toEqual({ matcher: '*', hooks: [{ type: 'command', command: COMMAND.command, timeout: 30, onFailure: 'block' }] });
    expect(Object.keys(hooks)).toEqual([
      'PreToolUse',
      'Notification',
      'SessionStart',
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SessionEnd',
      'PreCompact',
      'SubagentStart',
      'SubagentStop',
      'PermissionRequest',
    ]);
    expect(changes.every((change) => change.action === 'added')).toBe(true);
    expect(before).toEqual(userSettings()); // the input is not mutated
  });

  it('is idempotent: a second apply changes nothing', () => {
    const once = setup.apply(userSettings(), COMMAND).settings;
    const twice = setup.apply(once, COMMAND);
    expect(twice.settings).toEqual(once);
    expect(twice.changes.every((change) => change.action === 'unchanged')).toBe(true);
  });

  it('--remove takes exactly its own entries out: apply then remove gives the original back', () => {
    const applied = setup.apply(userSettings(), COMMAND).settings;
    const removed = setup.remove(applied);
    expect(removed.settings).toEqual(userSettings());
    expect(removed.changes).toHaveLength(12);
    expect(setup.remove(userSettings()).changes).toHaveLength(0);
  });

  it('switching transport replaces the handler; http leaves SessionStart out (Claude Code runs it for command hooks only)', () => {
    const command = setup.apply(userSettings(), COMMAND).settings;
    const { settings, changes } = setup.apply(command, HTTP);
    const hooks = settings.hooks as Record<string, { hooks: Record<string, unknown>[] }[]>;
    expect(hooks.SessionStart).toBeUndefined();
    expect(hooks.Stop).toEqual([{ hooks: [{ type: 'http', url: HTTP.url, headers: HTTP.headers, timeout: 30 }] }]);
    expect(changes.filter((change) => change.action === 'replaced')).toHaveLength(11);
    expect(setup.remove(settings).settings).toEqual(userSettings());
  });

  it("recognises only its own handlers, never a user's", () => {
    expect(isHookboxHandler({ type: 'command', command: COMMAND.command })).toBe(true);
    expect(isHookboxHandler({ type: 'command', command: 'hookbox hook claude-code' })).toBe(true);
    expect(isHookboxHandler({ type: 'command', command: "'/usr/bin/node' '/opt/hookbox/host/cli/hookbox-hook.cjs' 'claude-code' '--socket' '/s'" })).toBe(true);
    expect(isHookboxHandler({ type: 'command', command: '/opt/hookbox-hook.cjs codex' })).toBe(false);
    expect(isHookboxHandler({ type: 'command', command: './my-guard.sh hook claude-code' })).toBe(false);
    expect(isHookboxHandler({ type: 'command', command: 'echo hookbox' })).toBe(false);
    expect(isHookboxHandler({ type: 'http', url: 'https://example.com/hooks/claude-code' })).toBe(false);
    expect(isHookboxHandler({ type: 'http', url: HTTP.url })).toBe(true);
  });

  it('refuses settings whose hooks are not an object, naming the path', () => {
    expect(() => setup.apply({ hooks: [] }, COMMAND)).toThrow(/settings\.hooks: expected an object/);
    expect(() => setup.apply({ hooks: { Stop: {} } }, COMMAND)).toThrow(/settings\.hooks\.Stop: expected an array/);
  });
});

describe('hookbox setup claude-code: the command', () => {
  function project(): { dir: string; config: string } {
    const dir = mkdtempSync(join(tmpdir(), 'hookbox-setup-'));
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, '{"hooks": []}\n');
    return { dir, config };
  }

  it.skipIf(NATIVE_MISSING !== undefined)('the native client, the default where it is built, is hookbox\'s line to a second setup (unchanged) and to --remove (taken out)', () => {
    const { dir, config } = project();
    const file = join(dir, '.claude', 'settings.json');
    setupCommand('claude-code', { project: dir, config, transport: 'command' }, () => {});
    const first = readFileSync(file, 'utf8');
    expect(first).toMatch(/"'[^']+\/dist\/native\/[\w-]+\/hookbox-hook' 'claude-code'/);
    const again: string[] = [];
    setupCommand('claude-code', { project: dir, config, transport: 'command' }, (text) => again.push(text));
    expect(again.join('')).toContain('settings.json: unchanged');
    expect(readFileSync(file, 'utf8')).toBe(first);
    setupCommand('claude-code', { project: dir, remove: true }, () => {});
    expect(readFileSync(file, 'utf8')).not.toContain('hookbox-hook');
  });

  it('writes .claude/settings.json, prints what changed, and is idempotent on disk', () => {
    const { dir, config } = project();
    const out: string[] = [];
    setupCommand('claude-code', { project: dir, config, transport: 'command', socket: join(dir, 's.sock'), client: 'sh' }, (text) => out.push(text));
    const file = join(dir, '.claude', 'settings.json');
    const first = readFileSync(file, 'utf8');
    // No node_modules/hookbox in this project: the client's absolute path, and setup says so; node from the agent's PATH.
    expect(out.join('')).toMatch(/updated\n {2}added hooks\.SessionStart\[0\]: command sh '.+\/host\/cli\/hookbox-hook\.sh' 'claude-code' '--socket' 's\.sock' '--config' 'hookbox\.config\.json' '--deadline-ms' '25000'/);
    expect(out.join('')).toContain('hookbox is not installed in');
    expect(out.join('')).toContain('fails closed');
    out.length = 0;
    setupCommand('claude-code', { project: dir, config, transport: 'command', socket: join(dir, 's.sock'), client: 'sh' }, (text) => out.push(text));
    expect(out.join('')).toMatch(/: unchanged\n/);
    expect(readFileSync(file, 'utf8')).toBe(first);
  });

  it('http: generates a 0600 token, writes it only to the uncommitted settings.local.json (0600, git-ignored), never prints it, and states what a squatter gets', () => {
    const { dir, config } = project();
    const tokenFile = join(dir, 'private', 'token');
    const out: string[] = [];
    setupCommand('claude-code', { project: dir, config, transport: 'http', port: '47999', tokenFile }, (text) => out.push(text));
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const file = join(dir, '.claude', 'settings.local.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`Bearer ${token}`);
    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(false);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['.hookbox/', '.claude/settings.local.json']));
    expect(out.join('')).not.toContain(token);
    expect(out.join('')).toMatch(/port squatter/);
    expect(out.join('')).toMatch(/added to .+\.gitignore: \.hookbox\/, \.claude\/settings\.local\.json/);
    // Back to command: the token leaves the local file, the entries go to the committed one.
    setupCommand('claude-code', { project: dir, config, transport: 'command' }, () => {});
    expect(readFileSync(file, 'utf8')).not.toContain(token);
    // The default client: the native one where npm run build made it, else sh.
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toContain(NATIVE_MISSING === undefined ? `/dist/native/${process.platform}-${process.arch}/hookbox-hook' 'claude-code'` : 'hookbox-hook.sh');
  });

  it('refuses a settings file that is not JSON, and leaves it as it was', () => {
    const { dir, config } = project();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "model": "opus", }');
    expect(() => setupCommand('claude-code', { project: dir, config, transport: 'command' }, () => {})).toThrow(/settings\.json: not valid JSON/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "model": "opus", }');
  });

  it('refuses a bad operator config before touching the settings', () => {
    const { dir } = project();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hooks": [{"name": "x"}]}');
    expect(() => setupCommand('claude-code', { project: dir, config: bad, transport: 'command' }, () => {})).toThrow(/bad\.json/);
    expect(() => statSync(join(dir, '.claude', 'settings.json'))).toThrow();
  });

  it('names the agents there are for an unknown one', () => {
    expect(() => setupCommand('cursor', { transport: 'command' }, () => {})).toThrow(/unknown agent "cursor" \(expected one of: claude-code/);
  });
});
