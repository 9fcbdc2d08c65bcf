/**
 * The way back of a pre-tool rewrite in the agents besides Claude Code's
 * family (docs/rfc-tool-input-rewrite.md, "Every agent: the mapping"): each
 * real bridge, fed its agent's own event JSON, decided by `serve`'s decider
 * over a real SeamBus with native rewriting hooks. Exact: the agent's whole
 * input comes back with the rewritten keys and every other key it sent;
 * anything else is a deny naming the rewrite (`unappliedRewriteText`) and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentBridge, clineBridge, copilotBridge, geminiBridge } from '../../host/agents/index.ts';
import { kiloBridge } from '../../host/agents/kilo/bridge.ts';
import { openCodeBridge } from '../../host/agents/opencode/bridge.ts';
import { piBridge } from '../../host/agents/pi/bridge.ts';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import { SessionTable, decideAgentEvent } from '../../host/serve/index.ts';

const CWD = '/work/project';
const UNAPPLIED = 'a hookbox hook rewrote this call and the rewrite could not be applied in';
let logDir: string;
let sessions: SessionTable;
beforeEach(() => {
  logDir = mkdtempSync(path.join(tmpdir(), 'hookbox-rewrite-back-'));
  sessions = new SessionTable({ maxSessions: 8, idleMs: 60_000, logDir });
});
afterEach(() => {
  sessions.closeAll();
  rmSync(logDir, { recursive: true, force: true });
});

/** Rewrites a bash `echo A` into `echo B`, any written `AAA` into `BBB`, a path `a.txt` into `b.txt`, a glob or find `*.md` into `*.txt`. */
const rewriter = nativeHook({
  name: 'rewriter',
  handlers: {
    'tools/pre-execute': ({ toolName, arguments: args }) => {
      const swap = (key: string, from: string, to: string) =>
        typeof args[key] === 'string' && (args[key] as string).includes(from) ? { action: 'allow' as const, arguments: { ...args, [key]: (args[key] as string).replace(from, to) } } : undefined;
      if (toolName === 'bash') return swap('command', 'echo A', 'echo B') ?? NO_OPINION;
      if (toolName === 'glob' || toolName === 'find') return swap('pattern', '*.md', '*.txt') ?? NO_OPINION;
      return swap('content', 'AAA', 'BBB') ?? swap('path', 'a.txt', 'b.txt') ?? NO_OPINION;
    },
  },
});

async function answer(bridge: AgentBridge, event: Record<string, unknown>, named?: string): Promise<unknown> {
  const bus = new SeamBus();
  bus.use(rewriter);
  const decided = await decideAgentEvent(bridge, event, { bus, sessions, maxContinuations: 2 }, named);
  expect(decided.answer.exitCode, decided.answer.stderr).toBe(0);
  return decided.answer.stdout === '' ? {} : JSON.parse(decided.answer.stdout);
}

const gemini = (tool_name: string, tool_input: Record<string, unknown>) =>
  answer(geminiBridge, { session_id: 's-gemini', cwd: CWD, hook_event_name: 'BeforeTool', timestamp: '2026-12-07T00:00:00Z', transcript_path: '', tool_name, tool_input });
const copilot = (toolName: string, toolArgs: Record<string, unknown>) => answer(copilotBridge, { sessionId: 's-copilot', timestamp: 1796282899700, cwd: CWD, toolName, toolArgs }, 'preToolUse');
const plugin = (bridge: AgentBridge, event: string, tool_name: string, input: Record<string, unknown>) =>
  answer(bridge, { session_id: `s-${bridge.name}`, cwd: CWD, hook_event_name: event, tool_name, tool_call_id: 'c1', input });

describe('the way back of a rewrite: exact', () => {
  it('Gemini CLI: tool_input carries the whole input, the keys hookbox does not read kept; an absolute path stays absolute', async () => {
    expect(await gemini('run_shell_command', { command: 'echo A > out.txt', description: 'write A', dir_path: 'sub' })).toStrictEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'echo B > out.txt', description: 'write A', dir_path: 'sub' } },
    });
    expect(await gemini('write_file', { file_path: `${CWD}/a.txt`, content: 'x' })).toStrictEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { file_path: `${CWD}/b.txt`, content: 'x' } },
    });
    // An edit's path is exact (its old/new strings untouched).
    expect(await gemini('replace', { file_path: `${CWD}/a.txt`, instruction: 'i', old_string: 'o', new_string: 'n' })).toStrictEqual({
      hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { file_path: `${CWD}/b.txt`, instruction: 'i', old_string: 'o', new_string: 'n' } },
    });
  });

  it('Copilot CLI: modifiedArgs, with no permissionDecision (an allow stays "no objection")', async () => {
    expect(await copilot('bash', { command: 'echo A > out.txt', description: 'step', mode: 'sync' })).toStrictEqual({
      modifiedArgs: { command: 'echo B > out.txt', description: 'step', mode: 'sync' },
    });
    expect(await copilot('create', { path: `${CWD}/notes.md`, file_text: 'AAA' })).toStrictEqual({ modifiedArgs: { path: `${CWD}/notes.md`, file_text: 'BBB' } });
  });

  it('OpenCode, Kilo CLI and pi: the plugin answer {args} is the whole input', async () => {
    expect(await plugin(openCodeBridge, 'tool.execute.before', 'bash', { command: 'echo A > out.txt', description: 'd', timeout: 5 })).toStrictEqual({
      args: { command: 'echo B > out.txt', description: 'd', timeout: 5 },
    });
    expect(await plugin(kiloBridge, 'tool.execute.before', 'write', { filePath: `${CWD}/a.txt`, content: 'x' })).toStrictEqual({ args: { filePath: `${CWD}/b.txt`, content: 'x' } });
    expect(await plugin(piBridge, 'tool_call', 'bash', { command: 'echo A > out.txt', timeout: 9 })).toStrictEqual({ args: { command: 'echo B > out.txt', timeout: 9 } });
    expect(await plugin(piBridge, 'tool_call', 'read', { path: 'a.txt', offset: 2 })).toStrictEqual({ args: { path: `${CWD}/b.txt`, offset: 2 } }); // a changed path goes back absolute
  });
});

describe('the way back of a rewrite: not exact, or no field — a deny naming the rewrite and why', () => {
  it('an edit whose new text is rewritten (old/new strings), in every agent that has one', async () => {
    const edits: [string, Promise<unknown>][] = [
      ['Gemini CLI', gemini('replace', { file_path: `${CWD}/n.txt`, instruction: 'i', old_string: 'old', new_string: 'AAA' })],
      ['Copilot CLI', copilot('edit', { path: `${CWD}/n.txt`, old_str: 'old', new_str: 'AAA' })],
      ['OpenCode', plugin(openCodeBridge, 'tool.execute.before', 'edit', { filePath: `${CWD}/n.txt`, oldString: 'old', newString: 'AAA' })],
      ['pi', plugin(piBridge, 'tool_call', 'edit', { path: 'n.txt', edits: [{ oldText: 'old', newText: 'AAA' }] })],
    ];
    for (const [agent, answered] of edits) {
      const text = JSON.stringify(await answered);
      expect(text, agent).toContain(`${UNAPPLIED} ${agent}`);
      expect(text, agent).toContain('takes old and new strings');
      expect(text, agent).not.toMatch(/tool_input|modifiedArgs|"args"/);
    }
  });

  it('a tool hookbox passes under its own name takes no rewrite (Gemini glob, pi find)', async () => {
    expect(JSON.stringify(await gemini('glob', { pattern: '*.md' }))).toContain(`${UNAPPLIED} Gemini CLI`);
    expect(await plugin(piBridge, 'tool_call', 'find', { pattern: '*.md' })).toStrictEqual({ deny: expect.stringContaining(`${UNAPPLIED} pi`) });
  });

  it('Cline CLI has no rewrite field: every rewrite is a deny', async () => {
    const event = {
      clineVersion: '',
      timestamp: '2026-12-07T18:17:14.833Z',
      taskId: 'conv_1',
      workspaceRoots: [CWD],
      hookName: 'tool_call',
      iteration: 1,
      tool_call: { id: 'call_0_0', name: 'run_commands', input: { commands: ['echo A > out.txt'] } },
      preToolUse: { toolName: 'run_commands', parameters: { commands: '["echo A > out.txt"]' } },
    };
    const text = JSON.stringify(await answer(clineBridge, event, 'PreToolUse'));
    expect(text).toContain(`${UNAPPLIED} Cline CLI`);
    expect(text).toContain('echo B > out.txt');
    expect(clineBridge.rewriteBack).toBeUndefined();
  });
});
