import * as z from 'zod';
import { fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentEventMapping, ParsedAgentEvent } from './agent-bridge.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  WITHHELD_OUTPUT,
  answerBySeam,
  askAsDeny,
  continuationPayload,
  contextAnswer,
  failClosedBy,
  jsonAnswer,
  oneSeam,
  readAgentEvent,
  seamEvent,
  sessionSource,
  toolEvents,
} from './bridge-parts.ts';
import { codexSetup } from './codex-setup.ts';
import { fromCodexTool } from './codex-tools.ts';
import { safeContext, safeText } from './event-input.ts';

/**
 * Codex's hook events hookbox answers, and what each decision becomes
 * (measured against the real `codex` 0.169.0: see host/bridges/agents/README.md).
 * The one table: the README's copy is checked against it by a test.
 */
export const CODEX_EVENTS: readonly AgentEventMapping[] = [
  { event: 'SessionStart', seam: 'agent/session-start', answers: 'context → `hookSpecificOutput.additionalContext`' },
  {
    event: 'UserPromptSubmit',
    seam: 'agent/prompt-submit',
    answers:
      'block → `decision: "block"` + reason (the model is never called); context → `additionalContext`; a rewrite → block with the reason (Codex cannot take a rewritten prompt)',
  },
  {
    event: 'PreToolUse',
    seam: 'tools/pre-execute',
    answers:
      'deny → `permissionDecision: "deny"` + reason (the model reads "Command blocked by PreToolUse hook: <reason>"); ask → deny (Codex hooks cannot ask); allow → no answer',
  },
  {
    event: 'PostToolUse',
    seam: 'tools/post-execute',
    answers:
      'block → `decision: "block"` + reason (the model reads the reason in place of the output); replaced content → the same, the content as the reason; context → `additionalContext` (a developer message)',
  },
  {
    event: 'Stop',
    seam: 'agent/turn-continuation',
    answers: 'continue {reason} → `decision: "block"` + reason (a new user turn; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
  },
];

const ToolFields = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().min(1),
};
const EventSchemas = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().nullable().optional() }),
} as const;
type EventName = keyof typeof EventSchemas;

function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, EventSchemas);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as EventName) {
    case 'SessionStart':
      return oneSeam(read, 'agent/session-start', { source: sessionSource(data.source) });
    case 'UserPromptSubmit':
      return oneSeam(read, 'agent/prompt-submit', { content: data.prompt as string, source: 'api' });
    case 'PreToolUse': {
      const calls = fromCodexTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return toolEvents(calls, data.tool_use_id as string, (call, id) =>
        seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments }),
      );
    }
    case 'PostToolUse': {
      const theirs = data.tool_name as string;
      const calls = fromCodexTool(theirs, data.tool_input as Record<string, unknown>, cwd);
      const result = fromProtocolToolResponse('codex', theirs, data.tool_response);
      return toolEvents(calls, data.tool_use_id as string, (call, id) =>
        seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments, result }),
      );
    }
    case 'Stop':
      return oneSeam(read, 'agent/turn-continuation', continuationPayload(data.last_assistant_message), { alreadyContinued: data.stop_hook_active === true });
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

function deny(reason: string): AgentAnswer {
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: safeText(reason) } });
}

const answer = answerBySeam({
  'agent/session-start': (start) => contextAnswer('SessionStart', start.additionalContext),
  'agent/prompt-submit': (prompt) =>
    prompt.action === 'block' ? jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) }) : contextAnswer('UserPromptSubmit', prompt.additionalContext),
  'tools/pre-execute': (pre) => {
    // allow = "no objection": Codex's own approval policy still applies.
    if (pre.action === 'allow') return NO_OPINION;
    if (pre.action === 'deny') return deny(pre.reason);
    // Codex rejects permissionDecision "ask"; nobody can be asked from a hook, so ask is a deny.
    return deny(askAsDeny('Codex hooks', pre.reason));
  },
  'tools/post-execute': (post) => {
    if (post.action === 'block') return jsonAnswer({ decision: 'block', reason: safeText(post.reason) });
    const specific = post.additionalContext === undefined ? {} : { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: safeContext(post.additionalContext) } };
    // Codex shows a blocking PostToolUse's reason to the model in place of the tool output:
    // that is how a replaced (e.g. redacted) output reaches it.
    if (post.content !== undefined) return jsonAnswer({ decision: 'block', reason: safeContext(post.content === '' ? WITHHELD_OUTPUT : post.content), ...specific });
    return post.additionalContext === undefined ? NO_OPINION : jsonAnswer(specific);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? CONTINUE_REASON) })),
});

/**
 * Fail closed in Codex's terms, as JSON on exit 0: deny a tool call, block a
 * prompt or a result. A Stop or SessionStart that cannot be decided is let
 * through (forcing a turn on, or failing start-up, is not a safe default).
 * An event whose name cannot be read gets exit 2 + stderr (Codex blocks on it).
 */
const block = (text: string): AgentAnswer => jsonAnswer({ decision: 'block', reason: text });
const failClosed = failClosedBy({
  PreToolUse: deny,
  UserPromptSubmit: block,
  PostToolUse: block,
  Stop: 'let-through',
  SessionStart: 'let-through',
});

/** OpenAI's Codex CLI (`codex`, 0.169.x): command hooks in `hooks.json`, trusted in `config.toml`. */
export const codexBridge: AgentBridge = {
  name: 'codex',
  label: 'Codex',
  events: CODEX_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  failClosed,
  setup: codexSetup,
};
