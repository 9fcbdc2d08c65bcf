/**
 * The Gemini CLI bridge through its real API, compared whole: each tool row
 * (Gemini's call → the hookbox call hooks decide on), each tool response →
 * hookbox's result, each event → its seam call, each decision → the answer
 * Gemini reads, the closed forms, the doctor probe; and `hookbox setup
 * gemini` writing `.gemini/settings.json` into a real temp project
 * (idempotent, `--remove` exact, a user's entry kept, a broken file refused),
 * with folder trust read from a real `trustedFolders.json` in a temp
 * `$GEMINI_CLI_HOME`.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSeamEvent, SetupScope } from '../../host/agents/agent-bridge.ts';
import { agentAnswerTimeoutMs, hookClientDeadlineMs } from '../../host/agents/answer-deadline.ts';
import { CONTINUE_REASON, NO_OPINION, WITHHELD_OUTPUT, toolCallIdFromCall } from '../../host/agents/bridge-parts.ts';
import { geminiBridge as gemini } from '../../host/agents/gemini/bridge.ts';
import { geminiFolderTrusted, geminiHome, geminiSetup, geminiTrustedFoldersFile } from '../../host/agents/gemini/setup.ts';
import { fromGeminiTool, fromGeminiToolResponse } from '../../host/agents/gemini/tools.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const CWD = '/work/app';
const FLAG = { _hookbox: { unmappedTool: true } };

describe('Gemini CLI tool calls → hookbox tool calls', () => {
  it.each([
    ['run_shell_command', { command: 'ls', description: 'd', dir_path: CWD }, { toolName: 'bash', arguments: { command: 'ls' } }],
    // A mapped tool of an unexpected shape keeps Gemini's name, flagged.
    ['run_shell_command', { command: 5 }, { toolName: 'run_shell_command', arguments: { command: 5, ...FLAG } }],
    ['read_file', { absolute_path: `${CWD}/src/a.ts` }, { toolName: 'read_file', arguments: { path: 'src/a.ts' } }],
    ['read_file', { path: '/etc/passwd' }, { toolName: 'read_file', arguments: { path: '/etc/passwd' } }],
    ['read_file', { file_path: `${CWD}/a`, path: '/etc/passwd' }, { toolName: 'read_file', arguments: { path: 'a' } }],
    // `path` is read too: a write inside the cwd under it becomes relative, as every mapped path does.
    ['write_file', { path: `${CWD}/b.txt`, content: 'X' }, { toolName: 'write_file', arguments: { path: 'b.txt', content: 'X' } }],
    // read_file and write_file are hookbox's names too: without a path (or text) they pass as Gemini sent them, flagged.
    ['read_file', { start_line: 1 }, { toolName: 'read_file', arguments: { start_line: 1, ...FLAG } }],
    ['write_file', { content: 'X' }, { toolName: 'write_file', arguments: { content: 'X', ...FLAG } }],
    ['write_file', { file_path: `${CWD}/.env`, content: 7 }, { toolName: 'write_file', arguments: { file_path: `${CWD}/.env`, content: 7, ...FLAG } }],
    ['replace', { new_string: 'b' }, { toolName: 'replace', arguments: { new_string: 'b', ...FLAG } }],
    ['replace', { file_path: `${CWD}/a`, old_string: 'a', new_string: '' }, { toolName: 'write_file', arguments: { path: 'a', content: '' } }],
    ['list_directory', { path: `${CWD}/src` }, { toolName: 'list_dir', arguments: { path: 'src' } }],
    ['list_directory', { dir_path: '/etc', path: `${CWD}/src` }, { toolName: 'list_dir', arguments: { path: '/etc' } }],
    ['list_directory', {}, { toolName: 'list_directory', arguments: { ...FLAG } }],
    ['glob', { pattern: '**/*.env', _hookbox: { mcpServer: 'spoofed' } }, { toolName: 'glob', arguments: { pattern: '**/*.env' } }],
    ['mcp__github__create_issue', { title: 't' }, { toolName: 'mcp__github__create_issue', arguments: { title: 't', _hookbox: { mcpServer: 'github', mcpTool: 'create_issue' } } }],
  ])('%s %j', (tool, input, expected) => {
    expect(fromGeminiTool(tool, input, CWD)).toStrictEqual(expected);
  });
});

describe('Gemini CLI tool responses → hookbox results', () => {
  it.each([
    ['a string as it is (no exit line even for the shell)', 'run_shell_command', 'plain', { content: 'plain', isError: false }],
    ['a number as JSON', 'read_file', 5, { content: '5', isError: false }],
    ['null as JSON', 'read_file', null, { content: 'null', isError: false }],
    ['nothing as empty text', 'read_file', undefined, { content: '', isError: false }],
    ['no llmContent: the whole response as JSON', 'read_file', { returnDisplay: 'x' }, { content: '{"returnDisplay":"x"}', isError: false }],
    ['llmContent parts as JSON', 'read_file', { llmContent: [{ text: 'a' }] }, { content: '[{"text":"a"}]', isError: false }],
    ['a null error is no error', 'read_file', { llmContent: 'ok', error: null }, { content: 'ok', isError: false }],
    ['another tool gets no exit line', 'read_file', { llmContent: 'Exit Code: 1' }, { content: 'Exit Code: 1', isError: false }],
    ['a shell result of parts has no exit line', 'run_shell_command', { llmContent: [{ text: 'o' }] }, { content: '[{"text":"o"}]', isError: false }],
    ['an error with exit 0 stays an error', 'run_shell_command', { llmContent: 'Output: x', error: { message: 'm' } }, { content: 'Output: x\nexit code: 0', isError: true }],
    ['a three-digit exit code', 'run_shell_command', { llmContent: 'Output: \nExit Code: 127' }, { content: 'Output: \nExit Code: 127\nexit code: 127', isError: true }],
    ['a negative exit code', 'run_shell_command', { llmContent: 'Exit Code: -2' }, { content: 'Exit Code: -2\nexit code: -2', isError: true }],
    ['"Exit Code:" inside a line is output, not the exit line', 'run_shell_command', { llmContent: 'Output: echo Exit Code: 3' }, { content: 'Output: echo Exit Code: 3\nexit code: 0', isError: false }],
    ['"Exit Code: N" followed by more on its line is output', 'run_shell_command', { llmContent: 'Exit Code: 3 (fake)' }, { content: 'Exit Code: 3 (fake)\nexit code: 0', isError: false }],
    ['"Error:" inside a line is output', 'run_shell_command', { llmContent: 'Output: grep Error: none' }, { content: 'Output: grep Error: none\nexit code: 0', isError: false }],
    ['an Error: line means no exit code', 'run_shell_command', { llmContent: 'Output: \nError: spawn failed' }, { content: 'Output: \nError: spawn failed', isError: false }],
  ])('%s', (_name, tool, response, expected) => {
    expect(fromGeminiToolResponse(tool, response)).toStrictEqual(expected);
  });
});

const base = { session_id: 's-1', transcript_path: '/h/.gemini/tmp/chats/s.json', cwd: CWD, timestamp: '2026-12-01T06:32:53.469Z' };

function seamOf(input: Record<string, unknown>): AgentSeamEvent {
  const parsed = gemini.toSeam({ ...base, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam call, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

describe('Gemini CLI events → seam calls', () => {
  it('SessionStart, BeforeAgent and AfterAgent, whole', () => {
    expect(gemini.toSeam({ ...base, hook_event_name: 'SessionStart', source: 'resume' })).toStrictEqual({
      kind: 'seam',
      event: { event: 'SessionStart', sessionId: 's-1', cwd: CWD, seam: 'agent/session-start', payload: { source: 'resume' } },
    });
    expect(seamOf({ hook_event_name: 'BeforeAgent', prompt: 'go' })).toStrictEqual({ event: 'BeforeAgent', sessionId: 's-1', cwd: CWD, seam: 'agent/prompt-submit', payload: { content: 'go', source: 'api' } });
    expect(seamOf({ hook_event_name: 'AfterAgent', prompt_response: 'done' })).toStrictEqual({
      event: 'AfterAgent',
      sessionId: 's-1',
      cwd: CWD,
      seam: 'agent/turn-continuation',
      payload: { continuations: 0, lastAssistantText: 'done' },
      alreadyContinued: false,
    });
  });

  it('BeforeTool and AfterTool carry the mapped call under one id derived from Gemini\'s call', () => {
    const toolInput = { file_path: `${CWD}/.env`, content: 'K=1' };
    const id = toolCallIdFromCall('gemini', 'write_file', toolInput);
    expect(seamOf({ hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: toolInput })).toStrictEqual({
      event: 'BeforeTool',
      sessionId: 's-1',
      cwd: CWD,
      seam: 'tools/pre-execute',
      payload: { toolCallId: id, toolName: 'write_file', arguments: { path: '.env', content: 'K=1' } },
      agentCall: { toolName: 'write_file', input: toolInput },
    });
    expect(seamOf({ hook_event_name: 'AfterTool', tool_name: 'write_file', tool_input: toolInput, tool_response: { llmContent: 'written', error: 'disk full' } })).toStrictEqual({
      event: 'AfterTool',
      sessionId: 's-1',
      cwd: CWD,
      seam: 'tools/post-execute',
      payload: { toolCallId: id, toolName: 'write_file', arguments: { path: '.env', content: 'K=1' }, result: { content: 'written', isError: true } },
    });
  });

  it('the doctor probe is a BeforeTool for the shell running `true`, which the bridge reads', () => {
    const probe = gemini.probe.event('/p');
    expect(probe).toStrictEqual({
      session_id: 'hookbox-doctor-probe',
      transcript_path: null,
      cwd: '/p',
      hook_event_name: 'BeforeTool',
      permission_mode: 'default',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      tool_name: 'run_shell_command',
      tool_input: { command: 'true' },
    });
    expect(gemini.toSeam(probe)).toMatchObject({ kind: 'seam', event: { seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'true' } } } });
  });
});

describe('seam decisions → Gemini CLI answers', () => {
  const json = (value: unknown) => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });
  const answer = <S extends SeamId>(event: AgentSeamEvent, decision: DecisionOf<S>) => gemini.answer(event as AgentSeamEvent<S>, decision);
  let pre: AgentSeamEvent;
  let post: AgentSeamEvent;
  let prompt: AgentSeamEvent;
  let stop: AgentSeamEvent;
  let start: AgentSeamEvent;
  beforeEach(() => {
    pre = seamOf({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'x' } });
    post = seamOf({ hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'x' }, tool_response: { llmContent: 'o' } });
    prompt = seamOf({ hook_event_name: 'BeforeAgent', prompt: 'p' });
    stop = seamOf({ hook_event_name: 'AfterAgent' });
    start = seamOf({ hook_event_name: 'SessionStart' });
  });

  it('session start: context as hookSpecificOutput, none as no answer', () => {
    expect(answer(start, { additionalContext: 'ctx' })).toStrictEqual(json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } }));
    expect(answer(start, {})).toStrictEqual(NO_OPINION);
  });

  it('prompt: allow without context is no answer', () => {
    expect(answer(prompt, { action: 'allow' })).toStrictEqual(NO_OPINION);
    expect(answer(prompt, { action: 'block', reason: 'no' })).toStrictEqual(json({ decision: 'deny', reason: 'no' }));
  });

  it('pre-tool: deny on one line; ask without a reason is a deny that says why', () => {
    expect(answer(pre, { action: 'deny', reason: 'a\nb' })).toStrictEqual(json({ decision: 'deny', reason: 'a\\nb' }));
    expect(answer(pre, { action: 'ask' })).toStrictEqual(
      json({ decision: 'deny', reason: 'a hookbox hook asks for confirmation, which a Gemini CLI hook cannot request, so the call is denied' }),
    );
    expect(answer(pre, { action: 'ask', reason: 'sure?' })).toStrictEqual(
      json({ decision: 'deny', reason: 'a hookbox hook asks for confirmation, which a Gemini CLI hook cannot request, so the call is denied: sure?' }),
    );
  });

  it('post-tool: replaced content keeps its lines; empty content is withheld; nothing to say is no answer', () => {
    expect(answer(post, { action: 'accept', content: 'line 1\nline 2' })).toStrictEqual(json({ decision: 'deny', reason: 'line 1\nline 2' }));
    expect(answer(post, { action: 'accept', content: '' })).toStrictEqual(json({ decision: 'deny', reason: WITHHELD_OUTPUT }));
    // Emptied output with context after it: the model is still told its output was withheld.
    expect(answer(post, { action: 'accept', content: '', additionalContext: 'ctx' })).toStrictEqual(json({ decision: 'deny', reason: `${WITHHELD_OUTPUT}\n\nctx` }));
    expect(answer(post, { action: 'accept' })).toStrictEqual(NO_OPINION);
    expect(answer(post, { action: 'block', reason: 'secret\nhere' })).toStrictEqual(json({ decision: 'deny', reason: 'secret\\nhere' }));
  });

  it('turn continuation: continue without a reason gets hookbox\'s', () => {
    expect(answer(stop, { action: 'continue' })).toStrictEqual(json({ decision: 'deny', reason: CONTINUE_REASON }));
    expect(answer(stop, { action: 'stop' })).toStrictEqual(NO_OPINION);
  });

  it('fails closed per event, whole; an event it does not name gets exit 2', () => {
    for (const event of ['BeforeTool', 'BeforeAgent', 'AfterTool']) expect(gemini.failClosed(event, 'down'), event).toStrictEqual(json({ decision: 'deny', reason: 'hookbox: down' }));
    for (const event of ['AfterAgent', 'SessionStart']) expect(gemini.failClosed(event, 'down'), event).toStrictEqual(NO_OPINION);
    expect(gemini.failClosed('BeforeModel', 'down')).toStrictEqual({ exitCode: 2, stdout: '', stderr: 'hookbox: down\n' });
  });

  it('says what it can replace: a tool result, never a prompt', () => {
    expect(gemini.canReplace).toStrictEqual({ prompt: false, toolResult: true });
  });
});

describe('gemini setup: settings, trust and doctor in a temp GEMINI_CLI_HOME', () => {
  const COMMAND = "sh '/opt/hookbox/host/cli/hookbox-hook.sh' 'gemini' '--deadline-ms' '25000'";
  let workspace: TestWorkspace;
  let saved: Record<string, string | undefined>;
  let home: string;
  let project: string;
  beforeEach(() => {
    workspace = makeWorkspace('hookbox-gemini-setup-');
    saved = { GEMINI_CLI_HOME: process.env.GEMINI_CLI_HOME, GEMINI_CLI_TRUST_WORKSPACE: process.env.GEMINI_CLI_TRUST_WORKSPACE };
    home = join(workspace.dir, 'gemini-home');
    project = join(workspace.dir, 'proj');
    mkdirSync(project);
    process.env.GEMINI_CLI_HOME = home;
    delete process.env.GEMINI_CLI_TRUST_WORKSPACE;
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    workspace.dispose();
  });

  const trust = (rules: unknown) => {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), typeof rules === 'string' ? rules : JSON.stringify(rules));
  };

  it('$GEMINI_CLI_HOME moves the user settings and the trust file; unset or empty, the home folder', () => {
    expect(geminiSetup.settingsPath({ kind: 'user', home: '/h' })).toBe(join(home, '.gemini', 'settings.json'));
    expect(geminiTrustedFoldersFile()).toBe(join(home, '.gemini', 'trustedFolders.json'));
    process.env.GEMINI_CLI_HOME = 'rel/gem';
    expect(geminiHome('/h')).toBe(join(process.cwd(), 'rel', 'gem'));
    process.env.GEMINI_CLI_HOME = '';
    expect(geminiHome('/h')).toBe('/h');
    delete process.env.GEMINI_CLI_HOME;
    expect(geminiSetup.settingsPath({ kind: 'user', home: '/h' })).toBe('/h/.gemini/settings.json');
  });

  it('folder trust: no file, a broken one or one that is no object trusts nothing', () => {
    expect(geminiFolderTrusted(project)).toBe(false);
    for (const text of ['{not json', 'null', '5', '"x"']) {
      trust(text);
      expect(geminiFolderTrusted(project), text).toBe(false);
    }
  });

  it.each([
    ['the folder itself', (p: string) => ({ [p]: 'TRUST_FOLDER' }), true],
    ['a parent folder', (p: string) => ({ [dirname(p)]: 'TRUST_FOLDER' }), true],
    ['a parent written with a trailing separator', (p: string) => ({ [`${dirname(p)}/`]: 'TRUST_FOLDER' }), true],
    ['TRUST_PARENT on a folder inside it', (p: string) => ({ [join(p, 'sub')]: 'TRUST_PARENT' }), true],
    ['DO_NOT_TRUST', (p: string) => ({ [p]: 'DO_NOT_TRUST' }), false],
    ['a trusted subfolder does not trust its parent', (p: string) => ({ [join(p, 'sub')]: 'TRUST_FOLDER' }), false],
    ['a sibling whose name is the start of the folder\'s', (p: string) => ({ [p.slice(0, -1)]: 'TRUST_FOLDER' }), false],
    ['the longest rule wins: distrusted inside a trusted parent', (p: string) => ({ [dirname(p)]: 'TRUST_FOLDER', [p]: 'DO_NOT_TRUST' }), false],
    ['the longest rule wins: trusted inside a distrusted parent', (p: string) => ({ [p]: 'TRUST_FOLDER', [dirname(p)]: 'DO_NOT_TRUST' }), true],
    ['a longer rule elsewhere does not count', (p: string) => ({ [p]: 'TRUST_FOLDER', '/somewhere/else/entirely/much/longer/than/it': 'DO_NOT_TRUST' }), true],
  ])('folder trust: %s', (_name, rules, trusted) => {
    trust(rules(project));
    expect(geminiFolderTrusted(project)).toBe(trusted);
  });

  it('setup notes an untrusted project folder; nothing when trusted, removing or for the user', () => {
    const context = { scope: { kind: 'project', dir: project } as SetupScope, settingsFile: '', before: {}, after: {}, removing: false };
    expect(geminiSetup.finish!(context)).toStrictEqual({
      changes: [],
      notes: [
        `Gemini CLI runs a project's hooks only in a trusted folder, and ${project} is not in ${join(home, '.gemini', 'trustedFolders.json')}: open gemini there once and trust it, or add "${project}": "TRUST_FOLDER" to that file (headless runs may set GEMINI_CLI_TRUST_WORKSPACE=true instead)`,
      ],
    });
    expect(geminiSetup.finish!({ ...context, removing: true })).toStrictEqual({ changes: [], notes: [] });
    expect(geminiSetup.finish!({ ...context, scope: { kind: 'user', home: project } })).toStrictEqual({ changes: [], notes: [] });
    trust({ [project]: 'TRUST_FOLDER' });
    expect(geminiSetup.finish!(context)).toStrictEqual({ changes: [], notes: [] });
  });

  it('doctor: an untrusted folder is a finding with its fix; trusted by the file or by the environment is fine', () => {
    const file = join(home, '.gemini', 'trustedFolders.json');
    const verify = (scope: SetupScope) => geminiSetup.verify!({ scope, settingsFile: '', settings: {} });
    expect(verify({ kind: 'user', home: project })).toStrictEqual([]);
    expect(verify({ kind: 'project', dir: project })).toStrictEqual([
      {
        ok: false,
        what: `folder ${project} is not trusted: Gemini CLI loads no hooks there (headless, it refuses to start)`,
        fix: `open gemini in ${project} once and trust it, or add "${project}": "TRUST_FOLDER" to ${file}`,
      },
    ]);
    process.env.GEMINI_CLI_TRUST_WORKSPACE = 'yes';
    expect(verify({ kind: 'project', dir: project })[0]!.ok).toBe(false);
    process.env.GEMINI_CLI_TRUST_WORKSPACE = 'true';
    expect(verify({ kind: 'project', dir: project })).toStrictEqual([{ ok: true, what: `folder ${project} trusted through GEMINI_CLI_TRUST_WORKSPACE=true (this environment only)` }]);
    trust({ [project]: 'TRUST_FOLDER' });
    expect(verify({ kind: 'project', dir: project })).toStrictEqual([{ ok: true, what: `folder ${project} trusted in ${file}` }]);
  });

  it('apply: the default timeout is 30 s in ms; each change names its handler; a null handler and a user entry stay', () => {
    const settings = { hooks: { AfterTool: [{ hooks: [null, { type: 'command', command: 'hookbox hook claude-code' }] }] } };
    const edit = geminiSetup.apply(settings, { kind: 'command', command: COMMAND });
    const ours = { hooks: [{ type: 'command', name: 'hookbox', command: COMMAND, timeout: 30_000 }] };
    expect(edit.settings).toStrictEqual({
      hooks: { AfterTool: [settings.hooks.AfterTool[0], ours], SessionStart: [ours], BeforeAgent: [ours], BeforeTool: [ours], AfterAgent: [ours], SessionEnd: [ours], PreCompress: [ours], Notification: [ours] },
    });
    const what = `command ${COMMAND} (timeout 30000 ms)`;
    expect(edit.changes).toStrictEqual([
      { action: 'added', where: 'hooks.SessionStart[0]', what },
      { action: 'added', where: 'hooks.BeforeAgent[0]', what },
      { action: 'added', where: 'hooks.BeforeTool[0]', what },
      { action: 'added', where: 'hooks.AfterTool[1]', what },
      { action: 'added', where: 'hooks.AfterAgent[0]', what },
      { action: 'added', where: 'hooks.SessionEnd[0]', what },
      { action: 'added', where: 'hooks.PreCompress[0]', what },
      { action: 'added', where: 'hooks.Notification[0]', what },
    ]);
    // Removed in the file's order, each at its group's index.
    expect(geminiSetup.remove(edit.settings)).toStrictEqual({
      settings,
      changes: ['AfterTool[1]', 'SessionStart[0]', 'BeforeAgent[0]', 'BeforeTool[0]', 'AfterAgent[0]', 'SessionEnd[0]', 'PreCompress[0]', 'Notification[0]'].map((at) => ({ action: 'removed', where: `hooks.${at}`, what })),
    });
    expect(geminiSetup.unsupported('command')).toBeUndefined();
    expect(geminiSetup.unsupported('http')).toBe('Gemini CLI has no http hooks (command only); use --transport command');
    expect(() => geminiSetup.apply({}, { kind: 'http', url: 'http://127.0.0.1:1/hooks/gemini', headers: {} })).toThrow(new TypeError('Gemini CLI runs command hooks only'));
  });

  describe('hookbox setup gemini in a real project', () => {
    let settingsFile: string;
    let config: string;
    beforeEach(() => {
      settingsFile = join(project, '.gemini', 'settings.json');
      config = join(project, 'hookbox.config.json');
      writeFileSync(config, JSON.stringify({ hooks: [] }));
      // Installed in the project: the command names the project through $GEMINI_PROJECT_DIR.
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'hookbox'));
    });

    it('writes the settings with a user hook kept, changes nothing the second time, and --remove gives the user\'s file back', () => {
      const user = { ui: { theme: 'x' }, hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './mine.sh' }] }] } };
      mkdirSync(dirname(settingsFile));
      writeFileSync(settingsFile, JSON.stringify(user));
      const out: string[] = [];
      setupCommand('gemini', { project, config, transport: 'command', client: 'sh' }, (text) => out.push(text));
      const deadline = hookClientDeadlineMs({ hooks: [] });
      const command = `sh "$GEMINI_PROJECT_DIR/node_modules/hookbox/host/cli/hookbox-hook.sh" 'gemini' '--socket' '.hookbox/run/serve.sock' '--config' 'hookbox.config.json' '--deadline-ms' '${deadline}'`;
      const ours = { hooks: [{ type: 'command', name: 'hookbox', command, timeout: agentAnswerTimeoutMs({ hooks: [] }) }] };
      const written = readFileSync(settingsFile, 'utf8');
      expect(JSON.parse(written)).toStrictEqual({
        ui: { theme: 'x' },
        hooks: { BeforeTool: [user.hooks.BeforeTool[0], ours], SessionStart: [ours], BeforeAgent: [ours], AfterTool: [ours], AfterAgent: [ours], SessionEnd: [ours], PreCompress: [ours], Notification: [ours] },
      });
      expect(out[0]).toBe(`Gemini CLI settings ${settingsFile}: updated\n`);
      expect(out).toContain(`Gemini CLI runs a project's hooks only in a trusted folder, and ${project} is not in ${geminiTrustedFoldersFile()}: open gemini there once and trust it, or add "${project}": "TRUST_FOLDER" to that file (headless runs may set GEMINI_CLI_TRUST_WORKSPACE=true instead)\n`);

      const again: string[] = [];
      setupCommand('gemini', { project, config, transport: 'command', client: 'sh' }, (text) => again.push(text));
      expect(readFileSync(settingsFile, 'utf8')).toBe(written);
      expect(again[0]).toBe(`Gemini CLI settings ${settingsFile}: unchanged\n`);

      setupCommand('gemini', { project, remove: true }, () => {});
      expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toStrictEqual(user);
    });

    it('refuses settings whose hooks are not an object, and leaves the file as it was', () => {
      mkdirSync(dirname(settingsFile));
      writeFileSync(settingsFile, '{"hooks": []}');
      expect(() => setupCommand('gemini', { project, config, transport: 'command', client: 'sh' }, () => {})).toThrow(`${settingsFile}: hooks: expected an object of event → matcher groups`);
      expect(readFileSync(settingsFile, 'utf8')).toBe('{"hooks": []}');
    });
  });
});
