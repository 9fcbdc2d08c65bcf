import type { AgentBridge } from '../agent-bridge.ts';
import { type ReadAgentEvent, answerBySeam, continuationPayload, failClosedBy, oneSeam, sessionSource, toSeamBy } from '../bridge-parts.ts';
import { sessionEndEvent } from '../lifecycle-events.ts';
import { PLUGIN_CAN_REPLACE, PLUGIN_CLOSED, pluginSeamAnswers } from '../plugin-answers.ts';
import { PI_EVENTS, PI_EVENT_SCHEMAS, PI_SEAM_EVENTS } from './protocol.ts';
import { piProbe } from './probe.ts';
import { piSetup } from './setup.ts';
import { rewriteBackBy } from '../rewrite-back.ts';
import { PI_REWRITES, fromPiTool, fromPiToolResult } from './tools.ts';

const rewriteBack = rewriteBackBy(PI_REWRITES);

function piCall(read: ReadAgentEvent) {
  return fromPiTool(read.data.tool_name as string, read.data.input as Record<string, unknown>, read.cwd);
}

/** pi's events, as hookbox's extension forwards them. */
const toSeam = toSeamBy(PI_SEAM_EVENTS, PI_EVENT_SCHEMAS, {
  session_start: (read) => oneSeam(read, 'agent/session-start', { source: sessionSource(read.data.reason === 'resume' ? 'resume' : 'startup') }),
  input: (read) => oneSeam(read, 'agent/prompt-submit', { content: read.data.text as string, source: read.data.source === 'interactive' ? 'cli' : 'api' }),
  tool_call: (read) =>
    oneSeam(read, 'tools/pre-execute', { toolCallId: read.data.tool_call_id as string, ...piCall(read) }, { agentCall: { toolName: read.data.tool_name as string, input: read.data.input as Record<string, unknown> } }),
  tool_result: (read) => {
    const { data } = read;
    const result = fromPiToolResult(data.tool_name as string, data.content as { type: string; text?: unknown }[], data.is_error as boolean);
    return oneSeam(read, 'tools/post-execute', { toolCallId: data.tool_call_id as string, ...piCall(read), result });
  },
  agent_end: (read) => oneSeam(read, 'agent/turn-continuation', continuationPayload(read.data.last_assistant_text), { alreadyContinued: read.data.continued === true }),
  session_shutdown: sessionEndEvent,
  session_before_compact: (read) => {
    // pi passes instructions only from a person's `/compact <text>`; its auto-compaction passes none, and its event names no trigger.
    const instructions = read.data.custom_instructions as string | undefined;
    return oneSeam(read, 'agent/pre-compact', instructions !== undefined && instructions.trim() !== '' ? { trigger: 'manual', instructions } : { trigger: 'auto' });
  },
});

/**
 * Fail closed in pi's terms (the extension applies it): deny a tool call,
 * withhold a result, swallow a prompt. `agent_end` and `session_start` that
 * cannot be decided are let through (forcing a turn on, or failing start-up,
 * is not a safe default).
 */
const failClosed = failClosedBy(PI_SEAM_EVENTS, {
  tool_call: PLUGIN_CLOSED.preTool,
  tool_result: PLUGIN_CLOSED.postTool,
  input: PLUGIN_CLOSED.prompt,
  agent_end: 'let-through',
  session_start: 'let-through',
  session_shutdown: 'let-through',
  // A compaction that cannot be decided goes ahead: a blocked one would leave the context full (the seam fails toward the agent going on).
  session_before_compact: 'let-through',
});

/** pi (`@mariozechner/pi-coding-agent`, 0.73.x): hookbox's extension in `.pi/extensions/`, asking `hookbox serve`. */
export const piBridge: AgentBridge<'pi'> = {
  name: 'pi',
  label: 'pi',
  events: PI_EVENTS,
  canReplace: PLUGIN_CAN_REPLACE,
  toSeam,
  answer: answerBySeam(pluginSeamAnswers('pi', rewriteBack)),
  rewriteBack,
  failClosed,
  setup: piSetup,
  probe: piProbe,
};
