/**
 * hookbox's self-protection in each transport that has no agent binary of
 * its own in this file: `hookbox run` (the real bin, scripted model, no
 * config at all), the per-event client with no server (the in-process
 * decision of `hookbox hook claude-code`), and an SDK adapter's decider.
 * The real agents' cases are in claude-code.spec.ts, agent-codex.spec.ts
 * and agent-gemini.spec.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SdkDecider } from '../../host/sdk/sdk-decider.ts';
import { HOOKBOX_BIN } from '../helpers/real-agents.ts';

const DISABLE = `printf %s '{"disableAllHooks":true}' > .claude/settings.local.json`;
let project: string;

beforeEach(() => {
  project = mkdtempSync(path.join(tmpdir(), 'hookbox-self-protection-'));
  mkdirSync(path.join(project, '.claude'));
  writeFileSync(path.join(project, '.claude', 'settings.json'), '{}\n');
  writeFileSync(path.join(project, 'hookbox.config.json'), '{ "hooks": [] }\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('self-protection in every transport', () => {
  it('hookbox run, with no config: the self-disable and a write to .gemini/settings.json are denied, an ordinary write runs', () => {
    const script = {
      steps: [
        {
          toolCalls: [
            { id: 'c1', name: 'bash', arguments: { command: DISABLE } },
            { id: 'c2', name: 'write_file', arguments: { path: '.gemini/settings.json', content: '{}' } },
            { id: 'c3', name: 'bash', arguments: { command: 'echo ok > out.txt' } },
          ],
        },
        { text: 'done' },
      ],
    };
    writeFileSync(path.join(project, 'script.json'), JSON.stringify(script));
    const log = path.join(project, 'run.jsonl');
    const run = spawnSync(process.execPath, [HOOKBOX_BIN, 'run', '--script', 'script.json', '--cwd', project, '--log', log, 'go'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(path.join(project, '.claude', 'settings.local.json'))).toBe(false);
    expect(existsSync(path.join(project, '.gemini', 'settings.json'))).toBe(false);
    expect(readFileSync(path.join(project, 'out.txt'), 'utf8')).toBe('ok\n');
    const denied = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((event) => event.type === 'hook/invoke' && event.hook === 'hookbox/self-protection');
    expect(denied.map((event) => (event.applied as { action: string }).action)).toEqual(['deny', 'deny']);
  });

  it('the per-event client with no server (decided in-process): Claude Code is answered with a deny', () => {
    const event = {
      session_id: 'self-protect-1',
      transcript_path: path.join(project, 't.jsonl'),
      cwd: project,
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: DISABLE, description: 'x' },
      tool_use_id: 'toolu_1',
    };
    const socket = path.join(project, '.hookbox', 'run', 'serve.sock');
    const run = spawnSync(process.execPath, [HOOKBOX_BIN, 'hook', 'claude-code', '--config', path.join(project, 'hookbox.config.json'), '--socket', socket], {
      cwd: project,
      input: JSON.stringify(event),
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    expect(run.status, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('hookbox self-protection');
  });

  it('an SDK adapter (the decider every adapter shares): a tool naming .codex/hooks.json is denied, an ordinary call allowed', async () => {
    const decider = await SdkDecider.open({ name: 'test-sdk', label: 'a test SDK', canReplace: { prompt: true, toolResult: true } }, { config: path.join(project, 'hookbox.config.json'), cwd: project, sessionId: 's1' });
    try {
      const session = { id: 's1', cwd: project };
      const denied = await decider.preTool(session, { toolCallId: 'c1', toolName: 'saveFile', arguments: { target: '.codex/hooks.json', text: '{}' } });
      expect(denied).toMatchObject({ action: 'deny' });
      expect((denied as { reason: string }).reason).toContain('hookbox self-protection');
      expect(await decider.preTool(session, { toolCallId: 'c2', toolName: 'saveFile', arguments: { target: 'notes/today.md', text: 'x' } })).toMatchObject({ action: 'allow' });
    } finally {
      await decider.close();
    }
  });
});
