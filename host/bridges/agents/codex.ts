import { z } from 'zod';
import type { DecisionOf, PayloadOf, SeamId } from '../../seams/index.ts';
import { fromProtocolToolResponse } from '../tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentEventMapping, AgentSeamEvent, ParsedAgentEvent } from './agent-bridge.ts';
import { CommonEventSchema, NO_OPINION, eventNameOf, jsonAnswer, seamEvent, toolEvents } from './bridge-parts.ts';
import { codexSetup } from './codex-setup.ts';
import { fromCodexTool } from './codex-tools.ts';
import { invalidEvent, safeContext, safeText } from './event-input.ts';

/**
 * Codex's hook events hookbox answers, and what each decision becomes
 * (measured against the real `codex` 0.169.0: see host/bridges/agents/README.md).
 * The one table: the README's copy is checked against it by a test.
 */
export const CODEX_EVENTS: readonly AgentEventMapping[] = [
  { event: 'SessionStart', seam: 'agent/session-start', answers: 'context → `hookSpecificOutput.additionalContext`' },
  {
    event: 'UserPromptSubmit',
    seam: 'agent/prompt-submit',
    answers:
      'block → `decision: "block"` + reason (the model is never called); context → `additionalContext`; a rewrite → block with the reason (Codex cannot take a rewritten prompt)',
  },
  {
    event: 'PreToolUse',
    seam: 'tools/pre-execute',
    answers:
      'deny → `permissionDecision: "deny"` + reason (the model reads "Command blocked by PreToolUse hook: <reason>"); ask → deny (Codex hooks cannot ask); allow → no answer',
  },
  {
    event: 'PostToolUse',
    seam: 'tools/post-execute',
    answers:
      'block → `decision: "block"` + reason (the model reads the reason in place of the output); replaced content → the same, the content as the reason; context → `additionalContext` (a developer message)',
  },
  {
    event: 'Stop',
    seam: 'agent/turn-continuation',
    answers: 'continue {reason} → `decision: "block"` + reason (a new user turn; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
  },
];

const ToolFields = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().min(1),
};
const EventSchemas = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  UserPromptSubmit: z.looseObject({ prompt: z.string() }),
  PreToolUse: z.looseObject(ToolFields),
  PostToolUse: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  Stop: z.looseObject({ stop_hook_active: z.boolean().optional(), last_assistant_message: z.string().nullable().optional() }),
} as const;
type EventName = keyof typeof EventSchemas;

const SOURCES = ['startup', 'resume', 'clear', 'compact'] as const;

function toSeam(input: unknown): ParsedAgentEvent {
  const common = CommonEventSchema.safeParse(input);
  if (!common.success) return invalidEvent(common.error, eventNameOf(input));
  const { hook_event_name: event, session_id: sessionId, cwd } = common.data;
  if (!Object.hasOwn(EventSchemas, event)) return { kind: 'pass', event, sessionId, answer: NO_OPINION };
  const parsed = EventSchemas[event as EventName].safeParse(input);
  if (!parsed.success) return invalidEvent(parsed.error, event);
  const data = parsed.data as Record<string, unknown>;
  switch (event as EventName) {
    case 'SessionStart': {
      // Codex may add sources hookbox has no name for; they start a session like startup does.
      const source = (SOURCES as readonly unknown[]).includes(data.source) ? (data.source as (typeof SOURCES)[number]) : 'startup';
      return { kind: 'seam', event: seamEvent(event, sessionId, cwd, 'agent/session-start', { source }) };
    }
    case 'UserPromptSubmit':
      return { kind: 'seam', event: seamEvent(event, sessionId, cwd, 'agent/prompt-submit', { content: data.prompt as string, source: 'api' }) };
    case 'PreToolUse': {
      const calls = fromCodexTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return toolEvents(calls, data.tool_use_id as string, (call, id) =>
        seamEvent(event, sessionId, cwd, 'tools/pre-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments }),
      );
    }
    case 'PostToolUse': {
      const theirs = data.tool_name as string;
      const calls = fromCodexTool(theirs, data.tool_input as Record<string, unknown>, cwd);
      const result = fromProtocolToolResponse('codex', theirs, data.tool_response);
      return toolEvents(calls, data.tool_use_id as string, (call, id) =>
        seamEvent(event, sessionId, cwd, 'tools/post-execute', { toolCallId: id, toolName: call.toolName, arguments: call.arguments, result }),
      );
    }
    case 'Stop': {
      const last = typeof data.last_assistant_message === 'string' && data.last_assistant_message !== '' ? { lastAssistantText: data.last_assistant_message } : {};
      const payload: PayloadOf<'agent/turn-continuation'> = { continuations: 0, ...last };
      return { kind: 'seam', event: seamEvent(event, sessionId, cwd, 'agent/turn-continuation', payload, { alreadyContinued: data.stop_hook_active === true }) };
    }
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

function context(event: string, additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : jsonAnswer({ hookSpecificOutput: { hookEventName: event, additionalContext: safeContext(additionalContext) } });
}

function deny(reason: string): AgentAnswer {
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: safeText(reason) } });
}

function answer<S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): AgentAnswer {
  switch (event.seam) {
    case 'agent/session-start':
      return context('SessionStart', (decision as DecisionOf<'agent/session-start'>).additionalContext);
    case 'agent/prompt-submit': {
      const prompt = decision as DecisionOf<'agent/prompt-submit'>;
      if (prompt.action === 'block') return jsonAnswer({ decision: 'block', reason: safeText(prompt.reason) });
      return context('UserPromptSubmit', prompt.additionalContext);
    }
    case 'tools/pre-execute': {
      const pre = decision as DecisionOf<'tools/pre-execute'>;
      // allow = "no objection": Codex's own approval policy still applies.
      if (pre.action === 'allow') return NO_OPINION;
      if (pre.action === 'deny') return deny(pre.reason);
      // Codex rejects permissionDecision "ask"; nobody can be asked from a hook, so ask is a deny.
      return deny(`a hookbox hook asks for confirmation, which Codex hooks cannot request, so the call is denied${pre.reason === undefined ? '' : `: ${pre.reason}`}`);
    }
    case 'tools/post-execute': {
      const post = decision as DecisionOf<'tools/post-execute'>;
      if (post.action === 'block') return jsonAnswer({ decision: 'block', reason: safeText(post.reason) });
      const specific = post.additionalContext === undefined ? {} : { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: safeContext(post.additionalContext) } };
      // Codex shows a blocking PostToolUse's reason to the model in place of the tool output:
      // that is how a replaced (e.g. redacted) output reaches it.
      if (post.content !== undefined) return jsonAnswer({ decision: 'block', reason: safeContext(post.content === '' ? '(output withheld by a hookbox hook)' : post.content), ...specific });
      return post.additionalContext === undefined ? NO_OPINION : jsonAnswer(specific);
    }
    case 'agent/turn-continuation': {
      const next = decision as DecisionOf<'agent/turn-continuation'>;
      if (next.action === 'stop') return NO_OPINION;
      return jsonAnswer({ decision: 'block', reason: safeText(next.reason ?? 'a hookbox hook asked to keep working') });
    }
  }
  return NO_OPINION;
}

/**
 * Fail closed in Codex's terms, as JSON on exit 0: deny a tool call, block a
 * prompt or a result. A Stop or SessionStart that cannot be decided is let
 * through (forcing a turn on, or failing start-up, is not a safe default).
 * An event whose name cannot be read gets exit 2 + stderr (Codex blocks on it).
 */
function failClosed(event: string | undefined, reason: string): AgentAnswer {
  const text = `hookbox: ${safeText(reason)}`;
  switch (event) {
    case 'PreToolUse':
      return deny(text);
    case 'UserPromptSubmit':
    case 'PostToolUse':
      return jsonAnswer({ decision: 'block', reason: text });
    case 'Stop':
    case 'SessionStart':
      return NO_OPINION;
    default:
      return { exitCode: 2, stdout: '', stderr: `${text}\n` };
  }
}

/** OpenAI's Codex CLI (`codex`, 0.169.x): command hooks in `hooks.json`, trusted in `config.toml`. */
export const codexBridge: AgentBridge = {
  name: 'codex',
  label: 'Codex',
  events: CODEX_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  failClosed,
  setup: codexSetup,
};
