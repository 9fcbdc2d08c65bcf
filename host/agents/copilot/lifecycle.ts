import type { AgentAnswer, ParsedAgentEvent } from '../agent-bridge.ts';
import { CONTINUE_REASON, NO_OPINION, type ReadAgentEvent, jsonAnswer, oneSeam, toolCallIdFromCall } from '../bridge-parts.ts';
import { safeContext, safeText } from '../event-input.ts';
import type { LifecycleAnswers } from '../lifecycle-answers.ts';
import { sessionEndReason } from '../lifecycle-events.ts';
import { fromCopilotTool } from './tools.ts';

/**
 * How hookbox reads and answers Copilot CLI's lifecycle events (#51; their
 * schemas, as measured: `lifecycle-schemas.ts`), and their closed forms.
 */

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** How hookbox reads each of them. */
export const COPILOT_LIFECYCLE_READERS = {
  sessionEnd: (read: ReadAgentEvent): ParsedAgentEvent => oneSeam(read, 'agent/session-end', { reason: sessionEndReason(read.data.reason) }),
  subagentStart: (read: ReadAgentEvent): ParsedAgentEvent => {
    const agentId = text(read.data.agentId);
    return oneSeam(read, 'agent/subagent-start', { agentType: text(read.data.agentType) ?? text(read.data.agentName) ?? 'unknown', ...(agentId !== undefined && { agentId }) });
  },
  subagentStop: (read: ReadAgentEvent): ParsedAgentEvent => {
    const { data } = read;
    const agentId = text(data.agentId);
    const agentType = text(data.agentType);
    const last = text(data.response);
    return oneSeam(
      read,
      'agent/subagent-stop',
      { continuations: 0, ...(agentId !== undefined && { agentId }), ...(agentType !== undefined && { agentType }), ...(last !== undefined && { lastAssistantText: last }) },
      { alreadyContinued: data.stop_hook_active === true || data.stopHookActive === true },
    );
  },
  permissionRequest: (read: ReadAgentEvent): ParsedAgentEvent => {
    const theirs = read.data.toolName as string;
    const args = (read.data.toolInput as Record<string, unknown> | undefined) ?? {};
    // Copilot sends no call id here either: the one its pre and post events get, from the call itself.
    const call = fromCopilotTool(theirs, args, read.cwd);
    return oneSeam(read, 'tools/permission-request', { toolCallId: toolCallIdFromCall('copilot', theirs, args), ...call });
  },
} as const;

/** A permission answer as Copilot takes it (measured: `behavior: "deny"` + `message` refused the call; the model read "Permission denied by a PermissionRequest hook: <message>"). */
function behavior(value: 'allow' | 'deny', message?: string): AgentAnswer {
  return jsonAnswer({ behavior: value, ...(message !== undefined && { message: safeText(message) }) });
}

/** The lifecycle seams' decisions in Copilot's words; seams it has no event for are never asked of it. */
export const COPILOT_LIFECYCLE_ANSWERS: LifecycleAnswers = {
  'agent/session-end': () => NO_OPINION,
  'agent/notification': () => NO_OPINION,
  'agent/pre-compact': () => NO_OPINION,
  'agent/subagent-start': (start) => (start.additionalContext === undefined ? NO_OPINION : jsonAnswer({ additionalContext: safeContext(start.additionalContext) })),
  'agent/subagent-stop': (next) => (next.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? CONTINUE_REASON) })),
  'tools/permission-request': (decision) => {
    if (decision.action === 'ask') return NO_OPINION;
    return decision.action === 'allow' ? behavior('allow') : behavior('deny', decision.reason);
  },
};

/** Closed: a permission request is refused (a gate); the notices and a subagent's stop are let through. */
export const COPILOT_LIFECYCLE_CLOSED = {
  sessionEnd: 'let-through',
  subagentStart: 'let-through',
  subagentStop: 'let-through',
  permissionRequest: (reason: string): AgentAnswer => jsonAnswer({ behavior: 'deny', message: reason }),
} as const;
