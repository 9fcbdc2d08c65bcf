import type { ToolResult } from '../../seams/index.ts';
import type { AgentBridge, AgentProbe, AgentSetup } from '../agent-bridge.ts';
import { type AnyEventTable, type EventReaders, type ReadAgentEvent, answerBySeam, continuationPayload, eventRows, failClosedBy, oneSeam, toSeamBy } from '../bridge-parts.ts';
import { PLUGIN_CAN_REPLACE, PLUGIN_CLOSED, pluginSeamAnswers } from '../plugin-answers.ts';
import type { OurToolCall } from '../tool-names.ts';
import { OPENCODE_EVENT_SCHEMAS, OPENCODE_SEAM_EVENTS, type OpenCodeEvent } from './protocol.ts';
import { openCodeProbe } from './probe.ts';
import { openCodeSetup } from './setup.ts';
import { OPENCODE_REWRITES, fromOpenCodeTool, fromOpenCodeToolOutput } from './tools.ts';
import { rewriteBackBy } from '../rewrite-back.ts';
import type { RewriteWay } from '../tool-rewrite.ts';

/**
 * What sets one agent of OpenCode's plugin API apart (OpenCode, Kilo CLI):
 * its tools, its event table's words, its setup. The events hookbox's plugin
 * sends, their schemas, the answers and the fail-closed forms are the API's,
 * shared.
 */
export interface OpenCodeDialect<N extends string> {
  readonly name: N;
  readonly label: string;
  /** The agent's protocol table: the API's events it sends (only these are read); every seam is checked where it is written. */
  readonly table: AnyEventTable<OpenCodeEvent>;
  /** One of the agent's tool calls → the hookbox call hooks decide on (its closed-world table). */
  fromTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall;
  /** The way back of a rewrite, per tool of the agent's (the plugin replaces `output.args`). */
  readonly rewrites: Readonly<Record<string, RewriteWay>>;
  readonly setup: AgentSetup;
  readonly probe: AgentProbe;
}

/** The API's reader of each of its events; a tool event's call through the dialect's tool table. */
function readersFor(dialect: OpenCodeDialect<string>): EventReaders<OpenCodeEvent> {
  const call = (read: ReadAgentEvent) => ({
    toolCallId: read.data.tool_call_id as string,
    ...dialect.fromTool(read.data.tool_name as string, read.data.input as Record<string, unknown>, read.cwd),
  });
  return {
    'session.created': (read) => oneSeam(read, 'agent/session-start', { source: 'startup' }),
    'chat.message': (read) => oneSeam(read, 'agent/prompt-submit', { content: read.data.text as string, source: 'api' }),
    'tool.execute.before': (read) =>
      oneSeam(read, 'tools/pre-execute', call(read), { agentCall: { toolName: read.data.tool_name as string, input: read.data.input as Record<string, unknown> } }),
    'tool.execute.after': (read) => {
      const { data } = read;
      const result: ToolResult = fromOpenCodeToolOutput(data.tool_name as string, data.output as string, data.exit_code as number | undefined);
      return oneSeam(read, 'tools/post-execute', { ...call(read), result });
    },
    'session.idle': (read) => oneSeam(read, 'agent/turn-continuation', continuationPayload(undefined), { alreadyContinued: read.data.continued === true }),
  };
}

/**
 * Fail closed in OpenCode's terms (the plugin applies it): deny a tool call
 * (throw), withhold a result, block a prompt (throw). `session.idle` and
 * `session.created` that cannot be decided are let through.
 */
function failClosedFor(dialect: OpenCodeDialect<string>): AgentBridge['failClosed'] {
  return failClosedBy(dialect.table, {
    'tool.execute.before': PLUGIN_CLOSED.preTool,
    'tool.execute.after': PLUGIN_CLOSED.postTool,
    'chat.message': PLUGIN_CLOSED.prompt,
    'session.idle': 'let-through',
    'session.created': 'let-through',
  });
}

/** The bridge of one agent of OpenCode's plugin API. */
export function openCodeFormatBridge<N extends string>(dialect: OpenCodeDialect<N>): AgentBridge<N> {
  const rewriteBack = rewriteBackBy(dialect.rewrites);
  return {
    name: dialect.name,
    label: dialect.label,
    events: eventRows(dialect.table),
    canReplace: PLUGIN_CAN_REPLACE,
    toSeam: toSeamBy(dialect.table, OPENCODE_EVENT_SCHEMAS, readersFor(dialect)),
    answer: answerBySeam(pluginSeamAnswers(dialect.label, rewriteBack)),
    failClosed: failClosedFor(dialect),
    setup: dialect.setup,
    probe: dialect.probe,
    rewriteBack,
  };
}

/** OpenCode (`opencode-ai`, 1.18.x): hookbox's plugin in `.opencode/plugin/`, asking `hookbox serve`. */
export const openCodeBridge: AgentBridge<'opencode'> = openCodeFormatBridge({
  name: 'opencode',
  label: 'OpenCode',
  table: OPENCODE_SEAM_EVENTS,
  fromTool: fromOpenCodeTool,
  rewrites: OPENCODE_REWRITES,
  setup: openCodeSetup,
  probe: openCodeProbe,
});
