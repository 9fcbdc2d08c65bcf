/**
 * The lifecycle events of #51 in every bridge that maps them: each row is
 * an event as the real binary sent it to a logging hook headless against
 * the mock model (2026-12-07; trimmed of paths), the seam call hookbox
 * makes of it, and what the seam's decisions become in the agent's format.
 * The real-binary cases (claude-code.spec, agent-codex.spec,
 * agent-copilot.spec, agent-gemini.spec) prove the agents honour them.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_BRIDGES, type AgentSeamEvent } from '../../host/agents/index.ts';

const CC = { session_id: 'ae5550bb-b8c7-48eb-b8fb-8486cb785b4d', transcript_path: '/tmp/t.jsonl', cwd: '/work/proj' };
const QWEN = { ...CC, timestamp: '2026-12-07T20:31:49.243Z', permission_mode: 'yolo' };
const CODEX = { ...CC, turn_id: '01a25233-5bb8-7731-ba73-8ae0d7754f7c', model: 'gpt-5.5' };
const GEMINI = { ...CC, timestamp: '2026-12-07T20:31:02.216Z' };
const COPILOT = { sessionId: 'ca82e74d-3097-482b-ac37-ce3ac20d70d1', timestamp: 1796675466370, cwd: '/work/proj' };

type Agent = keyof typeof AGENT_BRIDGES;

/** agent, its event name, the event as measured, the seam and payload hookbox reads from it. */
const READ: readonly [Agent, string, Record<string, unknown>, string, Record<string, unknown>][] = [
  ['claude-code', 'SessionEnd', { ...CC, hook_event_name: 'SessionEnd', reason: 'other' }, 'agent/session-end', { reason: 'other' }],
  ['claude-code', 'SessionEnd', { ...CC, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }, 'agent/session-end', { reason: 'exit' }],
  ['claude-code', 'PreCompact', { ...CC, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null }, 'agent/pre-compact', { trigger: 'manual' }],
  ['claude-code', 'PreCompact', { ...CC, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the API notes' }, 'agent/pre-compact', { trigger: 'manual', instructions: 'keep the API notes' }],
  [
    'claude-code',
    'SubagentStart',
    { ...CC, hook_event_name: 'SubagentStart', prompt_id: '389a14d0', agent_id: 'a76a638b6882361b8', agent_type: 'general-purpose' },
    'agent/subagent-start',
    { agentType: 'general-purpose', agentId: 'a76a638b6882361b8' },
  ],
  [
    'claude-code',
    'SubagentStop',
    {
      ...CC,
      hook_event_name: 'SubagentStop',
      permission_mode: 'default',
      agent_id: 'a76a638b6882361b8',
      agent_type: 'general-purpose',
      stop_hook_active: false,
      agent_transcript_path: '/tmp/agent.jsonl',
      last_assistant_message: 'sub finished',
      background_tasks: [{ id: 'a76a638b6882361b8', type: 'subagent', status: 'running' }],
    },
    'agent/subagent-stop',
    { continuations: 0, agentId: 'a76a638b6882361b8', agentType: 'general-purpose', lastAssistantText: 'sub finished' },
  ],
  [
    'claude-code',
    'PermissionRequest',
    {
      ...CC,
      hook_event_name: 'PermissionRequest',
      permission_mode: 'default',
      tool_name: 'Write',
      tool_input: { file_path: '/work/proj/x.txt', content: 'hi' },
      permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    },
    'tools/permission-request',
    // Claude Code's absolute path, relative to the project as for PreToolUse.
    { toolName: 'write_file', arguments: { path: 'x.txt', content: 'hi' } },
  ],
  [
    'qwen',
    'Notification',
    { ...QWEN, hook_event_name: 'Notification', message: 'Successfully authenticated with openai', notification_type: 'auth_success', title: 'Authentication successful' },
    'agent/notification',
    { kind: 'auth', message: 'Successfully authenticated with openai', title: 'Authentication successful' },
  ],
  ['qwen', 'SubagentStart', { ...QWEN, hook_event_name: 'SubagentStart', agent_id: 'general-purpose-call_0_0', agent_type: 'general-purpose' }, 'agent/subagent-start', { agentType: 'general-purpose', agentId: 'general-purpose-call_0_0' }],
  [
    'qwen',
    'SubagentStop',
    { ...QWEN, hook_event_name: 'SubagentStop', agent_id: 'general-purpose-call_0_0', stop_hook_active: false, agent_type: 'general-purpose', last_assistant_message: 'done' },
    'agent/subagent-stop',
    { continuations: 0, agentId: 'general-purpose-call_0_0', agentType: 'general-purpose', lastAssistantText: 'done' },
  ],
  ['factory', 'SessionEnd', { ...CC, hook_event_name: 'SessionEnd', permission_mode: 'auto-low', reason: 'other', session_duration_ms: 622.7, message_count: 7 }, 'agent/session-end', { reason: 'other' }],
  ['codex', 'SessionEnd', { ...CC, hook_event_name: 'SessionEnd', reason: 'other' }, 'agent/session-end', { reason: 'other' }],
  ['codex', 'PreCompact', { ...CODEX, hook_event_name: 'PreCompact', trigger: 'auto' }, 'agent/pre-compact', { trigger: 'auto' }],
  ['gemini', 'SessionEnd', { ...GEMINI, hook_event_name: 'SessionEnd', reason: 'exit' }, 'agent/session-end', { reason: 'exit' }],
  ['gemini', 'PreCompress', { ...GEMINI, hook_event_name: 'PreCompress', trigger: 'manual' }, 'agent/pre-compact', { trigger: 'manual' }],
  ['copilot', 'sessionEnd', { ...COPILOT, reason: 'complete' }, 'agent/session-end', { reason: 'exit' }],
  [
    'copilot',
    'subagentStart',
    { ...COPILOT, transcriptPath: '/tmp/events.jsonl', agentName: 'general-purpose', agentId: '158c4f13-8565-4a7d-8fd2-85b72dd094ae', agentType: 'general-purpose', parentAgentId: COPILOT.sessionId },
    'agent/subagent-start',
    { agentType: 'general-purpose', agentId: '158c4f13-8565-4a7d-8fd2-85b72dd094ae' },
  ],
  [
    'copilot',
    'subagentStop',
    { ...COPILOT, agentId: '158c4f13-8565-4a7d-8fd2-85b72dd094ae', agentType: 'general-purpose', agentName: 'general-purpose', response: 'sub finished', stopReason: 'end_turn', stop_hook_active: false, parentAgentId: COPILOT.sessionId },
    'agent/subagent-stop',
    { continuations: 0, agentId: '158c4f13-8565-4a7d-8fd2-85b72dd094ae', agentType: 'general-purpose', lastAssistantText: 'sub finished' },
  ],
  [
    'copilot',
    'permissionRequest',
    { ...COPILOT, hookName: 'permissionRequest', toolName: 'bash', toolInput: { command: 'echo hi > x.txt' }, permissionSuggestions: [] },
    'tools/permission-request',
    { toolName: 'bash', arguments: { command: 'echo hi > x.txt' } },
  ],
];

describe('lifecycle events as the real agents sent them: the seam call hookbox makes', () => {
  it.each(READ)('%s %s', (agent, event, input, seam, payload) => {
    const bridge = AGENT_BRIDGES[agent];
    const parsed = bridge.toSeam(input, bridge.eventOnCommandLine === true ? event : undefined);
    expect(parsed.kind).toBe('seam');
    if (parsed.kind !== 'seam') return;
    expect(parsed.event.seam).toBe(seam);
    expect(parsed.event.event).toBe(event);
    expect(parsed.event.payload).toMatchObject(payload);
    expect(bridge.events.some((row) => row.event === event && row.seam === seam), `${agent}'s table lists ${event}`).toBe(true);
  });

  it('Copilot CLI reading a Claude Code setup sends PermissionRequest in its own shape: passed with no opinion (its own setup decides it), not refused as unreadable', () => {
    const measured = { hookName: 'permissionRequest', sessionId: COPILOT.sessionId, timestamp: 1796679454789, cwd: '/work/proj', toolName: 'bash', toolInput: { command: 'ls' }, permissionSuggestions: [] };
    expect(AGENT_BRIDGES['claude-code'].toSeam(measured)).toStrictEqual({ kind: 'pass', event: 'permissionRequest', sessionId: COPILOT.sessionId, answer: { exitCode: 0, stdout: '', stderr: '' } });
    // Anything else without Claude's common fields is still unreadable.
    expect(AGENT_BRIDGES['claude-code'].toSeam({ ...measured, hookName: 'preToolUse' }).kind).toBe('invalid');
  });

  it('a stop after a forced continuation says so (stop_hook_active), for the server to count', () => {
    const parsed = AGENT_BRIDGES['claude-code'].toSeam({ ...CC, hook_event_name: 'SubagentStop', stop_hook_active: true });
    expect(parsed.kind === 'seam' && parsed.event.alreadyContinued).toBe(true);
  });

  it.each([
    ['claude-code', { ...CC, hook_event_name: 'PermissionRequest', tool_name: 'Write' }, /tool_input/],
    ['claude-code', { ...CC, hook_event_name: 'Notification', notification_type: 'idle_prompt' }, /message/],
    ['copilot', { ...COPILOT, toolInput: {} }, /toolName/],
  ] as const)('%s: a malformed lifecycle event is invalid, naming the field', (agent, input, field) => {
    const bridge = AGENT_BRIDGES[agent];
    const parsed = bridge.toSeam(input, bridge.eventOnCommandLine === true ? 'permissionRequest' : undefined);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.message).toMatch(field);
  });
});

function seamEvent(agent: Agent, event: string, seam: string, payload: Record<string, unknown>): AgentSeamEvent {
  return { event, sessionId: 's1', cwd: '/work/proj', seam, payload } as AgentSeamEvent;
}

const PERMISSION = { toolCallId: 't1', toolName: 'bash', arguments: { command: 'ls' } };
const STOP = { continuations: 0 };

/** agent, event, seam, payload, decision, the answer (JSON on stdout; null: no answer). */
const ANSWERS: readonly [Agent, string, string, Record<string, unknown>, Record<string, unknown>, unknown][] = [
  ['claude-code', 'SubagentStop', 'agent/subagent-stop', STOP, { action: 'continue', reason: 'more' }, { decision: 'block', reason: 'more' }],
  ['claude-code', 'SubagentStop', 'agent/subagent-stop', STOP, { action: 'stop' }, null],
  ['claude-code', 'PermissionRequest', 'tools/permission-request', PERMISSION, { action: 'deny', reason: 'no' }, { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } }],
  ['claude-code', 'PermissionRequest', 'tools/permission-request', PERMISSION, { action: 'allow' }, { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }],
  ['claude-code', 'PermissionRequest', 'tools/permission-request', PERMISSION, { action: 'ask' }, null],
  ['claude-code', 'PreCompact', 'agent/pre-compact', { trigger: 'auto' }, { action: 'block', reason: 'not now' }, { decision: 'block', reason: 'not now' }],
  ['claude-code', 'SubagentStart', 'agent/subagent-start', { agentType: 'Explore' }, { additionalContext: 'rules' }, { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'rules' } }],
  ['claude-code', 'SessionEnd', 'agent/session-end', { reason: 'other' }, {}, null],
  ['codex', 'PreCompact', 'agent/pre-compact', { trigger: 'auto' }, { action: 'block', reason: 'not now' }, { continue: false, stopReason: 'not now' }],
  ['codex', 'PreCompact', 'agent/pre-compact', { trigger: 'auto' }, { action: 'allow', additionalContext: 'x' }, null],
  ['gemini', 'PreCompress', 'agent/pre-compact', { trigger: 'auto' }, { action: 'block', reason: 'not now' }, null],
  ['copilot', 'permissionRequest', 'tools/permission-request', PERMISSION, { action: 'deny', reason: 'no' }, { behavior: 'deny', message: 'no' }],
  ['copilot', 'permissionRequest', 'tools/permission-request', PERMISSION, { action: 'allow' }, { behavior: 'allow' }],
  ['copilot', 'subagentStop', 'agent/subagent-stop', STOP, { action: 'continue', reason: 'more' }, { decision: 'block', reason: 'more' }],
  ['copilot', 'sessionEnd', 'agent/session-end', { reason: 'exit' }, {}, null],
];

describe('lifecycle decisions in each agent\'s own format', () => {
  it.each(ANSWERS)('%s %s: %j', (agent, event, seam, payload, decision, expected) => {
    const answer = AGENT_BRIDGES[agent].answer(seamEvent(agent, event, seam, payload), decision as never);
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout === '' ? null : JSON.parse(answer.stdout)).toEqual(expected);
  });

  it('a hostile reason is made safe text before it reaches the agent', () => {
    const answer = AGENT_BRIDGES['claude-code'].answer(seamEvent('claude-code', 'PermissionRequest', 'tools/permission-request', PERMISSION), { action: 'deny', reason: 'no \u001b]0;x\u0007' } as never);
    expect(answer.stdout).not.toMatch(/\u001b|\u0007/);
  });
});

describe('lifecycle events answered closed', () => {
  it.each([
    ['claude-code', 'PermissionRequest'],
    ['copilot', 'permissionRequest'],
  ] as const)('%s %s: a gate refuses the call', (agent, event) => {
    const answer = AGENT_BRIDGES[agent].failClosed(event, 'no decision in time');
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout).toMatch(/"deny"/);
    expect(answer.stdout).toContain('no decision in time');
  });

  it.each([
    ['claude-code', 'SessionEnd'],
    ['claude-code', 'PreCompact'],
    ['claude-code', 'SubagentStop'],
    ['codex', 'PreCompact'],
    ['gemini', 'SessionEnd'],
    ['copilot', 'subagentStop'],
  ] as const)('%s %s: let through (a fault never wedges the session or forces work on)', (agent, event) => {
    expect(AGENT_BRIDGES[agent].failClosed(event, 'x')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});
