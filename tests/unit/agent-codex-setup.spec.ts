/**
 * `hookbox setup codex` into a real temp project and a temp $CODEX_HOME:
 * the hooks.json and config.toml it writes, compared whole; idempotent;
 * --remove gives the user's files back; trust moved with a user handler
 * whose position changes (only within its event, only when it had trust);
 * the refusal when config.toml cannot be edited; `hookbox doctor codex`'s
 * findings.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SetupScope } from '../../host/agents/agent-bridge.ts';
import { agentAnswerTimeoutMs, hookClientDeadlineMs } from '../../host/agents/answer-deadline.ts';
import { codexHome, codexProjectTrusted, codexSetup, codexTrustFor, codexUserConfig } from '../../host/agents/codex/setup.ts';
import { codexHookHash } from '../../host/agents/codex/trust.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';

const OURS = "'/usr/bin/node' '/x/host/cli/hookbox.mjs' 'hook' 'codex' '--socket' '/s' '--config' '/c.json'";
const transport = { kind: 'command', command: OURS } as const;
const ourHandler = { type: 'command', command: OURS, timeout: 30 };
const userHook = { type: 'command', command: './my-guard.sh', timeout: 5 };
const FILE = '/proj/.codex/hooks.json';
const scope: SetupScope = { kind: 'project', dir: '/proj' };

let dir: string;
let home: string;
let configToml: string;
let savedHome: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-codex-setup-'));
  savedHome = process.env.CODEX_HOME;
  home = join(dir, 'codex-home');
  process.env.CODEX_HOME = home;
  configToml = join(home, 'config.toml');
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.CODEX_HOME;
  else process.env.CODEX_HOME = savedHome;
  rmSync(dir, { recursive: true, force: true });
});

const writeConfig = (text: string): void => {
  mkdirSync(home, { recursive: true });
  writeFileSync(configToml, text);
};
const state = (key: string, hash: string): string => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"\n`;

describe('hookbox setup codex in a real project', () => {
  let project: string;
  let hooksFile: string;
  beforeEach(() => {
    project = join(dir, 'project');
    mkdirSync(join(project, '.codex'), { recursive: true });
    hooksFile = join(project, '.codex', 'hooks.json');
    writeFileSync(join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [] }));
  });

  it("writes hooks.json and config.toml whole, keeping the user's hook and tables; unchanged the second time; --remove gives both back", () => {
    const user = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }] }, extra: { kept: true } };
    writeFileSync(hooksFile, JSON.stringify(user));
    const userKey = `${hooksFile}:pre_tool_use:0:0`;
    const config = `# mine\nmodel = "o3" # why\n\n[profiles.fast]\nmodel = "x"\n\n${state(userKey, 'sha256:user')}`;
    writeConfig(config);

    const out: string[] = [];
    setupCommand('codex', { project, transport: 'command', client: 'sh' }, (text) => out.push(text));
    // Codex names no project folder: the prologue finds it above the working folder (the client's path is quoted inside the quoted script).
    const prologue = `r=$PWD; until [ -e "$r/hookbox.config.json" ] && [ -e "$r/.codex/hooks.json" ]; do [ "$r" = / ] && { echo "hookbox: no hookbox.config.json with .codex/hooks.json in $PWD or any folder above it: not a hookbox project, refusing the event" >&2; exit 2; }; r=$(dirname "$r"); done; export HOOKBOX_PROJECT_DIR="$r"; cd "$r" || exit 2; exec sh '\\''${PACKAGE_ROOT}/host/cli/hookbox-hook.sh'\\'' "$@"`;
    const command = `sh -c '${prologue}' '${PACKAGE_ROOT}/host/cli/hookbox-hook.sh' 'codex' '--socket' '.hookbox/run/serve.sock' '--config' 'hookbox.config.json' '--deadline-ms' '${hookClientDeadlineMs({ hooks: [] })}'`;
    const timeout = Math.ceil(agentAnswerTimeoutMs({ hooks: [] }) / 1000);
    const ours = { hooks: [{ type: 'command', command, timeout }] };
    const written = readFileSync(hooksFile, 'utf8');
    expect(JSON.parse(written)).toStrictEqual({
      hooks: {
        PreToolUse: [user.hooks.PreToolUse[0], ours],
        SessionStart: [ours],
        UserPromptSubmit: [ours],
        PostToolUse: [ours],
        Stop: [ours],
        SessionEnd: [ours],
        PreCompact: [ours],
        SubagentStart: [ours],
        SubagentStop: [ours],
        PermissionRequest: [ours],
      },
      extra: { kept: true },
    });
    // In the file's order: the user's PreToolUse comes first.
    const trusted = [
      [`${hooksFile}:pre_tool_use:1:0`, codexHookHash('PreToolUse', undefined, { command, timeout })],
      [`${hooksFile}:session_start:0:0`, codexHookHash('SessionStart', undefined, { command, timeout })],
      [`${hooksFile}:user_prompt_submit:0:0`, codexHookHash('UserPromptSubmit', undefined, { command, timeout })],
      [`${hooksFile}:post_tool_use:0:0`, codexHookHash('PostToolUse', undefined, { command, timeout })],
      [`${hooksFile}:stop:0:0`, codexHookHash('Stop', undefined, { command, timeout })],
      [`${hooksFile}:session_end:0:0`, codexHookHash('SessionEnd', undefined, { command, timeout })],
      [`${hooksFile}:pre_compact:0:0`, codexHookHash('PreCompact', undefined, { command, timeout })],
      [`${hooksFile}:subagent_start:0:0`, codexHookHash('SubagentStart', undefined, { command, timeout })],
      [`${hooksFile}:subagent_stop:0:0`, codexHookHash('SubagentStop', undefined, { command, timeout })],
      [`${hooksFile}:permission_request:0:0`, codexHookHash('PermissionRequest', undefined, { command, timeout })],
    ] as const;
    const toml = readFileSync(configToml, 'utf8');
    expect(toml).toBe(`${config}\n${trusted.map(([key, hash]) => state(key, hash)).join('\n')}`);
    expect(statSync(configToml).mode & 0o777).toBe(0o600);
    const what = `command ${command} (timeout ${timeout} s)`;
    expect(out.filter((line) => line.startsWith('  added hooks.'))).toStrictEqual(
      ['SessionStart[0]', 'UserPromptSubmit[0]', 'PreToolUse[1]', 'PostToolUse[0]', 'Stop[0]', 'SessionEnd[0]', 'PreCompact[0]', 'SubagentStart[0]', 'SubagentStop[0]', 'PermissionRequest[0]'].map((at) => `  added hooks.${at}: ${what}\n`),
    );
    expect(out.filter((line) => line.includes('[hooks.state.'))).toStrictEqual(trusted.map(([key, hash]) => `  added ${configToml} [hooks.state."${key}"]: trusted_hash ${hash}\n`));
    expect(out.at(-1)).toBe(
      `Codex runs a project's .codex/ hooks only in a trusted project, and ${project} is not trusted yet: open Codex there once and trust it, or add to ${configToml}:\n  [projects.${JSON.stringify(project)}]\n  trust_level = "trusted"\n`,
    );

    const again: string[] = [];
    setupCommand('codex', { project, transport: 'command', client: 'sh' }, (text) => again.push(text));
    expect(readFileSync(hooksFile, 'utf8')).toBe(written);
    expect(readFileSync(configToml, 'utf8')).toBe(toml);
    expect(again[0]).toBe(`Codex settings ${hooksFile}: unchanged\n`);
    expect(again.filter((line) => line.includes('[hooks.state.'))).toStrictEqual([]);

    const removing: string[] = [];
    setupCommand('codex', { project, remove: true }, (text) => removing.push(text));
    expect(JSON.parse(readFileSync(hooksFile, 'utf8'))).toStrictEqual(user);
    expect(readFileSync(configToml, 'utf8')).toBe(config);
    expect(removing.filter((line) => line.includes('[hooks.state.'))).toStrictEqual(
      trusted.map(([key]) => `  removed ${configToml} [hooks.state."${key}"]: trust for a hookbox handler taken out\n`),
    );
    expect(removing.some((line) => line.includes('not trusted yet'))).toBe(false);
  });

  it('says nothing about trusting a project Codex already trusts', () => {
    writeConfig(`[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
    const out: string[] = [];
    setupCommand('codex', { project, transport: 'command', client: 'sh' }, (text) => out.push(text));
    expect(out.some((line) => line.includes('not trusted yet'))).toBe(false);
  });
});

describe('finish: trust in config.toml', () => {
  const applied = (): Record<string, unknown> => codexSetup.apply({}, transport).settings;

  it('records trust for each of ours, names each change, and drops it again on remove', () => {
    const after = applied();
    const first = codexSetup.finish!({ scope, settingsFile: FILE, before: {}, after, removing: false });
    const keys = ['session_start', 'user_prompt_submit', 'pre_tool_use', 'post_tool_use', 'stop', 'session_end', 'pre_compact', 'subagent_start', 'subagent_stop', 'permission_request'].map(
      (label) => `${FILE}:${label}:0:0`,
    );
    expect(first.changes).toStrictEqual(
      [...codexTrustFor(FILE, after)].map(([key, hash]) => ({ action: 'added', where: `${configToml} [hooks.state."${key}"]`, what: `trusted_hash ${hash}` })),
    );
    expect([...codexTrustFor(FILE, after).keys()]).toStrictEqual(keys);
    const removed = codexSetup.finish!({ scope, settingsFile: FILE, before: after, after: {}, removing: true });
    expect(removed).toStrictEqual({
      changes: keys.map((key) => ({ action: 'removed', where: `${configToml} [hooks.state."${key}"]`, what: 'trust for a hookbox handler taken out' })),
      notes: [],
    });
    expect(readFileSync(configToml, 'utf8')).toBe('');
  });

  it('records no trust for a handler of ours under an event Codex does not run (Notification, constructor)', () => {
    const settings = { hooks: { Notification: [{ hooks: [ourHandler] }], constructor: [{ hooks: [ourHandler] }], Stop: [{ hooks: [ourHandler] }] } };
    expect([...codexTrustFor(FILE, settings).keys()]).toStrictEqual([`${FILE}:stop:0:0`]);
  });

  it('writes no config.toml when there is nothing to record', () => {
    expect(codexSetup.finish!({ scope, settingsFile: FILE, before: {}, after: {}, removing: true })).toStrictEqual({ changes: [], notes: [] });
    expect(existsSync(configToml)).toBe(false);
    expect(codexSetup.finish!({ scope: { kind: 'user', home: '/h' }, settingsFile: FILE, before: {}, after: {}, removing: false })).toStrictEqual({ changes: [], notes: [] });
  });

  it("moves a user's trust only when the handler moved and had trust, within its own event", () => {
    const before = {
      hooks: {
        Stop: [{ hooks: [ourHandler, userHook] }, { hooks: [userHook] }],
        PreToolUse: [{ hooks: [userHook] }, { hooks: [ourHandler] }, { hooks: [userHook] }],
        // Moves from 1:0 to 0:0 but has no trust to move.
        PostToolUse: [{ hooks: [ourHandler] }, { hooks: [userHook] }],
        // An event Codex has no label for: its handlers have no trust key to move.
        Notification: [{ hooks: [userHook] }],
      },
    };
    const after = codexSetup.remove(before).settings;
    const config = [
      state(`${FILE}:stop:0:1`, 'sha256:a'),
      state(`${FILE}:pre_tool_use:0:0`, 'sha256:b'),
      state(`${FILE}:pre_tool_use:2:0`, 'sha256:c'),
    ].join('\n');
    writeConfig(config);
    const result = codexSetup.finish!({ scope, settingsFile: FILE, before, after, removing: true });
    expect(result).toStrictEqual({
      changes: [
        { action: 'replaced', where: `${configToml} [hooks.state."${FILE}:stop:0:1"]`, what: `moved to "${FILE}:stop:0:0" (your handler moved)` },
        { action: 'replaced', where: `${configToml} [hooks.state."${FILE}:pre_tool_use:2:0"]`, what: `moved to "${FILE}:pre_tool_use:1:0" (your handler moved)` },
      ],
      notes: [],
    });
    expect(readFileSync(configToml, 'utf8')).toBe(
      [state(`${FILE}:stop:0:0`, 'sha256:a'), state(`${FILE}:pre_tool_use:0:0`, 'sha256:b'), state(`${FILE}:pre_tool_use:1:0`, 'sha256:c')].join('\n'),
    );
  });

  it('refuses to edit a config.toml it cannot edit without breaking it, naming the fix', () => {
    const broken = `[hooks.state]\n${JSON.stringify(`${FILE}:stop:0:0`)} = { trusted_hash = "a" }\n`;
    writeConfig(broken);
    let message = '';
    try {
      codexSetup.finish!({ scope, settingsFile: FILE, before: {}, after: applied(), removing: false });
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      message = (error as Error).message;
    }
    expect(message).toMatch(new RegExp(`^${configToml.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: could not record hook trust without breaking the file \\(Invalid TOML document: `));
    expect(message.endsWith("); trust hookbox's hooks in Codex instead (/hooks in the TUI)")).toBe(true);
    expect(readFileSync(configToml, 'utf8')).toBe(broken);
  });

  it('reads a handler timeout from timeoutSec, and a non-number timeout as none', () => {
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: OURS, timeoutSec: 7 }] }], PreToolUse: [{ hooks: [{ type: 'command', command: OURS, timeout: '9' }] }] } };
    expect(codexTrustFor(FILE, settings)).toStrictEqual(
      new Map([
        [`${FILE}:stop:0:0`, codexHookHash('Stop', undefined, { command: OURS, timeout: 7 })],
        [`${FILE}:pre_tool_use:0:0`, codexHookHash('PreToolUse', undefined, { command: OURS })],
      ]),
    );
  });
});

describe('apply, paths and project trust', () => {
  it('gives Codex 30 s by default, the deadline rounded up to whole seconds otherwise', () => {
    const stop = (options?: { answerTimeoutMs: number }) => (codexSetup.apply({}, transport, options).settings.hooks as Record<string, unknown>).Stop;
    expect(stop()).toStrictEqual([{ hooks: [{ type: 'command', command: OURS, timeout: 30 }] }]);
    expect(stop({ answerTimeoutMs: 1_001 })).toStrictEqual([{ hooks: [{ type: 'command', command: OURS, timeout: 2 }] }]);
    expect(codexSetup.apply({}, transport).changes[0]).toStrictEqual({ action: 'added', where: 'hooks.SessionStart[0]', what: `command ${OURS} (timeout 30 s)` });
    expect(() => codexSetup.apply({}, { kind: 'http', url: 'http://127.0.0.1:1/', headers: {} })).toThrow(new TypeError('Codex runs command hooks only'));
    expect(codexSetup.unsupported('command')).toBeUndefined();
    expect(codexSetup.unsupported('http')).toBe('Codex has no http hooks (command, mcp_tool, prompt and agent only); use --transport command');
  });

  it("takes out only hookbox's handlers, leaving a user's odd (null, text) handlers where they were", () => {
    const settings = { hooks: { Stop: [{ hooks: [null, ourHandler, 'echo'] }] } };
    expect(codexSetup.remove(settings)).toStrictEqual({
      settings: { hooks: { Stop: [{ hooks: [null, 'echo'] }] } },
      changes: [{ action: 'removed', where: 'hooks.Stop[0]', what: `command ${OURS} (timeout 30 s)` }],
    });
  });

  it('$CODEX_HOME (resolved) when set and not empty, else ~/.codex', () => {
    process.env.CODEX_HOME = 'rel/home';
    expect(codexHome('/h')).toBe(join(process.cwd(), 'rel/home'));
    process.env.CODEX_HOME = '';
    expect(codexHome('/h')).toBe('/h/.codex');
    expect(codexUserConfig({ kind: 'user', home: '/h' })).toBe('/h/.codex/config.toml');
    expect(codexUserConfig(scope)).toBe(join(homedir(), '.codex', 'config.toml'));
    expect(codexSetup.settingsPath({ kind: 'user', home: '/h' })).toBe('/h/.codex/hooks.json');
    delete process.env.CODEX_HOME;
    expect(codexHome('/h')).toBe('/h/.codex');
  });

  it('a project is trusted only by its own trust_level = "trusted"', () => {
    const text = '[projects."/a"]\ntrust_level = "trusted"\n[projects."/b"]\ntrust_level = "untrusted"\n';
    expect(codexProjectTrusted(text, '/a')).toBe(true);
    expect(codexProjectTrusted(text, '/b')).toBe(false);
    expect(codexProjectTrusted(text, '/c')).toBe(false);
    expect(codexProjectTrusted('', '/a')).toBe(false);
  });
});

describe('hookbox doctor codex', () => {
  const settings = {
    hooks: {
      SessionStart: [{ hooks: [ourHandler] }],
      PreToolUse: [{ hooks: [ourHandler] }],
      PostToolUse: [{ hooks: [ourHandler] }],
      Stop: [{ hooks: [ourHandler, userHook] }],
    },
  };
  const hash = (event: string): string => codexHookHash(event, undefined, { command: OURS, timeout: 30 });

  it('finds each handler trusted, disabled, untrusted or changed, and the project untrusted', () => {
    writeConfig(
      [
        state(`${FILE}:session_start:0:0`, hash('SessionStart')),
        `[hooks.state.${JSON.stringify(`${FILE}:pre_tool_use:0:0`)}]\ntrusted_hash = "${hash('PreToolUse')}"\nenabled = false\n`,
        state(`${FILE}:stop:0:0`, 'sha256:old'),
      ].join('\n'),
    );
    const setupAgain = 'hookbox setup codex --project /proj --config <your hookbox.config.json>';
    expect(codexSetup.verify!({ scope, settingsFile: FILE, settings })).toStrictEqual([
      { ok: true, what: `Codex hook ${FILE}:session_start:0:0 trusted` },
      { ok: false, what: `Codex hook ${FILE}:pre_tool_use:0:0 is disabled in ${configToml}`, fix: `remove "enabled = false" from [hooks.state."${FILE}:pre_tool_use:0:0"] (or enable it in Codex's /hooks)` },
      { ok: false, what: `Codex hook ${FILE}:post_tool_use:0:0 is not trusted: Codex skips it silently`, fix: setupAgain },
      { ok: false, what: `Codex hook ${FILE}:stop:0:0 changed since it was trusted (trusted sha256:old, now ${hash('Stop')}): Codex skips it silently`, fix: setupAgain },
      {
        ok: false,
        what: 'project /proj is not trusted: Codex ignores its .codex/hooks.json',
        fix: `open Codex in /proj once and trust it, or add to ${configToml}: [projects."/proj"] trust_level = "trusted"`,
      },
    ]);
  });

  it('a trusted project and an enabled = true handler pass; a user scope has no project finding', () => {
    writeConfig(`[hooks.state.${JSON.stringify(`${FILE}:stop:0:0`)}]\ntrusted_hash = "${hash('Stop')}"\nenabled = true\n\n[projects."/proj"]\ntrust_level = "trusted"\n`);
    const stopOnly = { hooks: { Stop: [{ hooks: [ourHandler] }] } };
    expect(codexSetup.verify!({ scope, settingsFile: FILE, settings: stopOnly })).toStrictEqual([
      { ok: true, what: `Codex hook ${FILE}:stop:0:0 trusted` },
      { ok: true, what: `project /proj trusted in ${configToml}` },
    ]);
    expect(codexSetup.verify!({ scope: { kind: 'user', home: '/h' }, settingsFile: FILE, settings: { hooks: { Stop: [{ hooks: [ourHandler] }], PreToolUse: [{ hooks: [ourHandler] }] } } })).toStrictEqual([
      { ok: true, what: `Codex hook ${FILE}:stop:0:0 trusted` },
      { ok: false, what: `Codex hook ${FILE}:pre_tool_use:0:0 is not trusted: Codex skips it silently`, fix: 'hookbox setup codex --user --config <your hookbox.config.json>' },
    ]);
  });

  it('reports a config.toml that does not parse, and nothing else', () => {
    writeConfig('[[bad');
    let reason = '';
    try {
      parse('[[bad');
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(codexSetup.verify!({ scope, settingsFile: FILE, settings })).toStrictEqual([
      { ok: false, what: `${configToml} does not parse (${reason})`, fix: `fix the TOML in ${configToml}; Codex will not start with it either` },
    ]);
  });

  it('with no config.toml: every handler untrusted', () => {
    expect(codexSetup.verify!({ scope: { kind: 'user', home: '/h' }, settingsFile: FILE, settings: { hooks: { Stop: [{ hooks: [ourHandler] }] } } })).toStrictEqual([
      { ok: false, what: `Codex hook ${FILE}:stop:0:0 is not trusted: Codex skips it silently`, fix: 'hookbox setup codex --user --config <your hookbox.config.json>' },
    ]);
  });
});
