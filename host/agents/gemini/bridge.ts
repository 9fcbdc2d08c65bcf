import type { AgentAnswer, AgentBridge, ParsedAgentEvent } from '../agent-bridge.ts';
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
} from '../bridge-parts.ts';
import { GEMINI_EVENTS, GEMINI_EVENT_SCHEMAS, type GeminiEvent } from './protocol.ts';
import { geminiProbe } from './probe.ts';
import { safeContext, safeText } from '../event-input.ts';
import { geminiSetup } from './setup.ts';
import { fromGeminiTool, fromGeminiToolResponse } from './tools.ts';



function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, GEMINI_EVENT_SCHEMAS);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as GeminiEvent) {
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
export const geminiBridge: AgentBridge<'gemini'> = {
  name: 'gemini',
  label: 'Gemini CLI',
  events: GEMINI_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  failClosed,
  projectDirVariable: 'GEMINI_PROJECT_DIR',
  setup: geminiSetup,
  probe: geminiProbe,
};
