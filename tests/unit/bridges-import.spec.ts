import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  convertSourceMatcher,
  convertToolMatcher,
  importClaudeSettingsFile,
  importCodexHooksFile,
  importToolHooks,
} from '../../host/bridges/index.ts';
import { loadHookFile, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { compileToolMatcher } from '../../host/events/index.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-import-');
});
afterEach(() => workspace.dispose());

function write(name: string, content: unknown): string {
  const file = join(workspace.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

const command = (cmd: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: cmd, ...extra });

describe('convertToolMatcher', () => {
  const matches = (matcher: string | undefined, tool: string) => compileToolMatcher(convertToolMatcher('claude-code', matcher).tools)(tool);

  it('absent, "" and "*" match every tool', () => {
    for (const matcher of [undefined, '', '*']) expect(convertToolMatcher('claude-code', matcher)).toEqual({ notes: [] });
  });

  it('names map to hookbox tools (Bash→bash, Read→read_file, Write/Edit→write_file, LS→list_dir); others are kept with a note', () => {
    expect(convertToolMatcher('claude-code', 'Bash').tools).toEqual(['bash']);
    expect(convertToolMatcher('claude-code', 'Read, LS').tools).toEqual(['read_file', 'list_dir']);
    expect(convertToolMatcher('claude-code', 'Edit|Write|MultiEdit')).toEqual({ tools: ['write_file'], notes: [] });
    expect(convertToolMatcher('claude-code', 'NotebookEdit')).toEqual({ tools: ['write_file'], notes: [] });
    const other = convertToolMatcher('claude-code', 'WebFetch');
    expect(other.tools).toEqual(['WebFetch']);
    expect(other.notes.join()).toContain('WebFetch: no built-in hookbox tool has this name');
    expect(convertToolMatcher('codex', 'Bash').tools).toEqual(['bash']);
    expect(convertToolMatcher('codex', 'Read').tools).toEqual(['Read']);
  });

  it('a regex is resolved against built-in tools by their Claude Code names and still applies, unanchored, to other tools', () => {
    expect(matches('Bash|mcp__.*', 'bash')).toBe(true);
    expect(matches('Bash|mcp__.*', 'mcp__db__query')).toBe(true);
    expect(matches('Bash|mcp__.*', 'read_file')).toBe(false);
    expect(matches('^(Read|Wr.*)$', 'read_file')).toBe(true);
    expect(matches('^(Read|Wr.*)$', 'write_file')).toBe(true);
    expect(matches('^(Read|Wr.*)$', 'list_dir')).toBe(false);
    // A built-in is judged by its Claude Code name only: "b.*" does not match Bash.
    expect(matches('b.*', 'bash')).toBe(false);
    expect(() => convertToolMatcher('claude-code', '(unclosed')).toThrow(SyntaxError);
  });
});

describe('convertSourceMatcher', () => {
  it('selects session-start sources by name or regex', () => {
    expect(convertSourceMatcher(undefined)).toEqual({ notes: [] });
    expect(convertSourceMatcher('startup|resume').sources).toEqual(['startup', 'resume']);
    expect(convertSourceMatcher('comp.*').sources).toEqual(['compact']);
    expect(convertSourceMatcher('nonsense')).toEqual({ sources: [], notes: [expect.stringContaining('nonsense: not a session-start source')] });
  });
});

describe('importToolHooks (Claude Code settings)', () => {
  const settings = {
    permissions: { allow: ['Bash(ls)'] },
    hooks: {
      SessionStart: [{ matcher: 'startup', hooks: [command('echo hello')] }],
      UserPromptSubmit: [{ hooks: [command('./scan.sh', { timeout: 5 })] }],
      PreToolUse: [
        { matcher: 'Bash', hooks: [command('./guard.sh', { timeout: 30 }), { type: 'prompt', prompt: 'safe?' }] },
        { matcher: 'Bash', hooks: [command('./guard.sh', { timeout: 30 })] },
        { matcher: '(bad', hooks: [command('x')] },
      ],
      PostToolUse: [{ matcher: 'Write', hooks: [command('npx prettier --write', { async: true, timeout: 5000 })] }],
      Stop: [{ matcher: 'ignored', hooks: [command('./stop.sh')] }],
      Notification: [{ hooks: [command('notify-send hi')] }],
      SubagentStop: [{ hooks: [command('x')] }],
      PostCompact: [{ hooks: [command('x')] }],
    },
  };

  it('maps each event to its seam and each command to an unsandboxed shell hook with the timeout, failing closed', () => {
    const result = importToolHooks('claude-code', 'settings.json', settings);
    expect(result.config.hooks.map((hook) => [hook.name, hook.seams[0], hook.tools ?? hook.sources ?? null, hook.timeoutMs])).toEqual([
      ['claude-session-start-1', 'agent/session-start', ['startup'], 600_000],
      ['claude-user-prompt-submit-1', 'agent/prompt-submit', null, 5000],
      ['claude-pre-tool-use-1', 'tools/pre-execute', ['bash'], 30_000],
      ['claude-post-tool-use-1', 'tools/post-execute', ['write_file'], 600_000],
      ['claude-stop-1', 'agent/turn-continuation', null, 600_000],
      ['claude-notification-1', 'agent/notification', null, 600_000],
      ['claude-subagent-stop-1', 'agent/subagent-stop', null, 600_000],
    ]);
    for (const hook of result.config.hooks) expect(hook).toMatchObject({ protocol: 'claude-code', unsandboxed: true, failPolicy: 'closed' });
  });

  it('lists what it does not import, and why, and notes what it changed', () => {
    const result = importToolHooks('claude-code', 'settings.json', settings);
    expect(result.skipped.map((skip) => `${skip.at}: ${skip.what}`)).toEqual([
      'hooks.PreToolUse[0].hooks[1]: hook type "prompt"',
      'hooks.PreToolUse[1].hooks[0]: command "./guard.sh"',
      'hooks.PreToolUse[2].matcher: matcher "(bad" (1 hook(s))',
      'hooks.PostCompact: event PostCompact (1 matcher group(s))',
    ]);
    expect(result.skipped[1]?.why).toContain('identical to claude-pre-tool-use-1');
    const post = result.imported.find((hook) => hook.event === 'PostToolUse');
    expect(post?.notes).toEqual([expect.stringContaining('"async" ignored'), expect.stringContaining('timeout 5000 s capped')]);
    expect(result.imported.find((hook) => hook.event === 'Stop')?.notes).toEqual([
      expect.stringContaining('matcher "ignored" ignored: Stop has no matcher'),
      expect.stringContaining('cannot run as it stands: ./stop.sh: no such file'),
    ]);
  });

  it('writes a config hookbox loads: shell hooks with the sandbox marker, in order', async () => {
    const result = importToolHooks('claude-code', 'settings.json', settings);
    const file = write('hookbox.config.json', result.config);
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    try {
      const hooks = await loadHooks(loadOperatorConfig(file), runner);
      expect(hooks.map((hook) => [hook.name, hook.sandbox])).toEqual(result.config.hooks.map((hook) => [hook.name, 'shell']));
      expect(hooks[2]).toMatchObject({ tools: ['bash'], failPolicy: 'closed', seams: ['tools/pre-execute'] });
    } finally {
      await runner.close();
    }
  });

  it('a malformed hooks section is a ConfigError naming the file and the path', () => {
    const file = write('settings.json', { hooks: { PreToolUse: { matcher: 'Bash' } } });
    expect(() => importClaudeSettingsFile(file)).toThrow(ConfigError);
    expect(() => importClaudeSettingsFile(file)).toThrow(/settings\.json: hooks\.PreToolUse: /);
    const bad = write('broken.json', '{"hooks": ');
    expect(() => importClaudeSettingsFile(bad)).toThrow(/broken\.json:1:\d+: invalid JSON/);
    expect(importClaudeSettingsFile(write('none.json', { model: 'x' })).notes).toEqual(['no "hooks" section: nothing to import']);
  });
});

describe('importCodexHooksFile', () => {
  it('reads [[hooks.Event]] tables from config.toml (timeout in seconds, timeoutSec alias)', () => {
    const file = write(
      'config.toml',
      [
        'model = "o4-mini"',
        '[[hooks.PreToolUse]]',
        'matcher = "Bash"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "./guard.sh"',
        'timeoutSec = 10',
        '[[hooks.PermissionRequest]]',
        '[[hooks.PermissionRequest.hooks]]',
        'type = "command"',
        'command = "x"',
      ].join('\n'),
    );
    const result = importCodexHooksFile(file);
    expect(result.config.hooks).toEqual([
      { name: 'codex-pre-tool-use-1', command: './guard.sh', protocol: 'codex', unsandboxed: true, seams: ['tools/pre-execute'], tools: ['bash'], timeoutMs: 10_000, failPolicy: 'closed' },
      { name: 'codex-permission-request-1', command: 'x', protocol: 'codex', unsandboxed: true, seams: ['tools/permission-request'], timeoutMs: 600_000, failPolicy: 'closed' },
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('reads hooks.json; a TOML syntax error names the file, line and column', () => {
    const json = write('hooks.json', { hooks: { Stop: [{ hooks: [command('./stop.sh')] }] } });
    expect(importCodexHooksFile(json).config.hooks[0]).toMatchObject({ name: 'codex-stop-1', seams: ['agent/turn-continuation'] });
    const bad = write('bad.toml', '[[hooks.Stop]\n');
    expect(() => importCodexHooksFile(bad)).toThrow(/bad\.toml:1:\d+: invalid TOML/);
  });
});

describe('operator config: shell hooks and protocols', () => {
  const load = (hook: Record<string, unknown>) => () => loadOperatorConfig(write('c.json', { hooks: [hook] }));

  it('a command hook must say unsandboxed: true, name a tool protocol and list its seams', () => {
    expect(load({ name: 'x', command: 'true', protocol: 'claude-code', seams: ['tools/pre-execute'] })).toThrow(/hooks\[0\]\.unsandboxed: a "command" hook runs outside the sandbox/);
    expect(load({ name: 'x', command: 'true', unsandboxed: true, seams: ['tools/pre-execute'] })).toThrow(/hooks\[0\]\.protocol: a "command" hook needs "protocol"/);
    expect(load({ name: 'x', command: 'true', unsandboxed: true, protocol: 1, seams: ['tools/pre-execute'] })).toThrow(/hooks\[0\]\.protocol/);
    expect(load({ name: 'x', command: 'true', unsandboxed: true, protocol: 'codex' })).toThrow(/hooks\[0\]\.seams: a "command" hook must list the seams/);
    expect(load({ name: 'x', command: 'true', unsandboxed: true, protocol: 'codex', seams: ['tools/pre-execute'], memoryMb: 8 })).toThrow(/hooks\[0\]\.memoryMb: applies to wasm hooks only/);
    expect(load({ name: 'x', wasm: 'a.wasm', unsandboxed: true })).toThrow(/hooks\[0\]\.unsandboxed: only a "command" hook runs unsandboxed/);
    expect(load({ name: 'x', wasm: 'a.wasm', command: 'true' })).toThrow(/exactly one of "wasm".*"manifest".*"command"/);
    expect(load({ name: 'x', wasm: 'a.wasm', protocol: 'gemini' })).toThrow(/hooks\[0\]\.protocol: expected 1 \(the hookbox wire\), "claude-code" or "codex"/);
  });

  it('a manifest declares its protocol; the runner spec carries it, and an operator entry may not contradict it', async () => {
    const manifest = { name: 'cc', version: '1.0.0', protocol: 'claude-code', wasm: 'cc.wasm', sha256: 'a'.repeat(64), seams: ['tools/pre-execute'] };
    const file = write('hook.json', manifest);
    expect(loadHookFile(file).codec?.name).toBe('claude-code');
    expect(loadHookFile(write('plain.json', { ...manifest, protocol: 1 })).codec).toBeUndefined();
    const config = write('c2.json', { hooks: [{ name: 'cc', manifest: 'hook.json', protocol: 'codex' }] });
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    try {
      await expect(loadHooks(loadOperatorConfig(config), runner)).rejects.toThrow(
        /hooks\[0\]\.protocol: "codex" but the manifest .*hook\.json declares "claude-code"/,
      );
    } finally {
      await runner.close();
    }
  });
});
