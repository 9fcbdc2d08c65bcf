import path from 'node:path';
import { z } from 'zod';
import type { DecisionOf, PayloadOf, SeamId } from '../../seams/index.ts';
import { fromProtocolToolInput, fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentEventMapping, AgentSeamEvent, ParsedAgentEvent } from './agent-bridge.ts';
import { claudeCodeSetup } from './claude-code-setup.ts';
import { SESSION_ID_PATTERN, invalidEvent, safeContext, safeText } from './event-input.ts';

/**
 * Claude Code's hook events hookbox answers, and what each decision becomes.
 * The one table: the README's copy is checked against it by a test.
 */
export const CLAUDE_CODE_EVENTS: readonly AgentEventMapping[] = [
  { event: 'SessionStart', seam: 'agent/session-start', answers: 'context → `hookSpecificOutput.additionalContext`' },
  {
    event: 'UserPromptSubmit',
    seam: 'agent/prompt-submit',
    answers: 'block → `decision: "block"` + reason; context → `additionalContext`; a rewrite → block with the reason (Claude Code cannot take a rewritten prompt)',
  },
  {
    event: 'PreToolUse',
    seam: 'tools/pre-execute',
    answers: 'deny / ask → `permissionDecision` + reason; allow → no answer (Claude Code\'s own permission rules still apply)',
  },
  {
    event: 'PostToolUse',
    seam: 'tools/post-execute',
    answers:
      'block → `continue: false` + `stopReason` (ends the turn: `decision: "block"` alone still shows the model the output); context → `additionalContext`; replaced content → block',
  },
  { event: 'PostToolUseFailure', seam: 'tools/post-execute', answers: 'as PostToolUse; the result is the error text, `isError: true`' },
  {
    event: 'Stop',
    seam: 'agent/turn-continuation',
    answers: 'continue {reason} → `decision: "block"` + reason (within `stop_hook_active` and hookbox\'s continuation cap); stop → no answer',
  },
];

const Common = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().regex(SESSION_ID_PATTERN, 'a session id of letters, digits, ".", "_" or "-" (at most 128)'),
  cwd: z.string().refine((cwd) => path.isAbsolute(cwd), 'an absolute path'),
});
const ToolFields = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string(),
};
const EventSchemas = {
  SessionStart: z.looseObject({ source: z.enum(['startup', 'resume', 'clear', 'compact']) }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  PostToolUseFailure: z.looseObject({ ...ToolFields, error: z.string() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().optional() }),
} as const;
type EventName = keyof typeof EventSchemas;

function seamEvent<S extends SeamId>(event: string, sessionId: string, cwd: string, seam: S, payload: PayloadOf<S>, extra: object = {}): ParsedAgentEvent {
  return { kind: 'seam', event: { event, sessionId, cwd, seam, payload, ...extra } };
}

function toSeam(input: unknown): ParsedAgentEvent {
  const common = Common.safeParse(input);
  if (!common.success) return invalidEvent(common.error, typeof (input as { hook_event_name?: unknown })?.hook_event_name === 'string' ? (input as { hook_event_name: string }).hook_event_name : undefined);
  const { hook_event_name: event, session_id: sessionId, cwd } = common.data;
  if (!Object.hasOwn(EventSchemas, event)) return { kind: 'pass', event, sessionId, answer: NO_OPINION };
  const parsed = EventSchemas[event as EventName].safeParse(input);
  if (!parsed.success) return invalidEvent(parsed.error, event);
  const data = parsed.data as Record<string, unknown>;
  switch (event as EventName) {
    case 'SessionStart':
      return seamEvent(event, sessionId, cwd, 'agent/session-start', { source: data.source as PayloadOf<'agent/session-start'>['source'] });
    case 'UserPromptSubmit':
      return seamEvent(event, sessionId, cwd, 'agent/prompt-submit', { content: data.prompt as string, source: 'api' });
    case 'PreToolUse': {
      const call = fromProtocolToolInput('claude-code', data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: data.tool_use_id as string, ...call });
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const theirs = data.tool_name as string;
      const call = fromProtocolToolInput('claude-code', theirs, data.tool_input as Record<string, unknown>, cwd);
      const result =
        event === 'PostToolUse' ? fromProtocolToolResponse('claude-code', theirs, data.tool_response) : { content: data.error as string, isError: true };
      return seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: data.tool_use_id as string, ...call, result });
    }
    case 'Stop': {
      const last = typeof data.last_assistant_message === 'string' && data.last_assistant_message !== '' ? { lastAssistantText: data.last_assistant_message } : {};
      return seamEvent(event, sessionId, cwd, 'agent/turn-continuation', { continuations: 0, ...last }, { alreadyContinued: data.stop_hook_active === true });
    }
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

const NO_OPINION: AgentAnswer = { exitCode: 0, stdout: '', stderr: '' };

function json(value: object): AgentAnswer {
  return { exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' };
}

function context(event: string, additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : json({ hookSpecificOutput: { hookEventName: event, additionalContext: safeContext(additionalContext) } });
}

/**
 * A blocked tool result. Measured with Claude Code 2.1.328: `decision:
 * "block"` on PostToolUse does not withhold anything — the model still gets
 * the tool's full output, with the reason appended as a system reminder. Only
 * `continue: false` keeps the output from the model (the turn ends before the
 * next model call), so a block ends the turn, with the reason as `stopReason`.
 */
function withheld(reason: string): AgentAnswer {
  const text = safeText(reason);
  return json({ continue: false, stopReason: text, decision: 'block', reason: text });
}

function answer<S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): AgentAnswer {
  switch (event.seam) {
    case 'agent/session-start':
      return context('SessionStart', (decision as DecisionOf<'agent/session-start'>).additionalContext);
    case 'agent/prompt-submit': {
      const prompt = decision as DecisionOf<'agent/prompt-submit'>;
      if (prompt.action === 'block') return json({ decision: 'block', reason: safeText(prompt.reason) });
      return context('UserPromptSubmit', prompt.additionalContext);
    }
    case 'tools/pre-execute': {
      const pre = decision as DecisionOf<'tools/pre-execute'>;
      // hookbox's allow is "no objection": answering "allow" would skip Claude Code's own permission prompt.
      if (pre.action === 'allow') return NO_OPINION;
      const reason = pre.reason ?? (pre.action === 'ask' ? 'a hookbox hook asks for confirmation' : 'denied by a hookbox hook');
      return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: pre.action, permissionDecisionReason: safeText(reason) } });
    }
    case 'tools/post-execute': {
      const post = decision as DecisionOf<'tools/post-execute'>;
      if (post.action === 'block') return withheld(post.reason);
      return context(event.event === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse', post.additionalContext);
    }
    case 'agent/turn-continuation': {
      const next = decision as DecisionOf<'agent/turn-continuation'>;
      if (next.action === 'stop') return NO_OPINION;
      return json({ decision: 'block', reason: safeText(next.reason ?? 'a hookbox hook asked to keep working') });
    }
  }
  return NO_OPINION;
}

/**
 * Fail closed in Claude Code's terms, always as JSON on exit 0 (an HTTP hook
 * reads only that): deny a tool call, block a prompt or a result. A Stop or
 * SessionStart that cannot be decided is let through (forcing a turn on, or
 * blocking start-up, is not a safe default). An unreadable event gets exit 2.
 */
function failClosed(event: string | undefined, reason: string): AgentAnswer {
  const text = `hookbox: ${safeText(reason)}`;
  switch (event) {
    case 'PreToolUse':
      return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } });
    case 'UserPromptSubmit':
      return json({ decision: 'block', reason: text });
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return withheld(text);
    case 'Stop':
    case 'SessionStart':
      return NO_OPINION;
    default:
      return { exitCode: 2, stdout: '', stderr: `${text}\n` };
  }
}

/** Claude Code (`claude`, 2.1.x): command and http hooks in `.claude/settings.json`. */
export const claudeCodeBridge: AgentBridge = {
  name: 'claude-code',
  label: 'Claude Code',
  events: CLAUDE_CODE_EVENTS,
  canReplace: { prompt: false, toolResult: false },
  toSeam,
  answer,
  failClosed,
  setup: claudeCodeSetup,
};
