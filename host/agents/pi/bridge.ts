import type { AgentBridge, ParsedAgentEvent } from '../agent-bridge.ts';
import { NO_OPINION, answerBySeam, continuationPayload, failClosedBy, oneSeam, readAgentEvent, sessionSource } from '../bridge-parts.ts';
import { PLUGIN_CAN_REPLACE, PLUGIN_CLOSED, pluginSeamAnswers } from '../plugin-answers.ts';
import { PI_EVENTS, PI_EVENT_SCHEMAS, type PiEvent } from './protocol.ts';
import { piProbe } from './probe.ts';
import { piSetup } from './setup.ts';
import { fromPiTool, fromPiToolResult } from './tools.ts';

function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, PI_EVENT_SCHEMAS);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as PiEvent) {
    case 'session_start':
      return oneSeam(read, 'agent/session-start', { source: sessionSource(data.reason === 'resume' ? 'resume' : 'startup') });
    case 'input':
      return oneSeam(read, 'agent/prompt-submit', { content: data.text as string, source: data.source === 'interactive' ? 'cli' : 'api' });
    case 'tool_call': {
      const call = fromPiTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      return oneSeam(read, 'tools/pre-execute', { toolCallId: data.tool_call_id as string, ...call });
    }
    case 'tool_result': {
      const call = fromPiTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      const result = fromPiToolResult(data.tool_name as string, data.content as { type: string; text?: unknown }[], data.is_error as boolean);
      return oneSeam(read, 'tools/post-execute', { toolCallId: data.tool_call_id as string, ...call, result });
    }
    case 'agent_end':
      return oneSeam(read, 'agent/turn-continuation', continuationPayload(data.last_assistant_text), { alreadyContinued: data.continued === true });
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

/**
 * Fail closed in pi's terms (the extension applies it): deny a tool call,
 * withhold a result, swallow a prompt. `agent_end` and `session_start` that
 * cannot be decided are let through (forcing a turn on, or failing start-up,
 * is not a safe default).
 */
const failClosed = failClosedBy({
  tool_call: PLUGIN_CLOSED.preTool,
  tool_result: PLUGIN_CLOSED.postTool,
  input: PLUGIN_CLOSED.prompt,
  agent_end: 'let-through',
  session_start: 'let-through',
});

/** pi (`@mariozechner/pi-coding-agent`, 0.73.x): hookbox's extension in `.pi/extensions/`, asking `hookbox serve`. */
export const piBridge: AgentBridge<'pi'> = {
  name: 'pi',
  label: 'pi',
  events: PI_EVENTS,
  canReplace: PLUGIN_CAN_REPLACE,
  toSeam,
  answer: answerBySeam(pluginSeamAnswers('pi')),
  failClosed,
  setup: piSetup,
  probe: piProbe,
};
