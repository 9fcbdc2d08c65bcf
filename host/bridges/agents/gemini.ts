import { z } from 'zod';
import type { DecisionOf, PayloadOf, SeamId } from '../../seams/index.ts';
import type { AgentAnswer, AgentBridge, AgentEventMapping, AgentSeamEvent, ParsedAgentEvent } from './agent-bridge.ts';
import { CommonEventSchema, NO_OPINION, eventNameOf, jsonAnswer, seamEvent } from './bridge-parts.ts';
import { invalidEvent, safeContext, safeText } from './event-input.ts';
import { geminiSetup } from './gemini-setup.ts';
import { fromGeminiTool, fromGeminiToolResponse, geminiToolCallId } from './gemini-tools.ts';

/**
 * Gemini CLI's hook events hookbox answers, and what each decision becomes
 * (measured against the real `gemini` 0.61.0: see host/bridges/agents/README.md).
 * The one table: the README's copy is checked against it by a test.
 */
export const GEMINI_EVENTS: readonly AgentEventMapping[] = [
  { event: 'SessionStart', seam: 'agent/session-start', answers: 'context → `hookSpecificOutput.additionalContext` (headless: prepended to the prompt)' },
  {
    event: 'BeforeAgent',
    seam: 'agent/prompt-submit',
    answers:
      'block → `decision: "deny"` + reason (the turn is dropped, the model is never called); context → `additionalContext`; a rewrite → block with the reason (Gemini CLI cannot take a rewritten prompt)',
  },
  {
    event: 'BeforeTool',
    seam: 'tools/pre-execute',
    answers:
      'deny → `decision: "deny"` + reason (the model reads `{"error": "Tool execution blocked: <reason>"}`); ask → deny (a hook cannot ask); allow → no answer',
  },
  {
    event: 'AfterTool',
    seam: 'tools/post-execute',
    answers:
      'block → `decision: "deny"` + reason (the model reads `{"error": <reason>}` in place of the output); replaced content → the same, the content (and any context) as the reason; context → `additionalContext`',
  },
  {
    event: 'AfterAgent',
    seam: 'agent/turn-continuation',
    answers: 'continue {reason} → `decision: "deny"` + reason (Gemini retries with the reason as the next prompt; `stop_hook_active` + hookbox\'s cap end it); stop → no answer',
  },
];

const ToolFields = { tool_name: z.string().min(1), tool_input: z.record(z.string(), z.unknown()) };
const EventSchemas = {
  SessionStart: z.looseObject({ source: z.string().optional() }),
  BeforeAgent: z.looseObject({ prompt: z.string() }),
  BeforeTool: z.looseObject(ToolFields),
  AfterTool: z.looseObject({ ...ToolFields, tool_response: z.unknown() }),
  AfterAgent: z.looseObject({ prompt_response: z.string().optional(), stop_hook_active: z.boolean().optional() }),
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
  const seam = <S extends SeamId>(id: S, payload: PayloadOf<S>, extra = {}): ParsedAgentEvent => ({ kind: 'seam', event: seamEvent(event, sessionId, cwd, id, payload, extra) });
  switch (event as EventName) {
    case 'SessionStart': {
      const source = (SOURCES as readonly unknown[]).includes(data.source) ? (data.source as (typeof SOURCES)[number]) : 'startup';
      return seam('agent/session-start', { source });
    }
    case 'BeforeAgent':
      return seam('agent/prompt-submit', { content: data.prompt as string, source: 'api' });
    case 'BeforeTool': {
      const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      return seam('tools/pre-execute', { toolCallId: geminiToolCallId(data.tool_name as string, data.tool_input), ...call });
    }
    case 'AfterTool': {
      const call = fromGeminiTool(data.tool_name as string, data.tool_input as Record<string, unknown>, cwd);
      const result = fromGeminiToolResponse(data.tool_name as string, data.tool_response);
      return seam('tools/post-execute', { toolCallId: geminiToolCallId(data.tool_name as string, data.tool_input), ...call, result });
    }
    case 'AfterAgent': {
      const last = typeof data.prompt_response === 'string' && data.prompt_response !== '' ? { lastAssistantText: data.prompt_response } : {};
      return seam('agent/turn-continuation', { continuations: 0, ...last }, { alreadyContinued: data.stop_hook_active === true });
    }
  }
  return { kind: 'pass', event, sessionId, answer: NO_OPINION };
}

function context(event: string, additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : jsonAnswer({ hookSpecificOutput: { hookEventName: event, additionalContext: safeContext(additionalContext) } });
}

function deny(reason: string, multiLine = false): AgentAnswer {
  return jsonAnswer({ decision: 'deny', reason: multiLine ? safeContext(reason) : safeText(reason) });
}

function answer<S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): AgentAnswer {
  switch (event.seam) {
    case 'agent/session-start':
      return context('SessionStart', (decision as DecisionOf<'agent/session-start'>).additionalContext);
    case 'agent/prompt-submit': {
      const prompt = decision as DecisionOf<'agent/prompt-submit'>;
      if (prompt.action === 'block') return deny(prompt.reason);
      return context('BeforeAgent', prompt.additionalContext);
    }
    case 'tools/pre-execute': {
      const pre = decision as DecisionOf<'tools/pre-execute'>;
      if (pre.action === 'allow') return NO_OPINION;
      if (pre.action === 'deny') return deny(pre.reason);
      return deny(`a hookbox hook asks for confirmation, which a Gemini CLI hook cannot request, so the call is denied${pre.reason === undefined ? '' : `: ${pre.reason}`}`);
    }
    case 'tools/post-execute': {
      const post = decision as DecisionOf<'tools/post-execute'>;
      if (post.action === 'block') return deny(post.reason);
      // Gemini replaces the tool's output with a deny's reason (shown to the model as an error);
      // it drops additionalContext on a deny, so the context rides in the reason.
      if (post.content !== undefined) {
        const withContext = post.additionalContext === undefined ? post.content : `${post.content}\n\n${post.additionalContext}`;
        return deny(withContext === '' ? '(output withheld by a hookbox hook)' : withContext, true);
      }
      return context('AfterTool', post.additionalContext);
    }
    case 'agent/turn-continuation': {
      const next = decision as DecisionOf<'agent/turn-continuation'>;
      if (next.action === 'stop') return NO_OPINION;
      return deny(next.reason ?? 'a hookbox hook asked to keep working');
    }
  }
  return NO_OPINION;
}

/**
 * Fail closed in Gemini CLI's terms, as JSON on exit 0: deny a tool call,
 * block a prompt or a result. AfterAgent and SessionStart that cannot be
 * decided are let through (forcing a retry, or failing start-up, is not a
 * safe default). An event whose name cannot be read gets exit 2 + stderr.
 */
function failClosed(event: string | undefined, reason: string): AgentAnswer {
  const text = `hookbox: ${safeText(reason)}`;
  switch (event) {
    case 'BeforeTool':
    case 'BeforeAgent':
    case 'AfterTool':
      return deny(text);
    case 'AfterAgent':
    case 'SessionStart':
      return NO_OPINION;
    default:
      return { exitCode: 2, stdout: '', stderr: `${text}\n` };
  }
}

/** Google's Gemini CLI (`gemini`, 0.61.x): command hooks in `settings.json`. */
export const geminiBridge: AgentBridge = {
  name: 'gemini',
  label: 'Gemini CLI',
  events: GEMINI_EVENTS,
  canReplace: { prompt: false, toolResult: true },
  toSeam,
  answer,
  failClosed,
  setup: geminiSetup,
};
