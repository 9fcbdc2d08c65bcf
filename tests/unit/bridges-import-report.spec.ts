import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ImportResult, type ShellHookEntry, importClaudeSettingsFile, importPolicy, renderImportReport } from '../../host/bridges/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

/** The policy as the person importing reads it (written out here, not taken from the module). */
function policy(label: string): string[] {
  return [
    `Every imported hook is a shell command that runs UNSANDBOXED, with your user's rights, in the session's working directory. It is marked "unsandboxed": true in the config, [unsandboxed] in the transcript and "sandbox": "shell" in the audit log (hook/invoke).`,
    `Timeouts: ${label}'s (600 s unless the hook sets one); at the timeout the hook's process group is killed.`,
    `Fail closed (hookbox's policy): a timeout, a crash, malformed output or an exit code other than 0 and 2 is a fault; a fault denies the tool call (a timeout asks, and an ask without a prompter is a deny) or blocks the prompt or the tool result. ${label} would carry on instead: set "failPolicy": "open" on a hook for that.`,
    `Deterministic order: hooks on one seam run one after another in the order listed, and a later hook cannot relax a deny or a block. ${label} runs them in parallel.`,
    `Input rewrite: a PreToolUse hook's updatedInput with permissionDecision "allow" is read back onto hookbox's tool as a rewrite (allow {arguments}), and every hook is asked again on the rewritten call. Not offered: updatedInput anywhere else, and tool-output replacement; a hook that returns them gets a schema fault naming the field, never a silent drop.`,
    `A Stop hook that blocks continues the turn at most --max-continuations times (the loop guard); stop_hook_active tells it the turn was already continued.`,
  ];
}

const policyLines = (label: string) => ['Policy:', ...policy(label).map((rule) => `  • ${rule}`)];

function entry(fields: Partial<ShellHookEntry> & Pick<ShellHookEntry, 'name' | 'command' | 'seams'>): ShellHookEntry {
  return { protocol: 'claude-code', unsandboxed: true, timeoutMs: 600_000, failPolicy: 'closed', ...fields };
}

function result(fields: Partial<ImportResult>): ImportResult {
  return { protocol: 'claude-code', source: '/p/.claude/settings.json', config: { hooks: [] }, refused: [], missing: [], imported: [], skipped: [], notes: [], ...fields };
}

describe('importPolicy', () => {
  it('states the policy in the words of the tool imported from', () => {
    expect(importPolicy('Claude Code')).toStrictEqual(policy('Claude Code'));
    expect(importPolicy('Codex')).toStrictEqual(policy('Codex'));
  });
});

describe('renderImportReport', () => {
  it('an import with nothing in it still names the source and states the policy', () => {
    expect(renderImportReport(result({ protocol: 'codex', source: '/p/.codex/hooks.json' }))).toBe(
      [`Imported 0 Codex hook(s) from /p/.codex/hooks.json:`, '', ...policyLines('Codex'), ''].join('\n'),
    );
  });

  it('warnings first (unenforced deny/ask rules, missing programs), then rules, hooks, what was not imported, notes and the policy', () => {
    const report = renderImportReport(
      result({
        refused: [
          { at: 'permissions.deny[1]', what: 'rule "WebFetch(domain:x.com)"', why: 'no hookbox tool to apply it to', weakens: true },
          { at: 'permissions.ask[0]', what: 'rule "mcp__db__drop(x)"', why: 'a specifier cannot be enforced', weakens: true },
          { at: 'permissions.defaultMode', what: 'field "defaultMode"', why: 'no hookbox meaning', weakens: false },
        ],
        missing: [
          { hook: 'claude-pre-tool-use-1', program: 'uv', problem: 'not found on PATH' },
          { hook: 'claude-stop-1', program: './stop.sh', problem: 'no such file' },
        ],
        permissions: { name: 'claude-permissions', permissions: { root: '/p', allow: ['Bash(npm test)'], deny: ['Bash(rm:*)', 'Read(.env*)'] } },
        imported: [
          {
            entry: entry({ name: 'claude-session-start-1', command: 'echo hi', seams: ['agent/session-start'], sources: ['startup', 'resume'] }),
            event: 'SessionStart',
            at: 'hooks.SessionStart[0].hooks[0]',
            matcher: 'startup|resume',
            notes: [],
          },
          {
            entry: entry({
              name: 'claude-pre-tool-use-1',
              command: 'uv run guard.py',
              seams: ['tools/pre-execute'],
              tools: ['bash', 'write_file'],
              timeoutMs: 30_000,
              env: { CLAUDE_PLUGIN_ROOT: '/p', MODE: 'ci' },
            }),
            event: 'PreToolUse',
            at: 'hooks.PreToolUse[0].hooks[0]',
            matcher: 'Bash|Edit',
            notes: ['"async" ignored', 'second note'],
          },
          { entry: entry({ name: 'claude-stop-1', command: './stop.sh', seams: ['agent/turn-continuation'], timeoutMs: 1500 }), event: 'Stop', at: 'hooks.Stop[0].hooks[0]', notes: [] },
        ],
        skipped: [{ at: 'hooks.Notification', what: 'event Notification (1 matcher group(s))', why: 'no hookbox seam' }],
        notes: ['CLAUDE_PLUGIN_ROOT is set to /p', 'another'],
      }),
    );
    expect(report).toBe(
      [
        'WARNING: 2 deny/ask rule(s) of /p/.claude/settings.json are NOT enforced by hookbox (listed under "Not imported"); add a hook for them.',
        '',
        'WARNING: 2 program(s) the hooks start were not found (checked from the project directory); `hookbox run` faults each call of these hooks, failing closed:',
        '  claude-pre-tool-use-1: uv: not found on PATH',
        '  claude-stop-1: ./stop.sh: no such file',
        '',
        'Imported 3 permission rule(s) as the native hook claude-permissions (tools/pre-execute; deny, then ask, then allow; fails closed):',
        '  deny Bash(rm:*)',
        '  deny Read(.env*)',
        '  allow Bash(npm test)',
        '',
        'Imported 3 Claude Code hook(s) from /p/.claude/settings.json:',
        '  claude-session-start-1  SessionStart [matcher "startup|resume"] → agent/session-start  sources: startup, resume  timeout 600 s',
        '      $ echo hi',
        '  claude-pre-tool-use-1  PreToolUse [matcher "Bash|Edit"] → tools/pre-execute  tools: bash, write_file  timeout 30 s',
        '      $ uv run guard.py',
        '      env: CLAUDE_PLUGIN_ROOT, MODE',
        '      note: "async" ignored',
        '      note: second note',
        '  claude-stop-1  Stop → agent/turn-continuation  timeout 1.5 s',
        '      $ ./stop.sh',
        '',
        'Not imported (4):',
        '  hooks.Notification: event Notification (1 matcher group(s)) — no hookbox seam',
        '  permissions.deny[1]: rule "WebFetch(domain:x.com)" — no hookbox tool to apply it to',
        '  permissions.ask[0]: rule "mcp__db__drop(x)" — a specifier cannot be enforced',
        '  permissions.defaultMode: field "defaultMode" — no hookbox meaning',
        '',
        'Notes:',
        '  CLAUDE_PLUGIN_ROOT is set to /p',
        '  another',
        '',
        ...policyLines('Claude Code'),
        '',
      ].join('\n'),
    );
  });

  it('a refused setting that weakens nothing gets no warning; ask rules are counted and listed between deny and allow', () => {
    const report = renderImportReport(
      result({
        refused: [{ at: 'permissions.additionalDirectories', what: 'field "additionalDirectories"', why: 'no hookbox meaning', weakens: false }],
        permissions: { name: 'claude-permissions', permissions: { root: '/p', ask: ['Bash(git push:*)'] } },
      }),
    );
    expect(report).toBe(
      [
        'Imported 1 permission rule(s) as the native hook claude-permissions (tools/pre-execute; deny, then ask, then allow; fails closed):',
        '  ask Bash(git push:*)',
        '',
        'Imported 0 Claude Code hook(s) from /p/.claude/settings.json:',
        '',
        'Not imported (1):',
        '  permissions.additionalDirectories: field "additionalDirectories" — no hookbox meaning',
        '',
        ...policyLines('Claude Code'),
        '',
      ].join('\n'),
    );
  });

  it('text from the settings file is shown as one printable line each, capped at 1000 characters', () => {
    const report = renderImportReport(
      result({
        source: '/p/\u001b]0;owned\u0007settings.json',
        missing: [{ hook: 'h\r1', program: 'u\u001bv', problem: 'not found on PATH' }],
        imported: [
          {
            entry: entry({ name: `n${'x'.repeat(1000)}`, command: 'echo a\necho b', seams: ['tools/pre-execute'], tools: ['ba\u0000sh'], env: { 'A\tB': '1' } }),
            event: 'PreToolUse',
            at: 'hooks.PreToolUse[0].hooks[0]',
            matcher: 'Bash\u001b',
            notes: ['note\u2028here'],
          },
        ],
        skipped: [{ at: 'hooks.X\n', what: 'event X\u001b', why: 'why\u0085' }],
        notes: ['\u202egnp.exe'],
      }),
    );
    expect(report).toBe(
      [
        'WARNING: 1 program(s) the hooks start were not found (checked from the project directory); `hookbox run` faults each call of these hooks, failing closed:',
        '  h\\r1: u\\x1bv: not found on PATH',
        '',
        'Imported 1 Claude Code hook(s) from /p/\\x1b]0;owned\\x07settings.json:',
        `  n${'x'.repeat(998)}…  PreToolUse [matcher "Bash\\u001b"] → tools/pre-execute  tools: ba\\x00sh  timeout 600 s`,
        '      $ echo a\\necho b',
        '      env: A\\tB',
        '      note: note\\u{2028}here',
        '',
        'Not imported (1):',
        '  hooks.X\\n: event X\\x1b — why\\x85',
        '',
        'Notes:',
        '  \\u{202e}gnp.exe',
        '',
        ...policyLines('Claude Code'),
        '',
      ].join('\n'),
    );
  });
});

describe('renderImportReport of a real import', () => {
  let workspace: TestWorkspace;
  beforeEach(() => {
    workspace = makeWorkspace('hookbox-import-report-');
  });
  afterEach(() => workspace.dispose());

  it('a project settings file: its missing script is warned about first, checked from the project folder', () => {
    mkdirSync(join(workspace.dir, '.claude'));
    const file = join(workspace.dir, '.claude', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh', timeout: 20 }] }] } }),
    );
    expect(renderImportReport(importClaudeSettingsFile(file))).toBe(
      [
        'WARNING: 1 program(s) the hooks start were not found (checked from the project directory); `hookbox run` faults each call of these hooks, failing closed:',
        `  claude-pre-tool-use-1: ${workspace.dir}/hooks/guard.sh: no such file`,
        '',
        `Imported 1 Claude Code hook(s) from ${file}:`,
        '  claude-pre-tool-use-1  PreToolUse [matcher "Bash"] → tools/pre-execute  tools: bash  timeout 20 s',
        '      $ "$CLAUDE_PROJECT_DIR"/hooks/guard.sh',
        `      note: cannot run as it stands: ${workspace.dir}/hooks/guard.sh: no such file`,
        '',
        ...policyLines('Claude Code'),
        '',
      ].join('\n'),
    );
  });
});
