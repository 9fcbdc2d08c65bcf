/**
 * The seam contract itself (host/seams), checked value by value against
 * what docs/reference/seams.md and the RFC say, with every expected value
 * written out: names and kinds, what each schema accepts and refuses, the
 * default and fault decisions under both policies, composition at its edges.
 * The conformance harness checks the same rules through the bus; this file
 * pins the definitions, so a changed literal or a dropped check fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  FailPolicySchema,
  HookFaultKindSchema,
  HookFaultSchema,
  PROTOCOL_VERSION,
  SEAMS,
  SEAM_IDS,
  type SeamId,
  SessionInfoSchema,
  envelopeSchema,
  exportForSeam,
  faultReason,
  hookFault,
  isSeamId,
  joinContext,
  seamDefinition,
  seamForExport,
} from '../../host/seams/index.ts';

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;

describe('the seams', () => {
  it('have the documented ids, order, kinds, export names, scope and default fail policy', () => {
    expect(SEAM_IDS).toEqual([
      'agent/session-start',
      'agent/prompt-submit',
      'tools/pre-execute',
      'tools/permission-request',
      'tools/post-execute',
      'agent/subagent-start',
      'agent/subagent-stop',
      'agent/turn-continuation',
      'agent/notification',
      'agent/pre-compact',
      'agent/session-end',
    ]);
    const table = SEAM_IDS.map((id) => {
      const s = SEAMS[id];
      return [s.id, s.kind, s.exportName, s.toolScoped, s.defaultFailPolicy];
    });
    expect(table).toEqual([
      ['agent/session-start', 'notify', 'session_start', false, 'open'],
      ['agent/prompt-submit', 'waterfall', 'prompt_submit', false, 'closed'],
      ['tools/pre-execute', 'waterfall', 'pre_tool', true, 'closed'],
      // The gate of issue #51 fails closed; the lifecycle seams that could wedge a session fail open (docs/rfc-lifecycle-seams.md).
      ['tools/permission-request', 'waterfall', 'permission_request', true, 'closed'],
      ['tools/post-execute', 'waterfall', 'post_tool', true, 'closed'],
      ['agent/subagent-start', 'notify', 'subagent_start', false, 'open'],
      ['agent/subagent-stop', 'waterfall', 'subagent_stop', false, 'open'],
      ['agent/turn-continuation', 'waterfall', 'turn_continuation', false, 'open'],
      ['agent/notification', 'notify', 'notification', false, 'open'],
      ['agent/pre-compact', 'waterfall', 'pre_compact', false, 'open'],
      ['agent/session-end', 'notify', 'session_end', false, 'open'],
    ]);
  });

  it('map export names both ways, and know their own ids', () => {
    expect(seamForExport('pre_tool')).toBe('tools/pre-execute');
    expect(seamForExport('turn_continuation')).toBe('agent/turn-continuation');
    expect(seamForExport('preTool')).toBeUndefined();
    expect(exportForSeam('agent/prompt-submit')).toBe('prompt_submit');
    expect(isSeamId('tools/post-execute')).toBe(true);
    expect(isSeamId('toString')).toBe(false);
    expect(isSeamId('tools/*')).toBe(false);
    expect(seamDefinition('agent/session-start')).toBe(SEAMS['agent/session-start']);
  });
});

describe('payload schemas are strict and typed', () => {
  const cases: [SeamId, unknown, unknown[]][] = [
    ['agent/session-start', { source: 'startup' }, [{ source: 'boot' }, { source: 'startup', extra: 1 }, {}]],
    ['agent/prompt-submit', { content: 'hi', source: 'acp' }, [{ content: 'hi', source: 'web' }, { content: 1, source: 'cli' }, { content: 'hi' }]],
    [
      'tools/pre-execute',
      { toolCallId: 'c', toolName: 'bash', arguments: { command: 'ls' } },
      [{ toolCallId: 'c', toolName: 'bash', arguments: [] }, { toolCallId: 'c', toolName: 'bash' }, { toolCallId: 1, toolName: 'bash', arguments: {} }],
    ],
    [
      'tools/post-execute',
      { toolCallId: 'c', toolName: 'bash', arguments: {}, result: { content: 'x', isError: false } },
      [{ toolCallId: 'c', toolName: 'bash', arguments: {}, result: { content: 'x' } }, { toolCallId: 'c', toolName: 'bash', arguments: {}, result: { content: 'x', isError: 'no' } }],
    ],
    ['agent/turn-continuation', { continuations: 0, lastAssistantText: 'done' }, [{ continuations: -1 }, { continuations: 1.5 }, { continuations: 0, lastAssistantText: 3 }]],
  ];
  it.each(cases)('%s', (seam, good, bad) => {
    expect(accepts(SEAMS[seam].payload, good)).toBe(true);
    for (const value of bad) expect(accepts(SEAMS[seam].payload, value), JSON.stringify(value)).toBe(false);
  });

  it('every prompt source and session-start source the loop and ACP use', () => {
    for (const source of ['cli', 'stdin', 'api', 'acp']) expect(accepts(SEAMS['agent/prompt-submit'].payload, { content: '', source })).toBe(true);
    for (const source of ['startup', 'resume', 'clear', 'compact']) expect(accepts(SEAMS['agent/session-start'].payload, { source })).toBe(true);
  });
});

describe('decision schemas: what a hook may answer', () => {
  const cases: [SeamId, unknown[], unknown[]][] = [
    ['agent/session-start', [{}, { additionalContext: 'c' }], [{ action: 'allow' }, { additionalContext: 1 }]],
    [
      'agent/prompt-submit',
      [{ action: 'allow' }, { action: 'allow', content: 'x', additionalContext: 'y' }, { action: 'block', reason: 'r' }],
      [{ action: 'block' }, { action: 'block', reason: '' }, { action: 'deny', reason: 'r' }, { action: 'allow', reason: 'r' }],
    ],
    [
      'tools/pre-execute',
      [{ action: 'allow' }, { action: 'allow', reason: '' }, { action: 'allow', arguments: { command: 'ls' } }, { action: 'ask' }, { action: 'ask', reason: 'r' }, { action: 'deny', reason: 'r' }],
      // A rewrite is the full argument object, and only an allow carries one.
      [{ action: 'deny' }, { action: 'deny', reason: '' }, { action: 'block', reason: 'r' }, { action: 'allow', arguments: [] }, { action: 'allow', arguments: 'ls' }, { action: 'ask', arguments: {} }, { action: 'deny', reason: 'r', arguments: {} }, { action: 'allow', reason: 1 }],
    ],
    [
      'tools/post-execute',
      [{ action: 'accept' }, { action: 'accept', content: 'x', additionalContext: 'y' }, { action: 'block', reason: 'r' }],
      [{ action: 'block', reason: '' }, { action: 'allow' }, { action: 'accept', reason: 'r' }],
    ],
    [
      'agent/turn-continuation',
      [{ action: 'stop' }, { action: 'continue' }, { action: 'continue', reason: 'r' }],
      [{ action: 'stop', reason: 'r' }, { action: 'block', reason: 'r' }, { action: 'continue', reason: 2 }],
    ],
  ];
  it.each(cases)('%s', (seam, good, bad) => {
    for (const value of good) expect(accepts(SEAMS[seam].decision, value), JSON.stringify(value)).toBe(true);
    for (const value of bad) expect(accepts(SEAMS[seam].decision, value), JSON.stringify(value)).toBe(false);
  });
});

describe('fault decisions', () => {
  const fault = hookFault('trap', 'boom');
  const timeout = hookFault('timeout', 'late');
  it('closed: a restrictive decision naming the hook and the fault; timeout on pre-tool asks', () => {
    expect(SEAMS['agent/prompt-submit'].faultDecision(fault, 'closed', 'h')).toEqual({ action: 'block', reason: 'hook "h" failed (trap): boom' });
    expect(SEAMS['tools/pre-execute'].faultDecision(fault, 'closed', 'h')).toEqual({ action: 'deny', reason: 'hook "h" failed (trap): boom' });
    expect(SEAMS['tools/pre-execute'].faultDecision(timeout, 'closed', 'h')).toEqual({ action: 'ask', reason: 'hook "h" failed (timeout): late' });
    expect(SEAMS['tools/post-execute'].faultDecision(fault, 'closed', 'h')).toEqual({ action: 'block', reason: 'hook "h" failed (trap): boom' });
    expect(SEAMS['tools/post-execute'].faultDecision(timeout, 'closed', 'h')).toEqual({ action: 'block', reason: 'hook "h" failed (timeout): late' });
  });
  it('open (and the notify / continuation seams always): no opinion', () => {
    for (const id of SEAM_IDS) expect(SEAMS[id].faultDecision(fault, 'open', 'h'), id).toBeNull();
    expect(SEAMS['agent/session-start'].faultDecision(fault, 'closed', 'h')).toBeNull();
    expect(SEAMS['agent/turn-continuation'].faultDecision(fault, 'closed', 'h')).toBeNull();
  });
  it('fault kinds and policies are the closed sets the audit log records', () => {
    expect(HookFaultKindSchema.options).toEqual(['timeout', 'trap', 'memory', 'output-too-large', 'decode', 'schema', 'plugin-error', 'missing-export', 'load']);
    expect(FailPolicySchema.options).toEqual(['closed', 'open']);
    expect(accepts(HookFaultSchema, { kind: 'trap', message: '' })).toBe(true);
    expect(accepts(HookFaultSchema, { kind: 'trap', message: 'x', extra: 1 })).toBe(false);
    expect(hookFault('load', 'x')).toEqual({ kind: 'load', message: 'x' });
    expect(faultReason('guard', hookFault('schema', 'bad'))).toBe('hook "guard" failed (schema): bad');
  });
});

describe('composition edges', () => {
  it('joinContext skips empty sides and joins with a blank line', () => {
    expect(joinContext(undefined, undefined)).toBeUndefined();
    expect(joinContext('', 'b')).toBe('b');
    expect(joinContext('a', '')).toBe('a');
    expect(joinContext('a', undefined)).toBe('a');
    expect(joinContext(undefined, '')).toBe('');
    expect(joinContext('a', 'b')).toBe('a\n\nb');
  });

  it('session-start accumulates context and never short-circuits', () => {
    const s = SEAMS['agent/session-start'];
    expect(s.defaultDecision({ source: 'startup' })).toStrictEqual({});
    expect(s.compose({}, {})).toStrictEqual({});
    expect(s.compose({ additionalContext: 'a' }, {})).toStrictEqual({ additionalContext: 'a' });
    expect(s.compose({}, { additionalContext: 'b' })).toStrictEqual({ additionalContext: 'b' });
    expect(s.shortCircuits({ additionalContext: 'x' })).toBe(false);
    expect(s.threadPayload({ source: 'resume' }, { additionalContext: 'x' })).toStrictEqual({ source: 'resume' });
  });

  it('prompt-submit: block wins either way and short-circuits; rewrites thread into the payload', () => {
    const s = SEAMS['agent/prompt-submit'];
    const block = { action: 'block', reason: 'no' } as const;
    expect(s.compose({ action: 'allow', content: 'x' }, block)).toStrictEqual(block);
    expect(s.compose(block, { action: 'allow', content: 'x' })).toStrictEqual(block);
    expect(s.compose({ action: 'allow', content: 'x', additionalContext: 'a' }, { action: 'allow', content: 'y' })).toStrictEqual({ action: 'allow', content: 'y', additionalContext: 'a' });
    expect(s.compose({ action: 'allow' }, { action: 'allow' })).toStrictEqual({ action: 'allow' });
    expect(s.shortCircuits(block)).toBe(true);
    expect(s.shortCircuits({ action: 'allow' })).toBe(false);
    expect(s.threadPayload({ content: 'a', source: 'cli' }, { action: 'allow', content: 'b' })).toStrictEqual({ content: 'b', source: 'cli' });
    expect(s.threadPayload({ content: 'a', source: 'cli' }, { action: 'allow' })).toStrictEqual({ content: 'a', source: 'cli' });
    expect(s.threadPayload({ content: 'a', source: 'cli' }, block)).toStrictEqual({ content: 'a', source: 'cli' });
  });

  it('pre-tool: deny > ask > allow; at equal rank the first reason stands; only deny short-circuits', () => {
    const s = SEAMS['tools/pre-execute'];
    const allow = { action: 'allow' } as const;
    const ask = { action: 'ask', reason: 'a' } as const;
    const deny = { action: 'deny', reason: 'd' } as const;
    expect(s.compose(allow, ask)).toStrictEqual(ask);
    expect(s.compose(ask, allow)).toStrictEqual(ask);
    expect(s.compose(ask, deny)).toStrictEqual(deny);
    expect(s.compose(deny, ask)).toStrictEqual(deny);
    expect(s.compose(allow, deny)).toStrictEqual(deny);
    expect(s.compose({ action: 'ask', reason: 'first' }, { action: 'ask', reason: 'second' })).toStrictEqual({ action: 'ask', reason: 'first' });
    expect(s.compose({ action: 'ask' }, { action: 'ask', reason: 'second' })).toStrictEqual({ action: 'ask', reason: 'second' });
    expect(s.shortCircuits(deny)).toBe(true);
    expect(s.shortCircuits(ask)).toBe(false);
    expect(s.shortCircuits(allow)).toBe(false);
    const payload = { toolCallId: 'c', toolName: 'bash', arguments: { command: 'ls' } };
    expect(s.threadPayload(payload, allow)).toStrictEqual(payload);
  });

  it('post-tool: block wins and short-circuits; a replaced content threads into the result', () => {
    const s = SEAMS['tools/post-execute'];
    const payload = { toolCallId: 'c', toolName: 'bash', arguments: {}, result: { content: 'secret', isError: true } };
    const block = { action: 'block', reason: 'no' } as const;
    expect(s.defaultDecision(payload)).toStrictEqual({ action: 'accept' });
    expect(s.compose({ action: 'accept', content: 'x' }, block)).toStrictEqual(block);
    expect(s.compose(block, { action: 'accept' })).toStrictEqual(block);
    expect(s.compose({ action: 'accept', additionalContext: 'a' }, { action: 'accept', content: 'y', additionalContext: 'b' })).toStrictEqual({ action: 'accept', content: 'y', additionalContext: 'a\n\nb' });
    expect(s.shortCircuits(block)).toBe(true);
    expect(s.shortCircuits({ action: 'accept' })).toBe(false);
    expect(s.threadPayload(payload, { action: 'accept', content: '[REDACTED]' })).toStrictEqual({ ...payload, result: { content: '[REDACTED]', isError: true } });
    expect(s.threadPayload(payload, { action: 'accept' })).toStrictEqual(payload);
    expect(s.threadPayload(payload, block)).toStrictEqual(payload);
  });

  it('turn-continuation: continue beats stop, reasons accumulate, nothing short-circuits', () => {
    const s = SEAMS['agent/turn-continuation'];
    expect(s.compose({ action: 'stop' }, { action: 'stop' })).toStrictEqual({ action: 'stop' });
    expect(s.compose({ action: 'continue', reason: 'a' }, { action: 'stop' })).toStrictEqual({ action: 'continue', reason: 'a' });
    expect(s.compose({ action: 'stop' }, { action: 'continue' })).toStrictEqual({ action: 'continue' });
    expect(s.compose({ action: 'continue' }, { action: 'continue' })).toStrictEqual({ action: 'continue' });
    expect(s.compose({ action: 'continue', reason: 'a' }, { action: 'continue', reason: 'b' })).toStrictEqual({ action: 'continue', reason: 'a\n\nb' });
    expect(s.shortCircuits({ action: 'continue', reason: 'x' })).toBe(false);
    expect(s.threadPayload({ continuations: 2 }, { action: 'continue' })).toStrictEqual({ continuations: 2 });
  });
});

describe('the envelope', () => {
  const schema = envelopeSchema('tools/pre-execute', SEAMS['tools/pre-execute'].payload, SEAMS['tools/pre-execute'].decision);
  const envelope = {
    v: 1,
    seam: 'tools/pre-execute',
    session: { id: 's', turn: 0, step: 0, cwd: '/' },
    payload: { toolCallId: 'c', toolName: 'bash', arguments: {} },
    next: { action: 'allow' },
  };
  it('is {v, seam, session, payload, next}, strict, with next nullable', () => {
    expect(PROTOCOL_VERSION).toBe(1);
    expect(accepts(schema, envelope)).toBe(true);
    expect(accepts(schema, { ...envelope, next: null })).toBe(true);
    expect(accepts(schema, { ...envelope, v: 2 })).toBe(false);
    expect(accepts(schema, { ...envelope, seam: 'tools/post-execute' })).toBe(false);
    expect(accepts(schema, { ...envelope, extra: true })).toBe(false);
    expect(accepts(schema, { ...envelope, next: { action: 'block', reason: 'x' } })).toBe(false);
  });
  it('session info is strict with non-negative integer turn and step', () => {
    expect(accepts(SessionInfoSchema, { id: 's', turn: 0, step: 0, cwd: '/' })).toBe(true);
    expect(accepts(SessionInfoSchema, { id: 's', turn: -1, step: 0, cwd: '/' })).toBe(false);
    expect(accepts(SessionInfoSchema, { id: 's', turn: 0, step: 0.5, cwd: '/' })).toBe(false);
    expect(accepts(SessionInfoSchema, { id: 's', turn: 0, step: 0, cwd: '/', pid: 1 })).toBe(false);
  });
});
