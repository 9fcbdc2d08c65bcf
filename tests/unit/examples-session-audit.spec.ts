import { describe, expect, it } from 'vitest';
import auditTrail from '../../examples-hooks/audit-trail/hook.ts';
import { auditLine, auditRecord } from '../../examples-hooks/audit-trail/policy.ts';
import sessionContextHook from '../../examples-hooks/session-context/hook.ts';
import { DEFAULT_RESUME_NOTE, sessionContext } from '../../examples-hooks/session-context/policy.ts';
import { memoryContext } from '../../examples-hooks/shared/memory-context.ts';
import { SEAM_EXPORTS } from '../../pdk/generated/seam-names.ts';
import type {
  ContinuationDecision,
  NotificationDecision,
  PermissionDecision,
  PostToolDecision,
  PreCompactDecision,
  PreToolDecision,
  PromptDecision,
  SessionEndDecision,
  SessionStartDecision,
  SubagentStartDecision,
} from '../../pdk/index.ts';

describe('session-context', () => {
  const config = { teamRules: ' Small commits. Run tests before pushing. ', resumeNote: 'Welcome back.' };

  it.each([
    ['startup', config, 'Small commits. Run tests before pushing.'],
    ['clear', config, 'Small commits. Run tests before pushing.'],
    ['compact', config, 'Small commits. Run tests before pushing.'],
    ['resume', config, 'Welcome back.'],
    ['resume', { teamRules: 'x' }, DEFAULT_RESUME_NOTE],
    ['resume', { resumeNote: '  ' }, DEFAULT_RESUME_NOTE],
    ['startup', {}, undefined],
    ['startup', { teamRules: '\n' }, undefined],
  ] as const)('%s with %j → %j', (source, cfg, expected) => {
    expect(sessionContext(source, cfg)).toBe(expected);
  });

  it('the default resume note says the session was resumed', () => {
    expect(DEFAULT_RESUME_NOTE).toMatch(/resumed/);
  });

  it('hook: returns {additionalContext} or no opinion', () => {
    const start = (source: 'startup' | 'resume', cfg: Record<string, string>) =>
      sessionContextHook.handlers.sessionStart?.({ source }, memoryContext<SessionStartDecision>({ config: cfg }));
    expect(start('startup', { teamRules: 'Use pnpm.' })).toEqual({ additionalContext: 'Use pnpm.' });
    expect(start('resume', { teamRules: 'Use pnpm.' })).toEqual({ additionalContext: DEFAULT_RESUME_NOTE });
    expect(start('startup', {})).toBeUndefined();
  });
});

describe('audit-trail', () => {
  const session = { id: 's1', turn: 2, step: 1, cwd: '/w' };
  const secret = 'hunter2-secret-value';

  it('records seam, position, tool and decision so far; never contents', () => {
    expect(auditRecord('tools/pre-execute', session, { toolCallId: 'c1', toolName: 'bash', arguments: { command: `echo ${secret}` } }, { action: 'ask', reason: secret })).toEqual({
      audit: 'hookbox', seam: 'tools/pre-execute', session: 's1', turn: 2, step: 1, tool: 'bash', toolCallId: 'c1', next: 'ask',
    });
    expect(auditRecord('tools/post-execute', session, { toolCallId: 'c1', toolName: 'bash', arguments: {}, result: { content: secret, isError: true } }, { action: 'accept' })).toMatchObject({
      next: 'accept', detail: { isError: true, chars: secret.length },
    });
    expect(auditRecord('agent/prompt-submit', session, { content: secret, source: 'cli' }, { action: 'allow' })).toMatchObject({ next: 'allow', detail: { source: 'cli', chars: secret.length } });
    expect(auditRecord('agent/session-start', session, { source: 'resume' }, null)).toMatchObject({ next: 'none', detail: { source: 'resume' } });
    expect(auditRecord('agent/session-start', session, { source: 'startup' }, { additionalContext: 'x' })).toMatchObject({ next: 'context' });
    expect(auditRecord('agent/turn-continuation', session, { continuations: 1, lastAssistantText: secret }, { action: 'stop' })).toMatchObject({ next: 'stop', detail: { continuations: 1 } });
    expect(auditRecord('agent/session-end', session, { reason: 'clear' }, null)).toMatchObject({ next: 'none', detail: { reason: 'clear' } });
    expect(auditRecord('agent/pre-compact', session, { trigger: 'auto', instructions: secret }, { action: 'allow' })).toEqual({
      audit: 'hookbox', seam: 'agent/pre-compact', session: 's1', turn: 2, step: 1, next: 'allow', detail: { trigger: 'auto' },
    });
    expect(auditRecord('agent/notification', session, { kind: 'permission', message: secret }, null)).toEqual({
      audit: 'hookbox', seam: 'agent/notification', session: 's1', turn: 2, step: 1, next: 'none', detail: { kind: 'permission', chars: secret.length },
    });
    expect(auditRecord('agent/subagent-stop', session, { continuations: 2, lastAssistantText: secret }, { action: 'continue', reason: secret })).toMatchObject({ next: 'continue', detail: { continuations: 2 } });
  });

  it('one line of JSON', () => {
    const line = auditLine('agent/prompt-submit', session, { content: `multi\nline ${secret}`, source: 'cli' }, { action: 'allow' });
    expect(line).not.toContain('\n');
    expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ seam: 'agent/prompt-submit' });
  });

  it('hook: every seam logs exactly one info line and returns no opinion', () => {
    expect(Object.keys(auditTrail.exports).sort()).toEqual([...SEAM_EXPORTS].sort());
    const h = auditTrail.handlers;
    const ctx = <D>(next: D | null) => memoryContext<D>({ next, session });
    const calls = [
      ['agent/session-start', 'none', (c = ctx<SessionStartDecision>(null)) => ({ decision: h.sessionStart?.({ source: 'startup' }, c), lines: c.lines })],
      ['agent/prompt-submit', 'allow', (c = ctx<PromptDecision>({ action: 'allow' })) => ({ decision: h.promptSubmit?.({ content: secret, source: 'cli' }, c), lines: c.lines })],
      ['tools/pre-execute', 'deny', (c = ctx<PreToolDecision>({ action: 'deny', reason: secret })) => ({ decision: h.preTool?.({ toolCallId: 'c', toolName: 'bash', arguments: { command: secret } }, c), lines: c.lines })],
      ['tools/post-execute', 'accept', (c = ctx<PostToolDecision>({ action: 'accept' })) => ({ decision: h.postTool?.({ toolCallId: 'c', toolName: 'bash', arguments: {}, result: { content: secret, isError: false } }, c), lines: c.lines })],
      ['agent/turn-continuation', 'stop', (c = ctx<ContinuationDecision>({ action: 'stop' })) => ({ decision: h.turnContinuation?.({ continuations: 0 }, c), lines: c.lines })],
      ['tools/permission-request', 'ask', (c = ctx<PermissionDecision>({ action: 'ask' })) => ({ decision: h.permissionRequest?.({ toolCallId: 'c', toolName: 'bash', arguments: { command: secret }, reason: secret }, c), lines: c.lines })],
      ['agent/subagent-start', 'none', (c = ctx<SubagentStartDecision>(null)) => ({ decision: h.subagentStart?.({ agentType: secret }, c), lines: c.lines })],
      ['agent/subagent-stop', 'stop', (c = ctx<ContinuationDecision>({ action: 'stop' })) => ({ decision: h.subagentStop?.({ continuations: 0, lastAssistantText: secret }, c), lines: c.lines })],
      ['agent/notification', 'none', (c = ctx<NotificationDecision>(null)) => ({ decision: h.notification?.({ kind: 'idle', message: secret }, c), lines: c.lines })],
      ['agent/pre-compact', 'allow', (c = ctx<PreCompactDecision>({ action: 'allow' })) => ({ decision: h.preCompact?.({ trigger: 'manual', instructions: secret }, c), lines: c.lines })],
      ['agent/session-end', 'none', (c = ctx<SessionEndDecision>(null)) => ({ decision: h.sessionEnd?.({ reason: 'logout' }, c), lines: c.lines })],
    ] as const;
    for (const [seam, next, call] of calls) {
      const { decision, lines } = call();
      expect(decision).toBeUndefined();
      expect(lines).toHaveLength(1);
      expect(lines[0]?.level).toBe('info');
      expect(JSON.parse(lines[0]?.message ?? '')).toMatchObject({ seam, session: 's1', turn: 2, next });
      expect(lines[0]?.message).not.toContain(secret);
    }
  });
});
