/**
 * A tool the agent's table does not list is decided under its raw name,
 * flagged in the arguments the session log records, and named in the
 * server's request log line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeBridge } from '../../host/agents/claude-code/bridge.ts';
import { SeamBus } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { decideAgentEvent } from '../../host/serve/decide.ts';
import { SessionTable } from '../../host/serve/session-table.ts';

describe('an unmapped tool at run time', () => {
  it('is logged with its raw name and the unmappedTool flag; a listed tool is not flagged', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hookbox-unmapped-'));
    const sessions = new SessionTable({ maxSessions: 2, idleMs: 60_000 });
    const pre = (tool_name: string, id: string) => ({ session_id: 's1', transcript_path: null, cwd, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name, tool_input: { x: 1 }, tool_use_id: id });
    try {
      const unknown = await decideAgentEvent(claudeCodeBridge, pre('Teleport', 't1'), { bus: new SeamBus(), sessions, maxContinuations: 3 });
      expect(unknown.decision).toBe('allow (unmapped tool Teleport)');
      const listed = await decideAgentEvent(claudeCodeBridge, pre('TaskList', 't2'), { bus: new SeamBus(), sessions, maxContinuations: 3 });
      expect(listed.decision).toBe('allow');
    } finally {
      sessions.closeAll();
    }
    const calls = readSessionLog(join(cwd, '.hookbox', 'sessions', 'claude-code-s1.jsonl')).events.filter((event) => event.type === 'tool/call');
    expect(calls.map((call) => [call.toolName, call.arguments])).toEqual([
      ['Teleport', { x: 1, _hookbox: { unmappedTool: true } }],
      ['TaskList', { x: 1 }],
    ]);
  });
});
