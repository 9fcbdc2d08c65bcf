/**
 * `hookbox setup codex|gemini` on settings objects and a real config.toml
 * in a temp CODEX_HOME: user hooks untouched, idempotent, exactly hookbox's
 * entries removed, Codex trust recorded for exactly them (and moved with a
 * user's handler whose position changes), comments kept.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SetupScope } from '../../host/agents/agent-bridge.ts';
import { agentAnswerTimeoutMs } from '../../host/agents/answer-deadline.ts';
import { codexSetup, codexTrustFor } from '../../host/agents/codex/setup.ts';
import { codexHookHash } from '../../host/agents/codex/trust.ts';
import { geminiSetup } from '../../host/agents/gemini/setup.ts';
import { editTomlTables } from '../../host/agents/toml-tables.ts';
import type { ResolvedConfig } from '../../host/config/index.ts';

const COMMAND = "'/usr/bin/node' '/x/host/cli/hookbox.mjs' 'hook' 'codex' '--socket' '/s' '--config' '/c.json'";
const transport = { kind: 'command', command: COMMAND } as const;
const userHook = { type: 'command', command: './my-guard.sh', timeout: 5 };

let dir: string;
let savedHome: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-setup-'));
  savedHome = process.env.CODEX_HOME;
  process.env.CODEX_HOME = join(dir, 'codex-home');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.CODEX_HOME;
  else process.env.CODEX_HOME = savedHome;
  rmSync(dir, { recursive: true, force: true });
});

describe('codex setup: hooks.json', () => {
  const scope: SetupScope = { kind: 'project', dir: '/proj' };

  it('writes the project .codex/hooks.json, or $CODEX_HOME/hooks.json for the user', () => {
    expect(codexSetup.settingsPath(scope)).toBe('/proj/.codex/hooks.json');
    expect(codexSetup.settingsPath({ kind: 'user', home: '/home/u' })).toBe(join(dir, 'codex-home', 'hooks.json'));
  });

  it('adds one group per event after the user hooks, with the timeout in seconds; idempotent; removes exactly its own', () => {
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] }, other: 1 };
    const first = codexSetup.apply(settings, transport, { answerTimeoutMs: 31_500 });
    const hooks = first.settings.hooks as Record<string, { hooks: Record<string, unknown>[] }[]>;
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'PermissionRequest']);
    expect(hooks.PreToolUse![0]).toEqual({ matcher: 'Bash', hooks: [userHook] });
    expect(hooks.PreToolUse![1]).toEqual({ hooks: [{ type: 'command', command: COMMAND, timeout: 32 }] });
    expect(first.settings.other).toBe(1);
    const again = codexSetup.apply(first.settings, transport, { answerTimeoutMs: 31_500 });
    expect(again.changes.every((change) => change.action === 'unchanged')).toBe(true);
    expect(again.settings).toEqual(first.settings);
    const removed = codexSetup.remove(first.settings);
    expect(removed.settings).toEqual(settings);
    expect(removed.changes.filter((change) => change.action === 'removed')).toHaveLength(10);
    expect(() => codexSetup.apply({ hooks: [] }, transport)).toThrow(/hooks: expected an object/);
    expect(codexSetup.unsupported('http')).toMatch(/no http hooks/);
  });

  it('records trust for exactly its handlers in config.toml, keeping the comments; moves a user handler trust when ours goes; drops ours on remove', () => {
    const configToml = join(dir, 'codex-home', 'config.toml');
    const file = '/proj/.codex/hooks.json';
    // The user's hook sits after ours in the same group: taking ours out moves it from index 1 to 0.
    const before = { hooks: { Stop: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 30 }, userHook] }] } };
    const userKey = `${file}:stop:0:1`;
    mkdirSync(join(dir, 'codex-home'), { recursive: true });
    writeFileSync(
      configToml,
      `# my settings\nmodel = "x" # inline\n\n[hooks.state.${JSON.stringify(userKey)}]\ntrusted_hash = "sha256:user"\n`,
    );
    const applied = codexSetup.apply({}, transport, { answerTimeoutMs: 30_000 }).settings;
    const first = codexSetup.finish!({ scope, settingsFile: file, before: {}, after: applied, removing: false });
    expect(first.changes.filter((change) => change.action === 'added')).toHaveLength(10);
    expect(first.notes.join('\n')).toContain(`[projects."/proj"]\n  trust_level = "trusted"`);
    let text = readFileSync(configToml, 'utf8');
    expect(text).toMatch(/^# my settings\nmodel = "x" # inline\n/);
    for (const [key, hash] of codexTrustFor(file, applied)) expect(text).toContain(`[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"`);
    expect(codexTrustFor(file, applied).get(`${file}:pre_tool_use:0:0`)).toBe(codexHookHash('PreToolUse', undefined, { command: COMMAND, timeout: 30 }));
    // Running it again changes nothing.
    expect(codexSetup.finish!({ scope, settingsFile: file, before: applied, after: applied, removing: false }).changes).toEqual([]);

    const after = codexSetup.remove(before).settings;
    codexSetup.finish!({ scope, settingsFile: file, before, after, removing: true });
    text = readFileSync(configToml, 'utf8');
    expect(text).toContain(`[hooks.state.${JSON.stringify(`${file}:stop:0:0`)}]\ntrusted_hash = "sha256:user"`);
    expect(text).not.toContain(`${file}:stop:0:1`);
  });
});

describe('TOML table edits', () => {
  it('removes, renames and sets tables on the text; refuses an edit that breaks the file', () => {
    const text = '# top\na = 1\n\n[hooks.state."/x:stop:0:0"]\ntrusted_hash = "h1" # why\n\n[other]\nb = 2\n';
    expect(editTomlTables(text, { rename: [{ from: ['hooks', 'state', '/x:stop:0:0'], to: ['hooks', 'state', '/x:stop:0:1'] }] })).toBe(
      '# top\na = 1\n\n[hooks.state."/x:stop:0:1"]\ntrusted_hash = "h1" # why\n\n[other]\nb = 2\n',
    );
    expect(editTomlTables(text, { remove: [['hooks', 'state', '/x:stop:0:0']] })).toBe('# top\na = 1\n\n[other]\nb = 2\n');
    expect(editTomlTables(text, { set: [{ path: ['hooks', 'state', '/x:stop:0:0'], values: { trusted_hash: 'h2' } }] })).toBe(
      '# top\na = 1\n\n[other]\nb = 2\n\n[hooks.state."/x:stop:0:0"]\ntrusted_hash = "h2"\n',
    );
    expect(() => editTomlTables('[hooks.state]\n"/y" = { trusted_hash = "a" }\n', { set: [{ path: ['hooks', 'state', '/y'], values: { trusted_hash: 'b' } }] })).toThrow();
  });
});

describe('gemini setup: settings.json', () => {
  it('writes hooks with a millisecond timeout derived from the hooks own deadlines; removes exactly its own', () => {
    const config: ResolvedConfig = {
      file: '/c.json',
      hooks: [
        { name: 'a', file: '/c.json', at: 'hooks[0]', limits: { timeoutMs: 2_000 }, config: {}, grant: {} as never },
        { name: 'b', file: '/c.json', at: 'hooks[1]', limits: {}, config: {}, grant: {} as never },
      ],
      runner: {},
    };
    const deadline = agentAnswerTimeoutMs(config);
    expect(deadline).toBe(Math.max(25_000, 15_000 + 3_000) + 5_000);
    const command = COMMAND.replace("'codex'", "'gemini'");
    const settings = { hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'mine.sh' }] }] }, ui: { theme: 'x' } };
    const applied = geminiSetup.apply(settings, { kind: 'command', command }, { answerTimeoutMs: deadline }).settings as { hooks: Record<string, unknown[]> };
    expect(applied.hooks.BeforeTool).toEqual([
      { matcher: 'write_file', hooks: [{ type: 'command', command: 'mine.sh' }] },
      { hooks: [{ type: 'command', name: 'hookbox', command, timeout: deadline }] },
    ]);
    expect(Object.keys(applied.hooks)).toEqual(['BeforeTool', 'SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'SessionEnd', 'PreCompress', 'Notification']);
    expect(geminiSetup.remove(applied).settings).toEqual(settings);
    expect(geminiSetup.settingsPath({ kind: 'project', dir: '/p' })).toBe('/p/.gemini/settings.json');
  });
});
