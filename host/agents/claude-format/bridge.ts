import type { ToolResult } from '../../seams/index.ts';
import { fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentProbe, AgentSeamEvent, AgentSetup, ParsedAgentEvent } from '../agent-bridge.ts';
import type { OurToolCall } from '../tool-names.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  answerBySeam,
  contextAnswer,
  type AnyEventTable,
  type EventReaders,
  type ReadAgentEvent,
  eventRows,
  failClosedBy,
  jsonAnswer,
  oneSeam,
  promptEvent,
  sessionStartEvent,
  stopEvent,
  toSeamBy,
  toolCallIdFromCall,
} from '../bridge-parts.ts';
import { claudeFormatFrame, fromCopilotToolResult } from './copilot-shapes.ts';
import { claudeNamedLifecycleAnswers, claudePermissionAnswer } from '../lifecycle-answers.ts';
import { notificationEvent, permissionRequestEvent, preCompactEvent, sessionEndEvent, subagentStartEvent, subagentStopEvent } from '../lifecycle-events.ts';
import { CLAUDE_FORMAT_EVENT_SCHEMAS, type ClaudeFormatEvent, CopilotToolResultSchema } from './protocol.ts';
import { safeContext, safeText } from '../event-input.ts';
import { type RewriteBack, type RewriteWay, rewriteBack } from '../tool-rewrite.ts';
import { rewrittenCallNote, unappliedRewriteText } from '../../loop/reactions.ts';

/**
 * What sets one agent of the Claude hook format apart (Claude Code, Qwen
 * Code, Factory Droid): its tools, how it reports a result, which results
 * it takes back replaced, its settings. Events, their schemas, answers and
 * fail-closed forms are the format's, shared.
 */
export interface ClaudeFormatDialect<N extends string> {
  readonly name: N;
  readonly label: string;
  /**
   * The agent's protocol table: the format's events it sends (only these are
   * read), and what each decision becomes there. Every seam is checked where
   * the table is written (`satisfies SeamEventTable<ClaudeFormatEvent>`).
   */
  readonly table: AnyEventTable<ClaudeFormatEvent>;
  /** One of the agent's tool calls → the hookbox call hooks decide on (its closed-world table). */
  fromTool(toolName: string, input: Readonly<Record<string, unknown>>, cwd: string): OurToolCall;
  /** A PostToolUse `tool_response` → hookbox's result. */
  fromToolResponse(toolName: string, response: unknown): ToolResult;
  /**
   * Replaced tool output as the agent takes it (`updatedToolOutput`), for a
   * hookbox tool and the replacing content; undefined where it cannot (then
   * the replacement is a block). Absent: the agent takes none.
   */
  replacedOutput?(event: AgentSeamEvent<'tools/post-execute'>, content: string): Record<string, unknown> | undefined;
  /**
   * How each of the agent's tools takes a pre-tool rewrite back as
   * `updatedInput` (keyed by its tool table's names, tool-rewrite.ts), or one
   * way for every tool (a deny, where the agent's honouring of `updatedInput`
   * is not measured).
   */
  readonly rewrites: Readonly<Record<string, RewriteWay>> | RewriteWay;
  /** The hookbox tools `replacedOutput` answers for (what the server may leave a replacement to). */
  readonly replaceable: ReadonlySet<string>;
  /**
   * A UserPromptSubmit that is no prompt of the user's: the agent's own
   * follow-up before a model call that continues a turn (Qwen sends one with
   * an empty prompt after every tool result). Passed with no opinion — it
   * carries nothing to decide — and never starts a turn. Absent: none is.
   */
  isFollowUpPrompt?(prompt: string): boolean;
  readonly projectDirVariable?: string;
  readonly setup: AgentSetup;
  readonly probe: AgentProbe;
}

/** The event's `tool_use_id`, else one derived from the call (an agent of the Claude format that sends none). */
function toolCallId(agent: string, data: Record<string, unknown>): string {
  return typeof data.tool_use_id === 'string' && data.tool_use_id !== '' ? data.tool_use_id : toolCallIdFromCall(agent, data.tool_name as string, data.tool_input);
}

/** A PostToolUse result: the agent's `tool_response`, else Copilot CLI's `tool_result` (the schema holds one of them). */
function postResult(dialect: ClaudeFormatDialect<string>, toolName: string, data: Record<string, unknown>): ToolResult {
  if (data.tool_response !== undefined) return dialect.fromToolResponse(toolName, data.tool_response);
  return fromCopilotToolResult(CopilotToolResultSchema.parse(data.tool_result));
}

/** Claude Code's own reading of a `tool_response` (Bash's `{stdout, stderr}`, Read's `{file}`). */
export function claudeCodeToolResponse(toolName: string, response: unknown): ToolResult {
  return fromProtocolToolResponse('claude-code', toolName, response);
}

/** The format's reader of each of its events; a tool event's calls through the dialect's tool table. */
function readersFor(dialect: ClaudeFormatDialect<string>): EventReaders<ClaudeFormatEvent> {
  const toolCall = (read: ReadAgentEvent) => dialect.fromTool(read.data.tool_name as string, read.data.tool_input as Record<string, unknown>, read.cwd);
  const postToolUse = (read: ReadAgentEvent): ParsedAgentEvent => {
    const { event, data } = read;
    const result = event === 'PostToolUse' ? postResult(dialect, data.tool_name as string, data) : { content: data.error as string, isError: true };
    return oneSeam(read, 'tools/post-execute', { toolCallId: toolCallId(dialect.name, data), ...toolCall(read), result });
  };
  return {
    SessionStart: sessionStartEvent,
    UserPromptSubmit: (read) =>
      dialect.isFollowUpPrompt?.(read.data.prompt as string) === true ? { kind: 'pass', event: read.event, sessionId: read.sessionId, answer: NO_OPINION } : promptEvent(read),
    PreToolUse: (read) =>
      oneSeam(
        read,
        'tools/pre-execute',
        { toolCallId: toolCallId(dialect.name, read.data), ...toolCall(read) },
        { agentCall: { toolName: read.data.tool_name as string, input: read.data.tool_input as Record<string, unknown> } },
      ),
    PostToolUse: postToolUse,
    PostToolUseFailure: postToolUse,
    Stop: stopEvent('last_assistant_message'),
    SessionEnd: sessionEndEvent,
    PreCompact: preCompactEvent,
    SubagentStart: subagentStartEvent,
    SubagentStop: subagentStopEvent,
    PermissionRequest: permissionRequestEvent(dialect.name, dialect.fromTool),
    Notification: notificationEvent,
  };
}

/**
 * A blocked tool result. Measured with Claude Code 2.1.328: `decision:
 * "block"` on PostToolUse does not withhold anything — the model still gets
 * the tool's full output, with the reason appended as a system reminder. Only
 * `continue: false` keeps the output from the model (the turn ends before the
 * next model call), so a block ends the turn, with the reason as `stopReason`.
 * Measured in the other agents of the format: Copilot CLI 1.0.102 honours
 * `decision: "block"` (the model reads "Tool result blocked: <reason>" in
 * place of the output) and not `continue: false`; Qwen Code 0.24.4 the other
 * way round (the model reads `stopReason` in place of the output, the turn
 * goes on). The answer carries both, so each withholds.
 */
function withheld(reason: string): AgentAnswer {
  const text = safeText(reason);
  return jsonAnswer({ continue: false, stopReason: text, decision: 'block', reason: text });
}

function permission(decision: 'deny' | 'ask', reason: string): AgentAnswer {
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: safeText(reason) } });
}

/** A rewrite by the dialect's ways, onto the agent's call the event carried. */
function rewriteFor(dialect: ClaudeFormatDialect<string>, event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>): RewriteBack {
  if (event.agentCall === undefined) return { kind: 'deny', why: 'the event carried no tool call of the agent to rewrite' };
  const ways = 'kind' in dialect.rewrites ? { [event.agentCall.toolName]: dialect.rewrites as RewriteWay } : (dialect.rewrites as Readonly<Record<string, RewriteWay>>);
  return rewriteBack(ways, { call: event.agentCall, before: event.payload.arguments, after: args, cwd: event.cwd });
}

/**
 * A rewritten call the agent takes: `permissionDecision: "allow"` with the
 * agent's own input as `updatedInput` (Claude Code applies `updatedInput`
 * only with allow or ask, and ask cannot be answered in `-p` mode), and the
 * model's note (the one rule, "The model's view") as `additionalContext`.
 * The server asked `rewriteBack` first; a rewrite with no way back here is a
 * deny all the same (the backstop).
 */
function rewrittenAnswer(dialect: ClaudeFormatDialect<string>, event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>): AgentAnswer {
  const back = rewriteFor(dialect, event, args);
  if (back.kind === 'deny') return permission('deny', unappliedRewriteText(dialect.label, { ...args }, back.why));
  return jsonAnswer({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'rewritten by a hookbox hook',
      updatedInput: back.input,
      additionalContext: safeContext(rewrittenCallNote([], { ...args })),
    },
  });
}

function answerFor(dialect: ClaudeFormatDialect<string>): AgentBridge['answer'] {
  return answerBySeam({
  'agent/session-start': (start) => contextAnswer('SessionStart', start.additionalContext),
  'agent/prompt-submit': (prompt) =>
    prompt.action === 'block' ? jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) }) : contextAnswer('UserPromptSubmit', prompt.additionalContext),
  'tools/pre-execute': (pre, event) => {
    if (pre.action === 'allow' && pre.arguments !== undefined) return rewrittenAnswer(dialect, event as AgentSeamEvent<'tools/pre-execute'>, pre.arguments);
    // hookbox's allow is "no objection": answering "allow" would skip Claude Code's own permission prompt.
    if (pre.action === 'allow') return NO_OPINION;
    return permission(pre.action, pre.reason ?? (pre.action === 'ask' ? 'a hookbox hook asks for confirmation' : 'denied by a hookbox hook'));
  },
  'tools/post-execute': (post, event) => {
    if (post.action === 'block') return withheld(post.reason);
    if (post.content !== undefined) {
      const output = dialect.replacedOutput?.(event as AgentSeamEvent<'tools/post-execute'>, safeContext(post.content));
      // decide.ts degrades a replacement of any other tool to a block first; this is the backstop.
      if (output === undefined) return withheld(`a hookbox hook replaced this tool output and ${dialect.label} cannot take it for this tool`);
      const context = post.additionalContext === undefined ? {} : { additionalContext: safeContext(post.additionalContext) };
      return jsonAnswer({
        hookSpecificOutput: { hookEventName: event.event === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse', updatedToolOutput: output, ...context },
        // Copilot CLI running this setup ignores updatedToolOutput and takes this; Claude Code ignores it (both measured).
        modifiedResult: { textResultForLlm: safeContext(post.content), resultType: (event as AgentSeamEvent<'tools/post-execute'>).payload.result.isError ? 'failure' : 'success' },
      });
    }
    return contextAnswer(event.event === 'PostToolUseFailure' ? 'PostToolUseFailure' : 'PostToolUse', post.additionalContext);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? CONTINUE_REASON) })),
  // Claude Code's forms (its hooks reference; measured where README "Lifecycle events" says), which the other agents of the format copy.
  ...claudeNamedLifecycleAnswers('decision'),
  });
}

/**
 * Fail closed in Claude Code's terms, always as JSON on exit 0 (an HTTP hook
 * reads only that): deny a tool call, block a prompt or a result. A Stop or
 * SessionStart that cannot be decided is let through (forcing a turn on, or
 * blocking start-up, is not a safe default). An unreadable event gets exit 2.
 */
function failClosedFor(dialect: ClaudeFormatDialect<string>): AgentBridge['failClosed'] {
  return failClosedBy(dialect.table, {
    PreToolUse: (text) => jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } }),
    UserPromptSubmit: (text) => jsonAnswer({ decision: 'block', reason: text }),
    PostToolUse: withheld,
    PostToolUseFailure: withheld,
    Stop: 'let-through',
    SessionStart: 'let-through',
    // A permission request is a gate: refused. The rest never wedge the session, block a compaction or force a subagent on.
    PermissionRequest: (text) => claudePermissionAnswer({ action: 'deny', reason: text }),
    SessionEnd: 'let-through',
    PreCompact: 'let-through',
    SubagentStart: 'let-through',
    SubagentStop: 'let-through',
    Notification: 'let-through',
  });
}

/** One agent of the Claude hook format as an `AgentBridge`: the format's events and answers, the dialect's tools and settings. */
export function claudeFormatBridge<N extends string>(dialect: ClaudeFormatDialect<N>): AgentBridge<N> {
  return {
    name: dialect.name,
    label: dialect.label,
    events: eventRows(dialect.table),
    canReplace: { prompt: false, toolResult: (toolName) => dialect.replaceable.has(toolName) },
    toSeam: toSeamBy(dialect.table, CLAUDE_FORMAT_EVENT_SCHEMAS, readersFor(dialect), claudeFormatFrame),
    answer: answerFor(dialect),
    rewriteBack: (event, args) => rewriteFor(dialect, event, args),
    // The pre-tool answer carries the model's note as additionalContext (rewrittenAnswer).
    notesRewrittenCall: true,
    failClosed: failClosedFor(dialect),
    ...(dialect.projectDirVariable !== undefined && { projectDirVariable: dialect.projectDirVariable }),
    setup: dialect.setup,
    probe: dialect.probe,
  };
}
