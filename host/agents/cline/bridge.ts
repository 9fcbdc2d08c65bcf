import type { AgentAnswer, AgentBridge, ParsedAgentEvent } from '../agent-bridge.ts';
import type { PayloadOf } from '../../seams/index.ts';
import { NO_OPINION, type ReadAgentEvent, UNMAPPED_SEAM_ANSWERS, answerBySeam, failClosedBy, jsonAnswer, oneSeam, seamEvent, toSeamBy, toolEvents } from '../bridge-parts.ts';
import { safeContext, safeText } from '../event-input.ts';
import { withheldResultText } from '../../loop/reactions.ts';
import { CLINE_EVENTS, CLINE_EVENT_SCHEMAS, CLINE_SEAM_EVENTS, clineFrame } from './protocol.ts';
import { clineProbe } from './probe.ts';
import { clineSetup } from './setup.ts';
import { fromClineResult, fromClineTool } from './tools.ts';

/** Cline's events, named by their hook file's command line (`clineFrame`); a tool event can be several hookbox calls. */
const toSeam = toSeamBy(
  CLINE_SEAM_EVENTS,
  CLINE_EVENT_SCHEMAS,
  {
    TaskStart: (read) => oneSeam(read, 'agent/session-start', { source: 'startup' }),
    UserPromptSubmit: (read) => oneSeam(read, 'agent/prompt-submit', { content: (read.data as { userPromptSubmit: { prompt: string } }).userPromptSubmit.prompt, source: 'api' }),
    PreToolUse: ({ event, sessionId, cwd, data }) => {
      const call = (data as { tool_call: { id: string; name: string; input?: unknown } }).tool_call;
      return toolEvents(fromClineTool(call.name, call.input, cwd), call.id, (ours, id) => seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: id, ...ours }));
    },
    PostToolUse: ({ event, sessionId, cwd, data }) => {
      const { tool_result: call, postToolUse } = data as { tool_result: { id: string; name: string; input?: unknown }; postToolUse: { result: string; success: boolean } };
      const result = fromClineResult(postToolUse.result, postToolUse.success);
      const calls = fromClineTool(call.name, call.input, cwd);
      return toolEvents(calls, call.id, (ours, id) => seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: id, ...ours, result }));
    },
    TaskComplete: (read) => taskEnd(read, 'exit'),
    SessionShutdown: (read) => taskEnd(read, /fail|error/i.test((read.data as { reason?: string }).reason ?? '') ? 'error' : 'other'),
  },
  clineFrame,
);

/**
 * The task (hookbox's session) is over: completed (TaskComplete) or shut
 * down (SessionShutdown; headless, after a hook cancelled it). A subagent's
 * own end (`parent_agent_id` set, read from Cline's code, not run here) is
 * not the session's: it passes with no opinion.
 */
function taskEnd(read: ReadAgentEvent, reason: PayloadOf<'agent/session-end'>['reason']): ParsedAgentEvent {
  const parent = (read.data as { parent_agent_id?: string | null }).parent_agent_id;
  if (typeof parent === 'string' && parent !== '') return { kind: 'pass', event: read.event, sessionId: read.sessionId, answer: NO_OPINION };
  return oneSeam(read, 'agent/session-end', { reason });
}

/** The one control Cline takes on a tool event: stop the task, the reason in `errorMessage` (shown to the user; the model is not called again). */
function cancel(reason: string): AgentAnswer {
  return jsonAnswer({ cancel: true, errorMessage: safeText(reason) });
}

function context(additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : jsonAnswer({ contextModification: safeContext(additionalContext) });
}

/** Why a replaced result ends the task: Cline 3.0.65 takes no replaced output from a hook file. */
const NOT_REPLACED = 'a hookbox hook replaced this tool output, and Cline cannot take a replaced output: the task was stopped so the original never reaches the model';

const answer = answerBySeam({
  ...UNMAPPED_SEAM_ANSWERS,
  // Detached in Cline (measured): nothing it would read.
  'agent/session-start': () => NO_OPINION,
  'agent/prompt-submit': () => NO_OPINION,
  'tools/pre-execute': (pre) => (pre.action === 'allow' ? NO_OPINION : cancel(pre.reason ?? (pre.action === 'ask' ? 'a hookbox hook asks for confirmation, which Cline cannot ask headless' : 'denied by a hookbox hook'))),
  'tools/post-execute': (post) => {
    if (post.action === 'block') return cancel(withheldResultText(post.reason));
    if (post.content !== undefined) return cancel(NOT_REPLACED);
    return context(post.additionalContext);
  },
  'agent/turn-continuation': () => NO_OPINION,
  'agent/session-end': () => NO_OPINION,
});

/**
 * Fail closed in Cline's terms, always JSON on exit 0: Cline reads a hook's
 * stdout whatever its exit code, and ignores (lets through) a hook whose
 * stdout is no JSON or that times out — so an exit 2 with a reason on stderr
 * would be an allow. The detached events are let through (Cline reads nothing there; a session's end has nothing to close).
 */
const failClosed = failClosedBy(CLINE_SEAM_EVENTS, {
  PreToolUse: cancel,
  PostToolUse: (text) => cancel(withheldResultText(text)),
  TaskStart: 'let-through',
  UserPromptSubmit: 'let-through',
  TaskComplete: 'let-through',
  SessionShutdown: 'let-through',
});

/** Cline CLI (`cline`, 3.0.x) in its own hook format: an executable file per event in `.clinerules/hooks/`. */
export const clineBridge: AgentBridge<'cline'> = {
  name: 'cline',
  label: 'Cline CLI',
  events: CLINE_EVENTS,
  eventOnCommandLine: true,
  // Neither a prompt nor a result can be replaced: the server degrades a rewrite to a block, which ends the task here.
  canReplace: { prompt: false, toolResult: false },
  toSeam,
  answer,
  failClosed,
  setup: clineSetup,
  probe: clineProbe,
};
