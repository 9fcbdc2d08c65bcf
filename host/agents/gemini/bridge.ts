import type { AgentAnswer, AgentBridge } from '../agent-bridge.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  WITHHELD_OUTPUT,
  answerBySeam,
  askAsDeny,
  contextAnswer,
  failClosedBy,
  jsonAnswer,
  oneSeam,
  promptEvent,
  sessionStartAnswer,
  sessionStartEvent,
  stopEvent,
  toSeamBy,
  toolCallIdFromCall,
} from '../bridge-parts.ts';
import { claudeNamedLifecycleAnswers } from '../lifecycle-answers.ts';
import { notificationEvent, preCompactEvent, sessionEndEvent } from '../lifecycle-events.ts';
import { GEMINI_EVENTS, GEMINI_EVENT_SCHEMAS, GEMINI_SEAM_EVENTS } from './protocol.ts';
import { geminiProbe } from './probe.ts';
import { safeContext, safeText } from '../event-input.ts';
import { geminiSetup } from './setup.ts';
import { unappliedRewriteText } from '../../loop/reactions.ts';
import { rewriteBackBy } from '../rewrite-back.ts';
import { GEMINI_REWRITES, fromGeminiTool, fromGeminiToolResponse } from './tools.ts';

const rewriteBack = rewriteBackBy(GEMINI_REWRITES);

/** Gemini CLI's events: its tool events carry no call id, so one is derived from the call. */
const toSeam = toSeamBy(GEMINI_SEAM_EVENTS, GEMINI_EVENT_SCHEMAS, {
  SessionStart: sessionStartEvent,
  BeforeAgent: promptEvent,
  BeforeTool: (read) => {
    const { cwd, data } = read;
    const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
    const agentCall = { toolName: data.tool_name as string, input: data.tool_input as Record<string, unknown> };
    return oneSeam(read, 'tools/pre-execute', { toolCallId: toolCallIdFromCall('gemini', data.tool_name as string, data.tool_input), ...call }, { agentCall });
  },
  AfterTool: (read) => {
    const { cwd, data } = read;
    const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
    const result = fromGeminiToolResponse(data.tool_name as string, data.tool_response);
    return oneSeam(read, 'tools/post-execute', { toolCallId: toolCallIdFromCall('gemini', data.tool_name as string, data.tool_input), ...call, result });
  },
  AfterAgent: stopEvent('prompt_response'),
  SessionEnd: sessionEndEvent,
  PreCompress: preCompactEvent,
  Notification: notificationEvent,
});

function deny(reason: string, multiLine = false): AgentAnswer {
  return jsonAnswer({ decision: 'deny', reason: multiLine ? safeContext(reason) : safeText(reason) });
}

const answer = answerBySeam({
  'agent/session-start': sessionStartAnswer,
  'agent/prompt-submit': (prompt) => (prompt.action === 'block' ? deny(prompt.reason) : contextAnswer('BeforeAgent', prompt.additionalContext)),
  'tools/pre-execute': (pre, event) => {
    if (pre.action === 'allow' && pre.arguments !== undefined) {
      // Gemini merges tool_input over the call's arguments: the full input goes, every key the agent sent kept.
      const back = rewriteBack(event, pre.arguments);
      if (back.kind === 'deny') return deny(unappliedRewriteText('Gemini CLI', pre.arguments, back.why));
      return jsonAnswer({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: back.input } });
    }
    if (pre.action === 'allow') return NO_OPINION;
    if (pre.action === 'deny') return deny(pre.reason);
    return deny(askAsDeny('a Gemini CLI hook', pre.reason));
  },
  'tools/post-execute': (post) => {
    if (post.action === 'block') return deny(post.reason);
    // Gemini replaces the tool's output with a deny's reason (shown to the model as an error);
    // it drops additionalContext on a deny, so the context rides in the reason.
    if (post.content !== undefined) {
      // Emptied output is said to be withheld, with or without context after it.
      const shown = post.content === '' ? WITHHELD_OUTPUT : post.content;
      return deny(post.additionalContext === undefined ? shown : `${shown}\n\n${post.additionalContext}`, true);
    }
    return contextAnswer('AfterTool', post.additionalContext);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : deny(next.reason ?? CONTINUE_REASON)),
  // SessionEnd and Notification are heard only; PreCompress is advisory (Gemini compresses anyway): no block to write.
  ...claudeNamedLifecycleAnswers('none'),
});

/**
 * Fail closed in Gemini CLI's terms, as JSON on exit 0: deny a tool call,
 * block a prompt or a result. AfterAgent and SessionStart that cannot be
 * decided are let through (forcing a retry, or failing start-up, is not a
 * safe default). An event whose name cannot be read gets exit 2 + stderr.
 */
const failClosed = failClosedBy(GEMINI_SEAM_EVENTS, {
  BeforeTool: (text) => deny(text),
  BeforeAgent: (text) => deny(text),
  AfterTool: (text) => deny(text),
  AfterAgent: 'let-through',
  SessionStart: 'let-through',
  SessionEnd: 'let-through',
  PreCompress: 'let-through',
  Notification: 'let-through',
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
  rewriteBack,
};
