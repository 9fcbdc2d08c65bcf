import type { AgentAnswer, AgentBridge, AgentSeamEvent, ParsedAgentEvent } from '../agent-bridge.ts';
import { NO_OPINION, UNMAPPED_SEAM_ANSWERS, answerBySeam, continuationPayload, failClosedBy, jsonAnswer, seamEvent, toolEvents } from '../bridge-parts.ts';
import { invalidEvent, safeContext, safeText } from '../event-input.ts';
import { withheldResultText } from '../../loop/reactions.ts';
import { CLINE_EVENTS, CLINE_EVENT_SCHEMAS, ClineCommonSchema, type ClineEvent } from './protocol.ts';
import { clineProbe } from './probe.ts';
import { clineSetup } from './setup.ts';
import { fromClineResult, fromClineTool } from './tools.ts';

/**
 * Cline's hook file is named after its event, and setup names the event on
 * the file's command line too: the JSON's `hookName` (`tool_call`, …) is
 * never trusted to say which event it is. An event hookbox does not read
 * passes with no opinion; one without a name, or malformed, is `invalid`.
 */
function toSeam(input: unknown, named?: string): ParsedAgentEvent {
  if (named === undefined) return { kind: 'invalid', message: 'Cline events are named by their hook file: the hook command must name it (hookbox hook cline <event>)' };
  const common = ClineCommonSchema.safeParse(input);
  if (!common.success) return invalidEvent(common.error, named);
  const sessionId = common.data.taskId;
  const cwd = common.data.workspaceRoots[0]!;
  if (!Object.hasOwn(CLINE_EVENT_SCHEMAS, named)) return { kind: 'pass', event: named, sessionId, answer: NO_OPINION };
  const event = named as ClineEvent;
  const parsed = CLINE_EVENT_SCHEMAS[event].safeParse(input);
  if (!parsed.success) return invalidEvent(parsed.error, event);
  const one = <S extends AgentSeamEvent['seam']>(seam: S, payload: AgentSeamEvent<S>['payload']): ParsedAgentEvent => ({ kind: 'seam', event: seamEvent(event, sessionId, cwd, seam, payload) });
  switch (event) {
    case 'TaskStart':
      return one('agent/session-start', { source: 'startup' });
    case 'UserPromptSubmit':
      return one('agent/prompt-submit', { content: (parsed.data as { userPromptSubmit: { prompt: string } }).userPromptSubmit.prompt, source: 'api' });
    case 'PreToolUse': {
      const call = (parsed.data as { tool_call: { id: string; name: string; input?: unknown } }).tool_call;
      return toolEvents(fromClineTool(call.name, call.input, cwd), call.id, (ours, id) => seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: id, ...ours }));
    }
    case 'PostToolUse': {
      const data = parsed.data as { tool_result: { id: string; name: string; input?: unknown }; postToolUse: { result: string; success: boolean } };
      const result = fromClineResult(data.postToolUse.result, data.postToolUse.success);
      const calls = fromClineTool(data.tool_result.name, data.tool_result.input, cwd);
      return toolEvents(calls, data.tool_result.id, (ours, id) => seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: id, ...ours, result }));
    }
    case 'TaskComplete':
      return one('agent/turn-continuation', continuationPayload(undefined));
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
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
});

/**
 * Fail closed in Cline's terms, always JSON on exit 0: Cline reads a hook's
 * stdout whatever its exit code, and ignores (lets through) a hook whose
 * stdout is no JSON or that times out — so an exit 2 with a reason on stderr
 * would be an allow. The detached events are let through (Cline reads nothing there).
 */
const failClosed = failClosedBy({
  PreToolUse: cancel,
  PostToolUse: (text) => cancel(withheldResultText(text)),
  TaskStart: 'let-through',
  UserPromptSubmit: 'let-through',
  TaskComplete: 'let-through',
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
