import type { AgentAnswer, AgentBridge } from '../agent-bridge.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  WITHHELD_OUTPUT,
  answerBySeam,
  type ReadAgentEvent,
  continuationPayload,
  failClosedBy,
  jsonAnswer,
  oneSeam,
  promptEvent,
  sessionStartEvent,
  toSeamBy,
  toolCallIdFromCall,
} from '../bridge-parts.ts';
import { safeContext, safeText } from '../event-input.ts';
import { unappliedRewriteText, withheldResultText } from '../../loop/reactions.ts';
import { joinContext } from '../../seams/index.ts';
import { COPILOT_LIFECYCLE_ANSWERS, COPILOT_LIFECYCLE_CLOSED, COPILOT_LIFECYCLE_READERS } from './lifecycle.ts';
import { COPILOT_EVENTS, COPILOT_EVENT_SCHEMAS, COPILOT_SEAM_EVENTS, copilotFrame } from './protocol.ts';
import { copilotProbe } from './probe.ts';
import { copilotSetup } from './setup.ts';
import { rewriteBackBy } from '../rewrite-back.ts';
import { COPILOT_REWRITES, fromCopilotResult, fromCopilotTool } from './tools.ts';

const rewriteBack = rewriteBackBy(COPILOT_REWRITES);

/** A tool's arguments as Copilot sent them: an object, or (as some versions send) its JSON text; anything else is no arguments. */
function toolArgs(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // not JSON: no arguments to read
    }
  }
  return {};
}

/** A tool event's call: Copilot sends no call id, so pre and post of one call get the same one from the call itself. */
function toolCall(read: ReadAgentEvent) {
  const theirs = read.data.toolName as string;
  const args = toolArgs(read.data.toolArgs);
  return { toolCallId: toolCallIdFromCall('copilot', theirs, args), ...fromCopilotTool(theirs, args, read.cwd) };
}

/**
 * Copilot's events, named by the hook's command line (`copilotFrame`). An
 * event hookbox does not read passes with no opinion; one without a name, or
 * malformed, is `invalid` (and fails closed).
 */
const toSeam = toSeamBy(
  COPILOT_SEAM_EVENTS,
  COPILOT_EVENT_SCHEMAS,
  {
    sessionStart: sessionStartEvent,
    userPromptSubmitted: promptEvent,
    preToolUse: (read) =>
      oneSeam(read, 'tools/pre-execute', toolCall(read), { agentCall: { toolName: read.data.toolName as string, input: toolArgs(read.data.toolArgs) } }),
    postToolUse: (read) =>
      oneSeam(read, 'tools/post-execute', { ...toolCall(read), result: fromCopilotResult(read.data.toolResult as { resultType: string; textResultForLlm: string }) }),
    postToolUseFailure: (read) => oneSeam(read, 'tools/post-execute', { ...toolCall(read), result: { content: read.data.error as string, isError: true } }),
    agentStop: (read) =>
      oneSeam(read, 'agent/turn-continuation', continuationPayload(undefined), { alreadyContinued: read.data.stop_hook_active === true || read.data.stopHookActive === true }),
    ...COPILOT_LIFECYCLE_READERS,
  },
  copilotFrame,
);

/** What the model is told when a hook replaced a failed call's output, which Copilot cannot take. */
const FAILED_NOT_REPLACED = 'a hookbox hook replaced the output of this failed call, and Copilot CLI cannot replace a failed call\'s output';

/** The flat pre-tool answer Copilot reads (a `hookSpecificOutput` is ignored there: the call runs). */
function permission(decision: 'deny' | 'ask', reason: string): AgentAnswer {
  return jsonAnswer({ permissionDecision: decision, permissionDecisionReason: safeText(reason) });
}

/** A postToolUse result replaced by `text` (what the model reads in place of the output). */
function replaced(text: string, isError: boolean, additionalContext?: string): AgentAnswer {
  return jsonAnswer({
    modifiedResult: { resultType: isError ? 'failure' : 'success', textResultForLlm: text },
    ...(additionalContext !== undefined && { additionalContext: safeContext(additionalContext) }),
  });
}

function context(additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : jsonAnswer({ additionalContext: safeContext(additionalContext) });
}

const answer = answerBySeam({
  'agent/session-start': (start) => context(start.additionalContext),
  'agent/prompt-submit': (prompt) => {
    if (prompt.action === 'block') return jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) });
    if (prompt.content === undefined) return context(prompt.additionalContext);
    return jsonAnswer({ modifiedPrompt: safeContext(prompt.content), ...(prompt.additionalContext !== undefined && { additionalContext: safeContext(prompt.additionalContext) }) });
  },
  'tools/pre-execute': (pre, event) => {
    if (pre.action === 'allow' && pre.arguments !== undefined) {
      // modifiedArgs are the tool's whole arguments, every key Copilot sent kept; no permissionDecision, as for any allow.
      const back = rewriteBack(event, pre.arguments);
      return back.kind === 'deny' ? permission('deny', unappliedRewriteText('Copilot CLI', pre.arguments, back.why)) : jsonAnswer({ modifiedArgs: back.input });
    }
    // hookbox's allow is "no objection": answering "allow" would skip Copilot's own permission rules.
    if (pre.action === 'allow') return NO_OPINION;
    return permission(pre.action, pre.reason ?? (pre.action === 'ask' ? 'a hookbox hook asks for confirmation' : 'denied by a hookbox hook'));
  },
  'tools/post-execute': (post, event) => {
    // A failed call's result cannot be replaced (Copilot reads only additionalContext there): what is left is to say so.
    if (event.event === 'postToolUseFailure') {
      if (post.action === 'block') return context(withheldResultText(post.reason));
      if (post.content !== undefined) return context(joinContext(FAILED_NOT_REPLACED, post.additionalContext));
      return context(post.additionalContext);
    }
    if (post.action === 'block') return replaced(safeText(withheldResultText(post.reason)), true);
    if (post.content !== undefined) return replaced(post.content === '' ? WITHHELD_OUTPUT : safeContext(post.content), event.payload.result.isError, post.additionalContext);
    return context(post.additionalContext);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? CONTINUE_REASON) })),
  ...COPILOT_LIFECYCLE_ANSWERS,
});

/**
 * Fail closed in Copilot's terms, always as JSON on exit 0 (an http hook
 * reads only that): deny a tool call, block a prompt, withhold a result. A
 * failed call's result cannot be withheld (only context is read there);
 * agentStop and sessionStart are let through (forcing a turn on, or failing
 * start-up, is not a safe default). An unnamed event gets exit 2, which
 * Copilot reads as a deny on preToolUse.
 */
const failClosed = failClosedBy(COPILOT_SEAM_EVENTS, {
  preToolUse: (text) => permission('deny', text),
  userPromptSubmitted: (text) => jsonAnswer({ decision: 'block', reason: text }),
  postToolUse: (text) => replaced(withheldResultText(text), true),
  postToolUseFailure: (text) => jsonAnswer({ additionalContext: withheldResultText(text) }),
  agentStop: 'let-through',
  sessionStart: 'let-through',
  ...COPILOT_LIFECYCLE_CLOSED,
});

/** GitHub Copilot CLI (`copilot`, 1.0.x) in its own hook format: command hooks in `.github/hooks/hookbox.json`. */
export const copilotBridge: AgentBridge<'copilot'> = {
  name: 'copilot',
  label: 'Copilot CLI',
  events: COPILOT_EVENTS,
  eventOnCommandLine: true,
  canReplace: { prompt: true, toolResult: true },
  toSeam,
  answer,
  failClosed,
  projectDirVariable: 'COPILOT_PROJECT_DIR',
  setup: copilotSetup,
  probe: copilotProbe,
  rewriteBack,
};
