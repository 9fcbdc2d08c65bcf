import type { ToolResult } from '../../seams/index.ts';
import type { AgentBridge, AgentEventMapping, AgentProbe, AgentSetup, ParsedAgentEvent } from '../agent-bridge.ts';
import { NO_OPINION, answerBySeam, continuationPayload, failClosedBy, oneSeam, readAgentEvent } from '../bridge-parts.ts';
import { PLUGIN_CAN_REPLACE, PLUGIN_CLOSED, pluginSeamAnswers } from '../plugin-answers.ts';
import type { OurToolCall } from '../tool-names.ts';
import { OPENCODE_EVENTS, OPENCODE_EVENT_SCHEMAS, type OpenCodeEvent } from './protocol.ts';
import { openCodeProbe } from './probe.ts';
import { openCodeSetup } from './setup.ts';
import { fromOpenCodeTool, fromOpenCodeToolOutput } from './tools.ts';

/**
 * What sets one agent of OpenCode's plugin API apart (OpenCode, Kilo CLI):
 * its tools, its event table's words, its setup. The events hookbox's plugin
 * sends, their schemas, the answers and the fail-closed forms are the API's,
 * shared.
 */
export interface OpenCodeDialect<N extends string> {
  readonly name: N;
  readonly label: string;
  /** The agent's rows of the API's event table (the README's, `setup`'s output). */
  readonly events: readonly AgentEventMapping[];
  /** One of the agent's tool calls → the hookbox call hooks decide on (its closed-world table). */
  fromTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall;
  readonly setup: AgentSetup;
  readonly probe: AgentProbe;
}

function toSeamFor(dialect: OpenCodeDialect<string>, input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, OPENCODE_EVENT_SCHEMAS);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as OpenCodeEvent) {
    case 'session.created':
      return oneSeam(read, 'agent/session-start', { source: 'startup' });
    case 'chat.message':
      return oneSeam(read, 'agent/prompt-submit', { content: data.text as string, source: 'api' });
    case 'tool.execute.before': {
      const call = dialect.fromTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      return oneSeam(read, 'tools/pre-execute', { toolCallId: data.tool_call_id as string, ...call });
    }
    case 'tool.execute.after': {
      const call = dialect.fromTool(data.tool_name as string, data.input as Record<string, unknown>, cwd);
      const result: ToolResult = fromOpenCodeToolOutput(data.tool_name as string, data.output as string, data.exit_code as number | undefined);
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

/** The bridge of one agent of OpenCode's plugin API. */
export function openCodeFormatBridge<N extends string>(dialect: OpenCodeDialect<N>): AgentBridge<N> {
  return {
    name: dialect.name,
    label: dialect.label,
    events: dialect.events,
    canReplace: PLUGIN_CAN_REPLACE,
    toSeam: (input) => toSeamFor(dialect, input),
    answer: answerBySeam(pluginSeamAnswers(dialect.label)),
    failClosed,
    setup: dialect.setup,
    probe: dialect.probe,
  };
}

/** OpenCode (`opencode-ai`, 1.18.x): hookbox's plugin in `.opencode/plugin/`, asking `hookbox serve`. */
export const openCodeBridge: AgentBridge<'opencode'> = openCodeFormatBridge({
  name: 'opencode',
  label: 'OpenCode',
  events: OPENCODE_EVENTS,
  fromTool: fromOpenCodeTool,
  setup: openCodeSetup,
  probe: openCodeProbe,
});
