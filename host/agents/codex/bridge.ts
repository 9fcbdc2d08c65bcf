import { fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentSeamEvent } from '../agent-bridge.ts';
import {
  CONTINUE_REASON,
  NO_OPINION,
  WITHHELD_OUTPUT,
  answerBySeam,
  askAsDeny,
  contextAnswer,
  failClosedBy,
  jsonAnswer,
  promptEvent,
  sessionStartAnswer,
  seamEvent,
  sessionStartEvent,
  stopEvent,
  toSeamBy,
  toolEvents,
} from '../bridge-parts.ts';
import { claudeNamedLifecycleAnswers, claudePermissionAnswer } from '../lifecycle-answers.ts';
import { permissionRequestEvent, preCompactEvent, sessionEndEvent, subagentStartEvent, subagentStopEvent } from '../lifecycle-events.ts';
import { CODEX_EVENTS, CODEX_EVENT_SCHEMAS, CODEX_SEAM_EVENTS } from './protocol.ts';
import { codexProbe } from './probe.ts';
import { codexSetup } from './setup.ts';
import { fromCodexTool } from './tools.ts';
import { codexRewriteBack } from './rewrites.ts';
import { rewrittenCallNote, unappliedRewriteText } from '../../loop/reactions.ts';
import { safeContext, safeText } from '../event-input.ts';

/** Codex's events: a tool event can be several hookbox calls (a patch touching several files). */
const toSeam = toSeamBy(CODEX_SEAM_EVENTS, CODEX_EVENT_SCHEMAS, {
  SessionStart: sessionStartEvent,
  UserPromptSubmit: promptEvent,
  PreToolUse: (read) => {
    const { event, sessionId, cwd, data } = read;
    const calls = fromCodexTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
    const agentCall = { toolName: data.tool_name as string, input: data.tool_input as Record<string, unknown> };
    return toolEvents(calls, data.tool_use_id as string, (call, id) =>
      seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments }, { agentCall }),
    );
  },
  PostToolUse: (read) => {
    const { event, sessionId, cwd, data } = read;
    const theirs = data.tool_name as string;
    const calls = fromCodexTool(theirs, data.tool_input as Record<string, unknown>, cwd);
    const result = fromProtocolToolResponse('codex', theirs, data.tool_response);
    return toolEvents(calls, data.tool_use_id as string, (call, id) =>
      seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments, result }),
    );
  },
  Stop: stopEvent('last_assistant_message'),
  SessionEnd: sessionEndEvent,
  PreCompact: preCompactEvent,
  SubagentStart: subagentStartEvent,
  SubagentStop: subagentStopEvent,
  // Through Codex's own tool table, as for PreToolUse (a patch's first file stands for the call it asks about).
  PermissionRequest: permissionRequestEvent('codex', (name, input, cwd) => fromCodexTool(name, input, cwd)[0] ?? { toolName: name, arguments: { ...input } }),
});

function deny(reason: string): AgentAnswer {
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: safeText(reason) } });
}

/** A rewrite mapped back onto the call the event carried (rewrites.ts). */
function rewriteBack(event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>): ReturnType<typeof codexRewriteBack> {
  if (event.agentCall === undefined) return { kind: 'deny', why: 'the event carried no tool call of the agent to rewrite' };
  return codexRewriteBack({ call: event.agentCall, before: event.payload.arguments, after: args, cwd: event.cwd });
}

/**
 * A rewritten call Codex runs: `permissionDecision: "allow"` with the tool's
 * own input as `updatedInput`, and the model's note as `additionalContext`
 * (the one rule). The server asked `rewriteBack` first; this is the backstop.
 */
function rewrittenAnswer(event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>): AgentAnswer {
  const back = rewriteBack(event, args);
  if (back.kind === 'deny') return deny(unappliedRewriteText('Codex', { ...args }, back.why));
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

const answer = answerBySeam({
  'agent/session-start': sessionStartAnswer,
  'agent/prompt-submit': (prompt) =>
    prompt.action === 'block' ? jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) }) : contextAnswer('UserPromptSubmit', prompt.additionalContext),
  'tools/pre-execute': (pre, event) => {
    if (pre.action === 'allow' && pre.arguments !== undefined) return rewrittenAnswer(event as AgentSeamEvent<'tools/pre-execute'>, pre.arguments);
    // allow = "no objection": Codex's own approval policy still applies.
    if (pre.action === 'allow') return NO_OPINION;
    if (pre.action === 'deny') return deny(pre.reason);
    // Codex rejects permissionDecision "ask"; nobody can be asked from a hook, so ask is a deny.
    return deny(askAsDeny('Codex hooks', pre.reason));
  },
  'tools/post-execute': (post) => {
    if (post.action === 'block') return jsonAnswer({ decision: 'block', reason: safeText(post.reason) });
    const specific = post.additionalContext === undefined ? {} : { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: safeContext(post.additionalContext) } };
    // Codex shows a blocking PostToolUse's reason to the model in place of the tool output:
    // that is how a replaced (e.g. redacted) output reaches it.
    if (post.content !== undefined) return jsonAnswer({ decision: 'block', reason: safeContext(post.content === '' ? WITHHELD_OUTPUT : post.content), ...specific });
    return post.additionalContext === undefined ? NO_OPINION : jsonAnswer(specific);
  },
  'agent/turn-continuation': (next) => (next.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? CONTINUE_REASON) })),
  // Claude Code's forms, but a compaction is stopped with `continue: false` (measured: Codex ignores a PreCompact "block").
  ...claudeNamedLifecycleAnswers('stop'),
});

/**
 * Fail closed in Codex's terms, as JSON on exit 0: deny a tool call, block a
 * prompt or a result. A Stop or SessionStart that cannot be decided is let
 * through (forcing a turn on, or failing start-up, is not a safe default).
 * An event whose name cannot be read gets exit 2 + stderr (Codex blocks on it).
 */
const block = (text: string): AgentAnswer => jsonAnswer({ decision: 'block', reason: text });
const failClosed = failClosedBy(CODEX_SEAM_EVENTS, {
  PreToolUse: deny,
  UserPromptSubmit: block,
  PostToolUse: block,
  Stop: 'let-through',
  SessionStart: 'let-through',
  // A permission request is a gate: refused. The rest never wedge the session, stop a compaction or force a subagent on.
  PermissionRequest: (text) => claudePermissionAnswer({ action: 'deny', reason: text }),
  SessionEnd: 'let-through',
  PreCompact: 'let-through',
  SubagentStart: 'let-through',
  SubagentStop: 'let-through',
});

/** OpenAI's Codex CLI (`codex`, 0.169.x): command hooks in `hooks.json`, trusted in `config.toml`. */
export const codexBridge: AgentBridge<'codex'> = {
  name: 'codex',
  label: 'Codex',
  events: CODEX_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  rewriteBack,
  // The pre-tool answer carries the model's note as additionalContext (rewrittenAnswer).
  notesRewrittenCall: true,
  failClosed,
  setup: codexSetup,
  probe: codexProbe,
};
