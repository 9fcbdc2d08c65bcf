/**
 * audit-trail's pure policy: one JSON line per seam call with what is safe
 * to record — seam, session position, tool, the decision so far — and never
 * prompt text, arguments or results (they may hold secrets).
 */

/** The session position every call carries. */
export interface AuditSession {
  readonly id: string;
  readonly turn: number;
  readonly step: number;
}

/** The safe facts of one seam call, one JSON object per line. */
export interface AuditRecord {
  readonly audit: 'hookbox';
  readonly seam: string;
  readonly session: string;
  readonly turn: number;
  readonly step: number;
  readonly tool?: string;
  readonly toolCallId?: string;
  /** `action` of the decision so far; `none` on notify seams (no `next`). */
  readonly next: string;
  /** Seam-specific sizes and flags: prompt length, result length and isError, continuation count, start source, end reason, compaction trigger, notification kind and length. */
  readonly detail?: Record<string, string | number | boolean>;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function nextAction(next: unknown): string {
  if (next === null || next === undefined) return 'none';
  const action = field(next, 'action');
  // session-start decisions carry no action; say whether context was added.
  if (typeof action === 'string') return action;
  return typeof field(next, 'additionalContext') === 'string' ? 'context' : 'none';
}

function detailOf(seam: string, payload: unknown): Record<string, string | number | boolean> | undefined {
  switch (seam) {
    case 'agent/session-start':
      return { source: String(field(payload, 'source')) };
    case 'agent/prompt-submit': {
      const content = field(payload, 'content');
      return { source: String(field(payload, 'source')), chars: typeof content === 'string' ? content.length : 0 };
    }
    case 'tools/post-execute': {
      const result = field(payload, 'result');
      const content = field(result, 'content');
      return { isError: field(result, 'isError') === true, chars: typeof content === 'string' ? content.length : 0 };
    }
    case 'agent/turn-continuation':
    case 'agent/subagent-stop':
      return { continuations: Number(field(payload, 'continuations') ?? 0) };
    case 'agent/session-end':
      return { reason: String(field(payload, 'reason')) };
    case 'agent/pre-compact':
      return { trigger: String(field(payload, 'trigger')) };
    // The agent's message and the subagent's type are untrusted text: their kind and size only.
    case 'agent/notification': {
      const message = field(payload, 'message');
      return { kind: String(field(payload, 'kind')), chars: typeof message === 'string' ? message.length : 0 };
    }
    default:
      return undefined;
  }
}

/**
 * The audit record of one seam call.
 *
 * @example
 * ```ts
 * auditRecord('tools/pre-execute', { id: 's1', turn: 1, step: 0 },
 *   { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }, { action: 'allow' });
 * // → { audit: 'hookbox', seam: 'tools/pre-execute', session: 's1', turn: 1, step: 0,
 * //     tool: 'bash', toolCallId: 'c1', next: 'allow' }
 * ```
 */
export function auditRecord(seam: string, session: AuditSession, payload: unknown, next: unknown): AuditRecord {
  const tool = field(payload, 'toolName');
  const toolCallId = field(payload, 'toolCallId');
  const detail = detailOf(seam, payload);
  return {
    audit: 'hookbox',
    seam,
    session: session.id,
    turn: session.turn,
    step: session.step,
    ...(typeof tool === 'string' && { tool }),
    ...(typeof toolCallId === 'string' && { toolCallId }),
    next: nextAction(next),
    ...(detail !== undefined && { detail }),
  };
}

/** {@link auditRecord} as the one line the hook logs. */
export function auditLine(seam: string, session: AuditSession, payload: unknown, next: unknown): string {
  return JSON.stringify(auditRecord(seam, session, payload, next));
}
