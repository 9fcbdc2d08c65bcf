import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importClaudeSettingsFile, importCodexHooksFile, importToolHooks, importedConfig } from '../../host/bridges/index.ts';
import { UNSUPPORTED_EVENTS } from '../../host/bridges/import-hooks.ts';
import { CLAUDE_CODE_EVENTS } from '../../host/agents/claude-code/protocol.ts';
import { CODEX_EVENTS } from '../../host/agents/codex/protocol.ts';
import { ConfigError } from '../../host/errors.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

// The importers on real files: whole results (config entries, notes, skipped,
// missing programs), where bridges-import.spec.ts checks parts of them.

let workspace: TestWorkspace;
let dir: string;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-import-hooks-');
  dir = workspace.dir;
  script('.claude/hooks/guard.sh', '#!/bin/sh\nexit 0\n');
});
afterEach(() => workspace.dispose());

/** Writes a file under the workspace (JSON unless a string), making its folders. */
function write(name: string, content: unknown): string {
  const file = join(dir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** An executable file under the workspace. */
function script(name: string, content: string): string {
  const file = write(name, content);
  chmodSync(file, 0o755);
  return file;
}

const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: cmd, ...extra });
const SEAM = {
  SessionStart: 'agent/session-start',
  UserPromptSubmit: 'agent/prompt-submit',
  PreToolUse: 'tools/pre-execute',
  PostToolUse: 'tools/post-execute',
  Stop: 'agent/turn-continuation',
} as const;
const DEFAULT_TIMEOUT_MS = 600_000;

/** The whole result of an import that found nothing to skip, refuse or miss, from its imported hooks. */
function clean<Hook extends { readonly entry: object }>(protocol: 'claude-code' | 'codex', source: string, imported: readonly Hook[]) {
  return { protocol, source, config: { hooks: imported.map((hook) => hook.entry) }, refused: [], missing: [], imported, skipped: [], notes: [] };
}

describe('importClaudeSettingsFile: a project settings file', () => {
  it('turns each command handler into a named, ordered shell hook with the settings env, timeouts in ms and the matcher as tools or sources', () => {
    const file = write('.claude/settings.json', {
      env: { API_URL: 'http://localhost:8080', RETRIES: 3, VERBOSE: true },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', { timeout: 30, statusMessage: 'Checking…' }),
              command('./.claude/hooks/guard.sh --strict', { timeout: 0.25 }),
            ],
          },
          // The same command for other tools is another hook.
          { matcher: 'Edit|Write', hooks: [command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')] },
        ],
        PostToolUse: [{ hooks: [command('echo done', { timeoutSec: 12 })] }],
        SessionStart: [{ matcher: 'startup|resume', hooks: [command('echo "export MODE=ci" >> "$CLAUDE_ENV_FILE"', { timeout: 600 })] }],
      },
    });
    const env = { API_URL: 'http://localhost:8080', RETRIES: '3', VERBOSE: 'true' };
    const base = { protocol: 'claude-code', unsandboxed: true, failPolicy: 'closed', env };
    const result = importClaudeSettingsFile(file, '/');
    expect(result).toStrictEqual(
      clean('claude-code', file, [
        {
          entry: { ...base, name: 'claude-pre-tool-use-1', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', seams: [SEAM.PreToolUse], tools: ['bash'], timeoutMs: 30_000 },
          event: 'PreToolUse',
          at: 'hooks.PreToolUse[0].hooks[0]',
          matcher: 'Bash',
          notes: [],
        },
        {
          entry: { ...base, name: 'claude-pre-tool-use-2', command: './.claude/hooks/guard.sh --strict', seams: [SEAM.PreToolUse], tools: ['bash'], timeoutMs: 250 },
          event: 'PreToolUse',
          at: 'hooks.PreToolUse[0].hooks[1]',
          matcher: 'Bash',
          notes: [],
        },
        {
          entry: { ...base, name: 'claude-pre-tool-use-3', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', seams: [SEAM.PreToolUse], tools: ['write_file'], timeoutMs: DEFAULT_TIMEOUT_MS },
          event: 'PreToolUse',
          at: 'hooks.PreToolUse[1].hooks[0]',
          matcher: 'Edit|Write',
          notes: [],
        },
        {
          entry: { ...base, name: 'claude-post-tool-use-1', command: 'echo done', seams: [SEAM.PostToolUse], timeoutMs: 12_000 },
          event: 'PostToolUse',
          at: 'hooks.PostToolUse[0].hooks[0]',
          notes: [],
        },
        {
          entry: {
            ...base,
            name: 'claude-session-start-1',
            command: 'echo "export MODE=ci" >> "$CLAUDE_ENV_FILE"',
            seams: [SEAM.SessionStart],
            sources: ['startup', 'resume'],
            timeoutMs: DEFAULT_TIMEOUT_MS,
          },
          event: 'SessionStart',
          at: 'hooks.SessionStart[0].hooks[0]',
          matcher: 'startup|resume',
          notes: [],
        },
      ]),
    );
  });

  it("notes, per hook and in order, an ignored matcher, each ignored field, a misplaced CLAUDE_ENV_FILE and a capped timeout; tiny timeouts round up to 1 ms", () => {
    const file = write('.claude/settings.json', {
      hooks: {
        UserPromptSubmit: [
          { matcher: 'deploy.*', hooks: [command('echo env "$CLAUDE_ENV_FILE"', { async: true, once: true, if: 'Bash(git *)', shell: 'bash', statusMessage: 'x', timeout: 900 })] },
        ],
        Stop: [
          { matcher: ' * ', hooks: [command('true', { timeout: 0.0001 })] },
          { matcher: '  ', hooks: [command('exit 0', { timeout: 600.0004 })] },
        ],
        PreToolUse: [{ hooks: [command('echo x >> "$CLAUDE_ENV_FILE"', { timeout: 600.5 })] }],
      },
    });
    const result = importClaudeSettingsFile(file);
    expect(result.imported.map((hook) => [hook.entry.name, hook.entry.timeoutMs, hook.notes])).toStrictEqual([
      [
        'claude-user-prompt-submit-1',
        DEFAULT_TIMEOUT_MS,
        [
          'matcher "deploy.*" ignored: UserPromptSubmit has no matcher (Claude Code ignores it too)',
          '"async" ignored: runs synchronously: hookbox runs every hook in order and waits for it',
          '"once" ignored: runs on every matching call, not once per session',
          '"if" ignored: the "if" filter is not applied: the hook runs on every call its matcher selects',
          '"shell" ignored: not a field hookbox reproduces',
          'CLAUDE_ENV_FILE is set for Claude Code SessionStart hooks only (as Claude Code does)',
          "timeout 900 s capped at hookbox's maximum of 600 s",
        ],
      ],
      ['claude-stop-1', 1, []],
      ['claude-stop-2', DEFAULT_TIMEOUT_MS, []],
      [
        'claude-pre-tool-use-1',
        DEFAULT_TIMEOUT_MS,
        ['CLAUDE_ENV_FILE is set for Claude Code SessionStart hooks only (as Claude Code does)', "timeout 600.5 s capped at hookbox's maximum of 600 s"],
      ],
    ]);
  });

  it('lists what it skips, where and why: other events, other hook types, empty commands, bad or empty matchers, duplicates', () => {
    const file = write('.claude/settings.json', {
      hooks: {
        Notification: [{ hooks: [command('notify-send hi')] }, { matcher: 'idle_prompt', hooks: [command('notify-send idle')] }],
        TeammateIdle: [{ hooks: [command('true')] }, { hooks: [command('true')] }],
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'Is this safe?' },
              { type: 'http', url: 'https://example.com' },
              { type: 'command' },
              command('   '),
              command('echo guard'),
              command('echo guard'),
            ],
          },
          { matcher: ' Bash ', hooks: [command('echo guard'), command('echo other')] },
          { matcher: 'Read', hooks: [command('echo guard')] },
          { matcher: '[z-a]', hooks: [command('echo a'), command('echo b')] },
        ],
        SessionStart: [
          { matcher: 'startup', hooks: [command('echo hi')] },
          { matcher: 'resume', hooks: [command('echo hi')] },
          { matcher: 'resume', hooks: [command('echo hi')] },
          { matcher: 'boot|wake', hooks: [command('echo never')] },
          { matcher: '^z', hooks: [command('echo never')] },
          { matcher: '(startup', hooks: [command('echo never')] },
        ],
      },
    });
    const result = importClaudeSettingsFile(file);
    expect(result.skipped).toStrictEqual([
      {
        at: 'hooks.Notification[1].matcher',
        what: 'matcher "idle_prompt" (1 hook(s))',
        why: "Notification's matcher selects on the notification type, which a hookbox hook cannot select on; without it the hook would run on every Notification",
      },
      { at: 'hooks.TeammateIdle', what: 'event TeammateIdle (2 matcher group(s))', why: 'not an event of a hookbox seam (the events imported: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PermissionRequest, SubagentStart, SubagentStop, Notification, PreCompact, SessionEnd)' },
      {
        at: 'hooks.PreToolUse[0].hooks[0]',
        what: 'hook type "prompt"',
        why: 'hookbox imports command hooks only (prompt, agent, http and MCP hooks call out of the loop)',
      },
      {
        at: 'hooks.PreToolUse[0].hooks[1]',
        what: 'hook type "http"',
        why: 'hookbox imports command hooks only (prompt, agent, http and MCP hooks call out of the loop)',
      },
      { at: 'hooks.PreToolUse[0].hooks[2]', what: 'command hook without a command', why: 'nothing to run' },
      { at: 'hooks.PreToolUse[0].hooks[3]', what: 'command hook without a command', why: 'nothing to run' },
      { at: 'hooks.PreToolUse[0].hooks[5]', what: 'command "echo guard"', why: 'identical to claude-pre-tool-use-1 (Claude Code runs identical commands once)' },
      { at: 'hooks.PreToolUse[1].hooks[0]', what: 'command "echo guard"', why: 'identical to claude-pre-tool-use-1 (Claude Code runs identical commands once)' },
      {
        at: 'hooks.PreToolUse[3].matcher',
        what: 'matcher "[z-a]" (2 hook(s))',
        why: 'not a valid regular expression: Invalid regular expression: /[z-a]/: Range out of order in character class',
      },
      { at: 'hooks.SessionStart[2].hooks[0]', what: 'command "echo hi"', why: 'identical to claude-session-start-2 (Claude Code runs identical commands once)' },
      {
        at: 'hooks.SessionStart[3].matcher',
        what: 'matcher "boot|wake" (1 hook(s))',
        why: 'matches no session-start source (startup, resume, clear, compact): boot, wake: not a session-start source (startup, resume, clear, compact)',
      },
      { at: 'hooks.SessionStart[4].matcher', what: 'matcher "^z" (1 hook(s))', why: 'matches no session-start source (startup, resume, clear, compact)' },
      {
        at: 'hooks.SessionStart[5].matcher',
        what: 'matcher "(startup" (1 hook(s))',
        why: 'not a valid regular expression: Invalid regular expression: /(startup/: Unterminated group',
      },
    ]);
    // A skipped duplicate takes no number; the same command for other tools or sources is another hook.
    expect(result.imported.map((hook) => [hook.entry.name, hook.at, hook.entry.tools ?? hook.entry.sources])).toStrictEqual([
      ['claude-notification-1', 'hooks.Notification[0].hooks[0]', undefined],
      ['claude-pre-tool-use-1', 'hooks.PreToolUse[0].hooks[4]', ['bash']],
      ['claude-pre-tool-use-2', 'hooks.PreToolUse[1].hooks[1]', ['bash']],
      ['claude-pre-tool-use-3', 'hooks.PreToolUse[2].hooks[0]', ['read_file']],
      ['claude-session-start-1', 'hooks.SessionStart[0].hooks[0]', ['startup']],
      ['claude-session-start-2', 'hooks.SessionStart[1].hooks[0]', ['resume']],
    ]);
    expect(result.notes).toStrictEqual([]);
  });

  it('says why each event with no seam is not imported', () => {
    const events = ['PermissionDenied', 'PostToolUseFailure', 'StopFailure', 'PostCompact'];
    const file = write('settings.json', { hooks: Object.fromEntries(events.map((event) => [event, [{ hooks: [command('true')] }]])) });
    expect(importClaudeSettingsFile(file, dir).skipped.map((skip) => [skip.at, skip.why])).toStrictEqual([
      ['hooks.PermissionDenied', 'hookbox has no permission-denied seam: a denied call is a tool result the post-execute hooks see'],
      ['hooks.PostToolUseFailure', 'no separate PostToolUseFailure hook: PostToolUse hooks decide tools/post-execute for every call, failed ones too; move the hook to PostToolUse'],
      [
        'hooks.StopFailure',
        'hookbox has no seam for a turn that ended on an API error: agent/turn-continuation fires when the model ends a step, not when a request fails',
      ],
      [
        'hooks.PostCompact',
        'hookbox has no post-compact seam: agent/session-start with source "compact" fires after a compaction where the agent says so; move the hook to SessionStart with matcher "compact"',
      ],
    ]);
  });

  it('gives a hand-written reason only for events no seam stands for (a seam that comes to stand for one fails here)', () => {
    const read = new Set([...CLAUDE_CODE_EVENTS, ...CODEX_EVENTS].map((row) => row.event));
    expect([...UNSUPPORTED_EVENTS.keys()].filter((event) => read.has(event))).toEqual([]);

  });

  it('imports hooks on every lifecycle event onto its seam (issue #51), a PermissionRequest matcher as a tool matcher', () => {
    const events = { PermissionRequest: 'tools/permission-request', SubagentStart: 'agent/subagent-start', SubagentStop: 'agent/subagent-stop', Notification: 'agent/notification', PreCompact: 'agent/pre-compact', SessionEnd: 'agent/session-end' };
    const hooks = Object.fromEntries(Object.keys(events).map((event) => [event, [{ ...(event === 'PermissionRequest' ? { matcher: 'Bash' } : { matcher: '*' }), hooks: [command(`log-${event}`)] }]]));
    for (const [protocol, result] of [['claude-code', importClaudeSettingsFile(write('.claude/settings.json', { hooks }), dir)], ['codex', importCodexHooksFile(write('.codex/hooks.json', { hooks }))]] as const) {
      expect(result.skipped, protocol).toStrictEqual([]);
      expect(result.imported.map((hook) => [hook.event, hook.entry.seams, hook.entry.tools, hook.entry.command]), protocol).toStrictEqual(
        Object.entries(events).map(([event, seam]) => [event, [seam], event === 'PermissionRequest' ? ['bash'] : undefined, `log-${event}`]),
      );
    }
  });

  it("an event or a handler field named like an Object built-in is reported as unknown, not by the built-in's source", () => {
    const file = write('settings.json', { hooks: { constructor: [{ hooks: [command('true')] }], PreToolUse: [{ hooks: [command('true', { toString: 1 })] }] } });
    const result = importClaudeSettingsFile(file, dir);
    expect(result.skipped.map((skip) => [skip.at, skip.why])).toStrictEqual([['hooks.constructor', 'not an event of a hookbox seam (the events imported: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PermissionRequest, SubagentStart, SubagentStop, Notification, PreCompact, SessionEnd)']]);
    expect(result.imported.map((hook) => hook.notes)).toStrictEqual([['"toString" ignored: not a field hookbox reproduces']]);
  });

  it('notes a file without hooks, and hooks Claude Code has switched off', () => {
    expect(importClaudeSettingsFile(write('a.json', { disableAllHooks: true })).notes).toStrictEqual([
      'no "hooks" section: nothing to import',
      '"disableAllHooks": true is set: Claude Code runs none of these hooks; hookbox imports them anyway',
    ]);
    const off = importClaudeSettingsFile(write('b.json', { disableAllHooks: false, hooks: { Stop: [{ hooks: [command('true')] }] } }));
    expect([off.notes, off.config.hooks.length]).toStrictEqual([[], 1]);
  });

  it('a handler field of the wrong kind is a ConfigError naming the file and its JSON path', () => {
    const file = write('.claude/settings.json', { hooks: { Stop: [{ hooks: [command('true', { timeout: 0 })] }] } });
    expect(() => importClaudeSettingsFile(file)).toThrow(new ConfigError(`${file}: hooks.Stop[0].hooks[0].timeout: Too small: expected number to be >0`));
  });
});

describe('importClaudeSettingsFile: programs and variables', () => {
  it('checks each program from the project folder with the settings env, listing what is missing and what it could not check', () => {
    script('bin/sh', '#!/no/such/interpreter\n');
    script('hooks/needs-uv.sh', '#!/usr/bin/env hookbox-no-such-tool run\n');
    const file = write('.claude/settings.json', {
      env: { HOOK_DIR: join(dir, '.claude/hooks') },
      hooks: {
        PreToolUse: [
          {
            hooks: [
              command('$HOOK_DIR/guard.sh'),
              command('./hooks/absent.sh --fast'),
              command('./bin/sh ./gone.py'),
              command('hooks/needs-uv.sh'),
              command('"$HOOKBOX_TEST_NEVER_SET"/run.sh'),
              command('(cd x && ./y)'),
            ],
          },
        ],
      },
    });
    const result = importClaudeSettingsFile(file);
    expect(result.missing).toStrictEqual([
      { hook: 'claude-pre-tool-use-2', program: './hooks/absent.sh', problem: 'no such file' },
      { hook: 'claude-pre-tool-use-3', program: '/no/such/interpreter', problem: `no such file (the #! interpreter of ${join(dir, 'bin/sh')})` },
      { hook: 'claude-pre-tool-use-3', program: './gone.py', problem: 'no such file (the sh script)' },
      { hook: 'claude-pre-tool-use-4', program: 'hookbox-no-such-tool', problem: `not found on PATH (the #! interpreter of ${join(dir, 'hooks/needs-uv.sh')})` },
    ]);
    expect(result.imported.map((hook) => hook.notes)).toStrictEqual([
      [],
      ['cannot run as it stands: ./hooks/absent.sh: no such file'],
      [
        `cannot run as it stands: /no/such/interpreter: no such file (the #! interpreter of ${join(dir, 'bin/sh')})`,
        'cannot run as it stands: ./gone.py: no such file (the sh script)',
      ],
      [`cannot run as it stands: hookbox-no-such-tool: not found on PATH (the #! interpreter of ${join(dir, 'hooks/needs-uv.sh')})`],
      ['program not checked: $HOOKBOX_TEST_NEVER_SET/run.sh uses a variable that is not set'],
      ['program not checked: starts with shell syntax hookbox does not read'],
    ]);
  });

  it('without a project folder above the file, programs are checked from the cwd given', () => {
    script('work/tools/lint.sh', '#!/bin/sh\n');
    const file = write('user/settings.json', { hooks: { PostToolUse: [{ hooks: [command('./tools/lint.sh')] }] } });
    expect(importClaudeSettingsFile(file, join(dir, 'work')).missing).toStrictEqual([]);
    expect(importClaudeSettingsFile(file, dir).missing).toStrictEqual([{ hook: 'claude-post-tool-use-1', program: './tools/lint.sh', problem: 'no such file' }]);
  });

  it("a plugin's hooks get CLAUDE_PLUGIN_ROOT in their env (over the file's own) and are checked with it", () => {
    const root = join(dir, 'plugins/fmt');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    script('plugins/fmt/scripts/format.sh', '#!/bin/sh\n');
    const file = write('plugins/fmt/hooks/hooks.json', {
      env: { CLAUDE_PLUGIN_ROOT: '/elsewhere', LEVEL: 'debug' },
      hooks: {
        PostToolUse: [{ matcher: 'Write|Edit', hooks: [command('${CLAUDE_PLUGIN_ROOT}/scripts/format.sh'), command('"$CLAUDE_PLUGIN_ROOT"/scripts/gone.sh')] }],
      },
    });
    const env = { CLAUDE_PLUGIN_ROOT: root, LEVEL: 'debug' };
    const entry = { protocol: 'claude-code', unsandboxed: true, seams: [SEAM.PostToolUse], tools: ['write_file'], timeoutMs: DEFAULT_TIMEOUT_MS, failPolicy: 'closed', env };
    expect(importClaudeSettingsFile(file, dir)).toStrictEqual({
      ...clean('claude-code', file, [
        {
          entry: { ...entry, name: 'claude-post-tool-use-1', command: '${CLAUDE_PLUGIN_ROOT}/scripts/format.sh' },
          event: 'PostToolUse',
          at: 'hooks.PostToolUse[0].hooks[0]',
          matcher: 'Write|Edit',
          notes: [`CLAUDE_PLUGIN_ROOT is set to ${root}`],
        },
        {
          entry: { ...entry, name: 'claude-post-tool-use-2', command: '"$CLAUDE_PLUGIN_ROOT"/scripts/gone.sh' },
          event: 'PostToolUse',
          at: 'hooks.PostToolUse[0].hooks[1]',
          matcher: 'Write|Edit',
          notes: [`CLAUDE_PLUGIN_ROOT is set to ${root}`, `cannot run as it stands: ${root}/scripts/gone.sh: no such file`],
        },
      ]),
      missing: [{ hook: 'claude-post-tool-use-2', program: `${root}/scripts/gone.sh`, problem: 'no such file' }],
    });
  });

  it('outside a plugin a command that uses CLAUDE_PLUGIN_ROOT is noted; a SessionStart hook may use CLAUDE_ENV_FILE', () => {
    const file = write('settings.json', {
      hooks: { SessionStart: [{ hooks: [command('echo root "$CLAUDE_PLUGIN_ROOT"'), command('echo A=1 >> "$CLAUDE_ENV_FILE"')] }] },
    });
    const result = importClaudeSettingsFile(file, dir);
    expect(result.imported.map((hook) => [hook.entry, hook.notes])).toStrictEqual([
      [
        { name: 'claude-session-start-1', command: 'echo root "$CLAUDE_PLUGIN_ROOT"', protocol: 'claude-code', unsandboxed: true, seams: [SEAM.SessionStart], timeoutMs: DEFAULT_TIMEOUT_MS, failPolicy: 'closed' },
        ['CLAUDE_PLUGIN_ROOT is not set: the file is not inside a Claude Code plugin (no .claude-plugin/ or hooks/ folder above it)'],
      ],
      [
        { name: 'claude-session-start-2', command: 'echo A=1 >> "$CLAUDE_ENV_FILE"', protocol: 'claude-code', unsandboxed: true, seams: [SEAM.SessionStart], timeoutMs: DEFAULT_TIMEOUT_MS, failPolicy: 'closed' },
        [],
      ],
    ]);
  });
});

describe('importToolHooks: permissions and the written config', () => {
  it("puts the settings' permissions first, rooted at the project, and lists the permission fields it does not import", () => {
    const file = write('.claude/settings.json', {
      permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [command('echo pre')] }] },
    });
    const result = importClaudeSettingsFile(file);
    const permissions = { name: 'claude-permissions', permissions: { root: dir, allow: ['Bash(npm test)'], deny: ['Read(./.env)'] } };
    expect([result.permissions, result.refused]).toStrictEqual([
      permissions,
      [{ at: 'permissions.defaultMode', what: '"defaultMode"', why: 'hookbox has no permission modes: tool calls run unless a hook denies or asks', weakens: false }],
    ]);
    expect(importedConfig(result)).toStrictEqual({ hooks: [permissions, ...result.config.hooks] });
    expect(result.config.hooks.map((hook) => hook.name)).toStrictEqual(['claude-pre-tool-use-1']);
  });

  it('without permission rules the config is the shell hooks alone', () => {
    const result = importClaudeSettingsFile(write('.claude/settings.json', { permissions: { allow: [] }, hooks: { Stop: [{ hooks: [command('echo stop')] }] } }));
    expect(Object.hasOwn(result, 'permissions')).toBe(false);
    expect(importedConfig(result)).toStrictEqual({ hooks: result.config.hooks });
    expect(importedConfig(result).hooks.map((hook) => hook.name)).toStrictEqual(['claude-stop-1']);
  });

  it('without a context, the project is the process cwd', () => {
    const result = importToolHooks('claude-code', 'inline settings', {
      permissions: { allow: ['Bash(ls)'] },
      hooks: { PreToolUse: [{ hooks: [command('./package.json')] }] },
    });
    expect([result.permissions, result.missing]).toStrictEqual([
      { name: 'claude-permissions', permissions: { root: process.cwd(), allow: ['Bash(ls)'] } },
      [{ hook: 'claude-pre-tool-use-1', program: './package.json', problem: 'not executable (chmod +x it, or name its interpreter in the command)' }],
    ]);
  });
});

describe('importCodexHooksFile', () => {
  it("reads a project's .codex/config.toml: Codex names, timeout before timeoutSec, no settings env or permissions, Codex in every note", () => {
    script('scripts/check.sh', '#!/bin/sh\n');
    const file = write(
      '.codex/config.toml',
      [
        'model = "gpt-5-codex"',
        '[mcp_servers.db]',
        'command = "db-server"',
        '[[hooks.PreToolUse]]',
        'matcher = "apply_patch|Edit"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "./scripts/check.sh"',
        'timeout = 5',
        'timeoutSec = 9',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "./scripts/check.sh"',
        '[[hooks.PreToolUse]]',
        'matcher = "^Bash$"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "echo x >> \\"$CLAUDE_ENV_FILE\\""',
        '[[hooks.UserPromptSubmit]]',
        'matcher = "anything"',
        '[[hooks.UserPromptSubmit.hooks]]',
        'type = "command"',
        'command = "echo prompt"',
        'timeoutSec = 2',
        '[[hooks.SessionStart]]',
        'matcher = "resume"',
        '[[hooks.SessionStart.hooks]]',
        'type = "command"',
        'command = "echo A=1 >> \\"$CLAUDE_ENV_FILE\\""',
      ].join('\n'),
    );
    const base = { protocol: 'codex', unsandboxed: true, failPolicy: 'closed' } as const;
    expect(importCodexHooksFile(file)).toStrictEqual({
      ...clean('codex', file, [
        {
          entry: { ...base, name: 'codex-pre-tool-use-1', command: './scripts/check.sh', seams: [SEAM.PreToolUse], tools: ['write_file'], timeoutMs: 5000 },
          event: 'PreToolUse',
          at: 'hooks.PreToolUse[0].hooks[0]',
          matcher: 'apply_patch|Edit',
          notes: [],
        },
        {
          entry: {
            ...base,
            name: 'codex-pre-tool-use-2',
            command: 'echo x >> "$CLAUDE_ENV_FILE"',
            seams: [SEAM.PreToolUse],
            tools: ['bash', '(?!(?:bash|read_file|write_file|list_dir)$).*(?:^Bash$).*'],
            timeoutMs: DEFAULT_TIMEOUT_MS,
          },
          event: 'PreToolUse',
          at: 'hooks.PreToolUse[1].hooks[0]',
          matcher: '^Bash$',
          notes: [
            'regex matcher: built-in tools it matches by their Codex names: bash; other tools are matched by the same regex',
            'CLAUDE_ENV_FILE is set for Claude Code SessionStart hooks only (as Claude Code does)',
          ],
        },
        {
          entry: { ...base, name: 'codex-user-prompt-submit-1', command: 'echo prompt', seams: [SEAM.UserPromptSubmit], timeoutMs: 2000 },
          event: 'UserPromptSubmit',
          at: 'hooks.UserPromptSubmit[0].hooks[0]',
          matcher: 'anything',
          notes: ['matcher "anything" ignored: UserPromptSubmit has no matcher (Codex ignores it too)'],
        },
        {
          entry: { ...base, name: 'codex-session-start-1', command: 'echo A=1 >> "$CLAUDE_ENV_FILE"', seams: [SEAM.SessionStart], sources: ['resume'], timeoutMs: DEFAULT_TIMEOUT_MS },
          event: 'SessionStart',
          at: 'hooks.SessionStart[0].hooks[0]',
          matcher: 'resume',
          notes: ['CLAUDE_ENV_FILE is set for Claude Code SessionStart hooks only (as Claude Code does)'],
        },
      ]),
      skipped: [{ at: 'hooks.PreToolUse[0].hooks[1]', what: 'command "./scripts/check.sh"', why: 'identical to codex-pre-tool-use-1 (Codex runs identical commands once)' }],
    });
  });

  it('a Codex hooks.json: its env and permissions are not Codex settings, disableAllHooks is noted as Codex', () => {
    const file = write('hooks.json', {
      env: { TOKEN: 'x' },
      permissions: { deny: ['Bash(rm:*)'] },
      disableAllHooks: true,
      hooks: { Stop: [{ hooks: [command('echo "$CLAUDE_PLUGIN_ROOT" stop')] }] },
    });
    expect(importCodexHooksFile(file, dir)).toStrictEqual({
      ...clean('codex', file, [
        {
          entry: { name: 'codex-stop-1', command: 'echo "$CLAUDE_PLUGIN_ROOT" stop', protocol: 'codex', unsandboxed: true, seams: [SEAM.Stop], timeoutMs: DEFAULT_TIMEOUT_MS, failPolicy: 'closed' },
          event: 'Stop',
          at: 'hooks.Stop[0].hooks[0]',
          notes: [
            'CLAUDE_PLUGIN_ROOT is not set: the file is not inside a Claude Code plugin (no .claude-plugin/ or hooks/ folder above it)',
            'program not checked: $CLAUDE_PLUGIN_ROOT uses a variable that is not set',
          ],
        },
      ]),
      notes: ['"disableAllHooks": true is set: Codex runs none of these hooks; hookbox imports them anyway'],
    });
  });

  it('a Codex import never sets CLAUDE_PLUGIN_ROOT, even with a plugin root in its context', () => {
    const result = importToolHooks('codex', 'hooks.json', { hooks: { PreToolUse: [{ hooks: [command('echo plugin $CLAUDE_PLUGIN_ROOT')] }] } }, { projectDir: dir, pluginRoot: dir });
    expect([result.config.hooks[0]?.env, result.imported[0]?.notes]).toStrictEqual([
      undefined,
      ['CLAUDE_PLUGIN_ROOT is not set: the file is not inside a Claude Code plugin (no .claude-plugin/ or hooks/ folder above it)'],
    ]);
  });

  it('a config.toml without [hooks] tables has nothing to import', () => {
    const file = write('config.toml', 'model = "o3"\n[sandbox_workspace_write]\nnetwork_access = false\n');
    expect(importCodexHooksFile(file)).toStrictEqual({ ...clean('codex', file, []), notes: ['no "hooks" section: nothing to import'] });
  });
});
