/**
 * The continuation cap for subagents: Claude Code 2.1.328 and Copilot CLI
 * 1.0.102 keep a subagent going for as long as a SubagentStop hook answers
 * "block" (measured: Copilot 822 rounds in two minutes, `stop_hook_active`
 * true from the second on), so `hookbox serve` caps a subagent's forced
 * continuations at `maxContinuations`, as it caps a turn's — through the
 * real claude-code and copilot bridges, a real SeamBus and session log, and
 * across processes (no server: each event its own process, the count read
 * back from the log).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_BRIDGES } from '../../host/agents/index.ts';
import { SeamBus } from '../../host/events/index.ts';
import { type DeciderOptions, SessionTable, decideAgentEvent } from '../../host/serve/index.ts';
import { scriptedHook } from '../helpers/scripted-hook.ts';

const CC = { session_id: 'cap-session', transcript_path: '/tmp/t.jsonl', cwd: '/work/proj', hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'general-purpose' };
const COPILOT = { sessionId: 'cap-session', timestamp: 1796675466370, cwd: '/work/proj', agentId: 'a1', agentType: 'general-purpose', response: 'done' };

let logDir: string;
let options: DeciderOptions;
let sessions: SessionTable;

function fresh(): SessionTable {
  return new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir });
}

beforeEach(() => {
  logDir = mkdtempSync(path.join(tmpdir(), 'hookbox-subagent-cap-'));
  sessions = fresh();
  const bus = new SeamBus();
  // A hook that always sends the subagent on.
  bus.use(scriptedHook(() => ({ 'agent/subagent-stop': () => ({ action: 'continue', reason: 'again' }) })));
  options = { bus, sessions, maxContinuations: 2 };
});
afterEach(() => {
  sessions.closeAll();
  rmSync(logDir, { recursive: true, force: true });
});

describe('a subagent forced on by a hook is capped at maxContinuations', () => {
  it('claude-code: continue, continue, then stop (the cap) — the agent\'s stop_hook_active marks the rounds after the first', async () => {
    const words: string[] = [];
    for (const active of [false, true, true, true]) words.push((await decideAgentEvent(AGENT_BRIDGES['claude-code'], { ...CC, stop_hook_active: active }, options)).decision);
    expect(words).toEqual(['continue', 'continue', 'stop (cap)', 'stop (cap)']);
  });

  it('copilot: the same through its own format', async () => {
    const bridge = AGENT_BRIDGES.copilot;
    const words: string[] = [];
    for (const active of [false, true, true]) words.push((await decideAgentEvent(bridge, { ...COPILOT, stop_hook_active: active }, options, 'subagentStop')).decision);
    expect(words).toEqual(['continue', 'continue', 'stop (cap)']);
  });

  it('a new subagent run (stop_hook_active false) starts a new count', async () => {
    const bridge = AGENT_BRIDGES['claude-code'];
    for (const active of [false, true, true]) await decideAgentEvent(bridge, { ...CC, stop_hook_active: active }, options);
    expect((await decideAgentEvent(bridge, { ...CC, agent_id: 'a2', stop_hook_active: false }, options)).decision).toBe('continue');
  });

  it('without a server (each event a new process), the count is read back from the session log', async () => {
    const bridge = AGENT_BRIDGES['claude-code'];
    const words: string[] = [];
    for (const active of [false, true, true]) {
      // A new session table per event: nothing in memory carries over, only the log.
      sessions.closeAll();
      sessions = fresh();
      words.push((await decideAgentEvent(bridge, { ...CC, stop_hook_active: active }, { ...options, sessions })).decision);
    }
    expect(words).toEqual(['continue', 'continue', 'stop (cap)']);
  });

  it('the hook is told how many times the subagent was already sent on', async () => {
    const seen: unknown[] = [];
    const bus = new SeamBus();
    bus.use(scriptedHook(() => ({ 'agent/subagent-stop': (payload: unknown) => (seen.push(payload), { action: 'continue' }) })));
    for (const active of [false, true]) await decideAgentEvent(AGENT_BRIDGES['claude-code'], { ...CC, stop_hook_active: active }, { ...options, bus });
    expect(seen.map((payload) => (payload as { continuations: number }).continuations)).toEqual([0, 1]);
  });
});
