import * as z from 'zod';
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
  sessionSource,
  toolCallIdFromCall,
} from './bridge-parts.ts';
import { safeContext, safeText } from './event-input.ts';
import { geminiSetup } from './gemini-setup.ts';
import { fromGeminiTool, fromGeminiToolResponse } from './gemini-tools.ts';

/**
 * Gemini CLI's hook events hookbox answers, and what each decision becomes
 * (measured against the real `gemini` 0.61.0: see host/bridges/agents/README.md).
 * The one table: the README's copy is checked against it by a test.
 */
export const GEMINI_EVENTS: readonly AgentEventMapping[] = [
  { event: 'SessionStart', seam: 'agent/session-start', answers: 'context → `hookSpecificOutput.additionalContext` (headless: prepended to the prompt)' },
  {
    event: 'BeforeAgent',
    seam: 'agent/prompt-submit',
    answers:
      'block → `decision: "deny"` + reason (the turn is dropped, the model is never called); context → `additionalContext`; a rewrite → block with the reason (Gemini CLI cannot take a rewritten prompt)',
  },
  {
    event: 'BeforeTool',
    seam: 'tools/pre-execute',
    answers:
      'deny → `decision: "deny"` + reason (the model reads `{"error": "Tool execution blocked: <reason>"}`); ask → deny (a hook cannot ask); allow → no answer',
  },
  {
    event: 'AfterTool',
    seam: 'tools/post-execute',
    answers:
      'block → `decision: "deny"` + reason (the model reads `{"error": <reason>}` in place of the output); replaced content → the same, the content (and any context) as the reason; context → `additionalContext`',
  },
  {
    event: 'AfterAgent',
    seam: 'agent/turn-continuation',
    answers: 'continue {reason} → `decision: "deny"` + reason (Gemini retries with the reason as the next prompt; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
  },
];

const ToolFields = { tool_name: z.string().min(1), tool_input: z.record(z.string(), z.unknown()) };
const EventSchemas = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  BeforeAgent: z.looseObject({ prompt: z.string() }),
  BeforeTool: z.looseObject(ToolFields),
  AfterTool: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  AfterAgent: z.looseObject({ prompt_response: z.string().optional(), stop_hook_active: z.boolean().optional() }),
} as const;
type EventName = keyof typeof EventSchemas;

function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, EventSchemas);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as EventName) {
    case 'SessionStart':
      return oneSeam(read, 'agent/session-start', { source: sessionSource(data.source) });
    case 'BeforeAgent':
      return oneSeam(read, 'agent/prompt-submit', { content: data.prompt as string, source: 'api' });
    case 'BeforeTool': {
      const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return oneSeam(read, 'tools/pre-execute', { toolCallId: toolCallIdFromCall('gemini', data.tool_name as string, data.tool_input), ...call });
    }
    case 'AfterTool': {
      const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      const result = fromGeminiToolResponse(data.tool_name as string, data.tool_response);
      return oneSeam(read, 'tools/post-execute', { toolCallId: toolCallIdFromCall('gemini', data.tool_name as string, data.tool_input), ...call, result });
    }
    case 'AfterAgent':
      return oneSeam(read, 'agent/turn-continuation', continuationPayload(data.prompt_response), { alreadyContinued: data.stop_hook_active === true });
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

function deny(reason: string, multiLine = false): AgentAnswer {
  return jsonAnswer({ decision: 'deny', reason: multiLine ? safeContext(reason) : safeText(reason) });
}

const answer = answerBySeam({
  'agent/session-start': (start) => contextAnswer('SessionStart', start.additionalContext),
  'agent/prompt-submit': (prompt) => (prompt.action === 'block' ? deny(prompt.reason) : contextAnswer('BeforeAgent', prompt.additionalContext)),
  'tools/pre-execute': (pre) => {
    if (pre.action === 'allow') return NO_OPINION;
    if (pre.action === 'deny') return deny(pre.reason);
    return deny(askAsDeny('a Gemini CLI hook', pre.reason));
  },
  'tools/post-execute': (post) => {
    if (post.action === 'block') return deny(post.reason);
    // Gemini replaces the tool's output with a deny's reason (shown to the model as an error);
    // it drops additionalContext on a deny, so the context rides in the reason.
    if (post.content !== undefined) {
      const withContext = post.additionalContext === undefined ? post.content : `${post.content}\n\n${post.additionalContext}`;
      return deny(withContext === '' ? WITHHELD_OUTPUT : withContext, true);
    }
    return contextAnswer('AfterTool', post.additionalContext);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : deny(next.reason ?? CONTINUE_REASON)),
});

/**
 * Fail closed in Gemini CLI's terms, as JSON on exit 0: deny a tool call,
 * block a prompt or a result. AfterAgent and SessionStart that cannot be
 * decided are let through (forcing a retry, or failing start-up, is not a
 * safe default). An event whose name cannot be read gets exit 2 + stderr.
 */
const failClosed = failClosedBy({
  BeforeTool: (text) => deny(text),
  BeforeAgent: (text) => deny(text),
  AfterTool: (text) => deny(text),
  AfterAgent: 'let-through',
  SessionStart: 'let-through',
});

/** Google's Gemini CLI (`gemini`, 0.61.x): command hooks in `settings.json`. */
export const geminiBridge: AgentBridge = {
  name: 'gemini',
  label: 'Gemini CLI',
  events: GEMINI_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  failClosed,
  setup: geminiSetup,
};
