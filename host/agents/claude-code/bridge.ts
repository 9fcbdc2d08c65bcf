import path from 'node:path';
import type { ToolResult } from '../../seams/index.ts';
import { fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentSeamEvent, ParsedAgentEvent } from '../agent-bridge.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  answerBySeam,
  contextAnswer,
  continuationPayload,
  failClosedBy,
  jsonAnswer,
  oneSeam,
  readAgentEvent,
  sessionSource,
  toolCallIdFromCall,
} from '../bridge-parts.ts';
import { fromCopilotToolResult } from './copilot-shapes.ts';
import { CLAUDE_CODE_EVENTS, CLAUDE_CODE_EVENT_SCHEMAS, type ClaudeCodeEvent, CopilotToolResultSchema } from './protocol.ts';
import { claudeCodeProbe } from './probe.ts';
import { claudeCodeSetup } from './setup.ts';
import { fromClaudeCodeTool } from './tools.ts';
import { safeContext, safeText } from '../event-input.ts';

/** The event's `tool_use_id`, else one derived from the call (an agent of the Claude format that sends none). */
function toolCallId(data: Record<string, unknown>): string {
  return typeof data.tool_use_id === 'string' && data.tool_use_id !== '' ? data.tool_use_id : toolCallIdFromCall('claude-code', data.tool_name as string, data.tool_input);
}

/** A PostToolUse result: Claude Code's `tool_response`, else Copilot CLI's `tool_result` (the schema holds one of them). */
function postResult(toolName: string, data: Record<string, unknown>): ToolResult {
  if (data.tool_response !== undefined) return fromProtocolToolResponse('claude-code', toolName, data.tool_response);
  return fromCopilotToolResult(CopilotToolResultSchema.parse(data.tool_result));
}

function toSeam(input: unknown): ParsedAgentEvent {
  const read = readAgentEvent(input, CLAUDE_CODE_EVENT_SCHEMAS);
  if (read.kind !== 'read') return read;
  const { event, sessionId, cwd, data } = read;
  switch (event as ClaudeCodeEvent) {
    case 'SessionStart':
      return oneSeam(read, 'agent/session-start', { source: sessionSource(data.source) });
    case 'UserPromptSubmit':
      return oneSeam(read, 'agent/prompt-submit', { content: data.prompt as string, source: 'api' });
    case 'PreToolUse': {
      const call = fromClaudeCodeTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return oneSeam(read, 'tools/pre-execute', { toolCallId: toolCallId(data), ...call });
    }
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const theirs = data.tool_name as string;
      const call = fromClaudeCodeTool(theirs, data.tool_input as Record<string, unknown>, cwd);
      const result = event === 'PostToolUse' ? postResult(theirs, data) : { content: data.error as string, isError: true };
      return oneSeam(read, 'tools/post-execute', { toolCallId: toolCallId(data), ...call, result });
    }
    case 'Stop':
      return oneSeam(read, 'agent/turn-continuation', continuationPayload(data.last_assistant_message), { alreadyContinued: data.stop_hook_active === true });
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

/**
 * A blocked tool result. Measured with Claude Code 2.1.328: `decision:
 * "block"` on PostToolUse does not withhold anything — the model still gets
 * the tool's full output, with the reason appended as a system reminder. Only
 * `continue: false` keeps the output from the model (the turn ends before the
 * next model call), so a block ends the turn, with the reason as `stopReason`.
 */
function withheld(reason: string): AgentAnswer {
  const text = safeText(reason);
  return jsonAnswer({ continue: false, stopReason: text, decision: 'block', reason: text });
}

/** The tools whose output Claude Code takes back replaced (hookbox names), in the shape of each one's own output. */
const REPLACEABLE = new Set(['bash', 'read_file']);

/**
 * A replaced result as Claude Code 2.1.328 takes it: `updatedToolOutput`
 * ("replaces the tool output before it is sent to the model", for every
 * tool; `updatedMCPToolOutput` is MCP-only and was ignored for Bash). It is
 * honoured only in the tool's own output shape — measured: Bash
 * `{stdout, stderr, interrupted, isImage}` and Read `{type: "text", file:
 * {filePath, content, numLines, startLine, totalLines}}` reached the model
 * replaced; a plain string for Bash was ignored and the original went
 * through. Other tools' shapes were not measured, so their replacement is a
 * block.
 */
function replacedOutput(event: AgentSeamEvent<'tools/post-execute'>, content: string): Record<string, unknown> | undefined {
  const { toolName, arguments: args } = event.payload;
  if (event.event !== 'PostToolUse') return undefined;
  if (toolName === 'bash') return { stdout: content, stderr: '', interrupted: false, isImage: false };
  if (toolName !== 'read_file' || typeof args.path !== 'string') return undefined;
  const lines = content.split('\n').length;
  return { type: 'text', file: { filePath: path.resolve(event.cwd, args.path), content, numLines: lines, startLine: 1, totalLines: lines } };
}

function permission(decision: 'deny' | 'ask', reason: string): AgentAnswer {
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: safeText(reason) } });
}

const answer = answerBySeam({
  'agent/session-start': (start) => contextAnswer('SessionStart', start.additionalContext),
  'agent/prompt-submit': (prompt) =>
    prompt.action === 'block' ? jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) }) : contextAnswer('UserPromptSubmit', prompt.additionalContext),
  'tools/pre-execute': (pre) => {
    // hookbox's allow is "no objection": answering "allow" would skip Claude Code's own permission prompt.
    if (pre.action === 'allow') return NO_OPINION;
    return permission(pre.action, pre.reason ?? (pre.action === 'ask' ? 'a hookbox hook asks for confirmation' : 'denied by a hookbox hook'));
  },
  'tools/post-execute': (post, event) => {
    if (post.action === 'block') return withheld(post.reason);
    if (post.content !== undefined) {
      const output = replacedOutput(event as AgentSeamEvent<'tools/post-execute'>, safeContext(post.content));
      // decide.ts degrades a replacement of any other tool to a block first; this is the backstop.
      if (output === undefined) return withheld('a hookbox hook replaced this tool output and Claude Code cannot take it for this tool');
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
});

/**
 * Fail closed in Claude Code's terms, always as JSON on exit 0 (an HTTP hook
 * reads only that): deny a tool call, block a prompt or a result. A Stop or
 * SessionStart that cannot be decided is let through (forcing a turn on, or
 * blocking start-up, is not a safe default). An unreadable event gets exit 2.
 */
const failClosed = failClosedBy({
  PreToolUse: (text) => jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } }),
  UserPromptSubmit: (text) => jsonAnswer({ decision: 'block', reason: text }),
  PostToolUse: withheld,
  PostToolUseFailure: withheld,
  Stop: 'let-through',
  SessionStart: 'let-through',
});

/** Claude Code (`claude`, 2.1.x): command and http hooks in `.claude/settings.json`. */
export const claudeCodeBridge: AgentBridge<'claude-code'> = {
  name: 'claude-code',
  label: 'Claude Code',
  events: CLAUDE_CODE_EVENTS,
  canReplace: { prompt: false, toolResult: (toolName) => REPLACEABLE.has(toolName) },
  toSeam,
  answer,
  failClosed,
  projectDirVariable: 'CLAUDE_PROJECT_DIR',
  setup: claudeCodeSetup,
  probe: claudeCodeProbe,
};
