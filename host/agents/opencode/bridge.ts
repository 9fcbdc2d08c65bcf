import type { AgentBridge, ParsedAgentEvent } from '../agent-bridge.ts';
import { NO_OPINION, answerBySeam, continuationPayload, failClosedBy, oneSeam, readAgentEvent } from '../bridge-parts.ts';
import { PLUGIN_CAN_REPLACE, PLUGIN_CLOSED, pluginSeamAnswers } from '../plugin-answers.ts';
import { OPENCODE_EVENTS, OPENCODE_EVENT_SCHEMAS, type OpenCodeEvent } from './protocol.ts';
import { openCodeProbe } from './probe.ts';
import { openCodeSetup } from './setup.ts';
import { fromOpenCodeTool, fromOpenCodeToolOutput } from './tools.ts';

function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, OPENCODE_EVENT_SCHEMAS);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as OpenCodeEvent) {
    case 'session.created':
      return oneSeam(read, 'agent/session-start', { source: 'startup' });
    case 'chat.message':
      return oneSeam(read, 'agent/prompt-submit', { content: data.text as string, source: 'api' });
    case 'tool.execute.before': {
      const call = fromOpenCodeTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      return oneSeam(read, 'tools/pre-execute', { toolCallId: data.tool_call_id as string, ...call });
    }
    case 'tool.execute.after': {
      const call = fromOpenCodeTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      const result = fromOpenCodeToolOutput(data.tool_name as string, data.output as string, data.exit_code as number | undefined);
      return oneSeam(read, 'tools/post-execute', { toolCallId: data.tool_call_id as string, ...call, result });
    }
    case 'session.idle':
      return oneSeam(read, 'agent/turn-continuation', continuationPayload(undefined), { alreadyContinued: data.continued === true });
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

/**
 * Fail closed in OpenCode's terms (the plugin applies it): deny a tool call
 * (throw), withhold a result, block a prompt (throw). `session.idle` and
 * `session.created` that cannot be decided are let through.
 */
const failClosed = failClosedBy({
  'tool.execute.before': PLUGIN_CLOSED.preTool,
  'tool.execute.after': PLUGIN_CLOSED.postTool,
  'chat.message': PLUGIN_CLOSED.prompt,
  'session.idle': 'let-through',
  'session.created': 'let-through',
});

/** OpenCode (`opencode-ai`, 1.18.x; Kilo CLI is the same plugin API): hookbox's plugin in `.opencode/plugin/`, asking `hookbox serve`. */
export const openCodeBridge: AgentBridge<'opencode'> = {
  name: 'opencode',
  label: 'OpenCode',
  events: OPENCODE_EVENTS,
  canReplace: PLUGIN_CAN_REPLACE,
  toSeam,
  answer: answerBySeam(pluginSeamAnswers('OpenCode')),
  failClosed,
  setup: openCodeSetup,
  probe: openCodeProbe,
};
