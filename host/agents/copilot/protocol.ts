import path from 'node:path';
import * as z from 'zod';
import { COPILOT_LIFECYCLE_SCHEMAS } from './lifecycle-schemas.ts';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, commandLineFrame, eventRows } from '../bridge-parts.ts';
import { SESSION_ID_PATTERN } from '../event-input.ts';

/**
 * Copilot CLI's hook events in its own format (`.github/hooks/*.json`,
 * `~/.copilot/hooks/*.json`) that hookbox answers, and what each decision
 * becomes — measured with `copilot` 1.0.102 against a mock model, by logging
 * what a command hook received and what the model was sent next. The events
 * carry no event name: setup writes it on each hook's command line (and URL).
 * The README's copy is checked against this table by a test.
 */
export const COPILOT_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'sessionStart', answers: 'context → `additionalContext` (it reaches the model\'s first request)' }],
  'agent/prompt-submit': [
    {
      event: 'userPromptSubmitted',
      answers:
        'block → `decision: "block"` + reason (no model call; headless `copilot -p` exits 1); context → `additionalContext` (a system reminder after the prompt); a rewrite → `modifiedPrompt` (the model reads the rewritten prompt)',
    },
  ],
  'tools/pre-execute': [
    {
      event: 'preToolUse',
      answers:
        'deny → flat `permissionDecision: "deny"` + `permissionDecisionReason` (the model reads "Denied by preToolUse hook: <reason>"; `hookSpecificOutput` is ignored there and the call runs); ask → `permissionDecision: "ask"` (interactive: Copilot asks; headless: denied, "Denied by preToolUse hook (unable to ask user for confirmation): <reason>"); allow → no answer; a rewrite → `modifiedArgs`, the whole arguments (deny where it maps back inexactly: an edit\'s new text)',
    },
  ],
  'tools/post-execute': [
    {
      event: 'postToolUse',
      answers:
        'replaced content → `modifiedResult {resultType, textResultForLlm}` (the model reads it in place of the output); block → the same, the output replaced by "Tool result withheld by a hook: <reason>"; context → `additionalContext` (appended to the result); a rewritten call\'s result → the model\'s note about the rewrite first in that context',
    },
    {
      event: 'postToolUseFailure',
      answers:
        'context → `additionalContext` (the model reads "Tool \"<name>\" failed. Additional guidance from postToolUseFailure hooks: <context>"); block and a replacement cannot be expressed (Copilot ignores `modifiedResult` on a failed call, measured: its error text reaches the model): the reason goes as context',
    },
  ],
  'agent/turn-continuation': [
    {
      event: 'agentStop',
      answers: 'continue {reason} → `decision: "block"` + reason (the next user message; `stop_hook_active`, hookbox\'s cap and Copilot\'s own of 8 end it); stop → no answer',
    },
  ],
  // The lifecycle events (#51), measured headless with 1.0.102 (host/agents/README.md, "Lifecycle events"); preCompact and notification not fired here.
  'tools/permission-request': [
    {
      event: 'permissionRequest',
      answers:
        'deny → `behavior: "deny"` + `message` (measured without `--allow-all-tools`: the shell call refused, the model reads "Permission denied by a PermissionRequest hook: <message>"); allow → `behavior: "allow"`; ask → no answer (Copilot asks, or headless refuses)',
    },
  ],
  'agent/subagent-start': [{ event: 'subagentStart', answers: 'context → `additionalContext` (measured: a `task` call fires it; the context\'s effect not measured)' }],
  'agent/subagent-stop': [
    {
      event: 'subagentStop',
      answers:
        'continue {reason} → `decision: "block"` + reason (measured: the subagent goes on; Copilot has no cap of its own — 822 rounds in 2 min — so hookbox\'s continuation cap ends it); stop → no answer',
    },
  ],
  'agent/notification': [],
  'agent/pre-compact': [],
  'agent/session-end': [{ event: 'sessionEnd', answers: 'none: heard only (measured: `reason: "complete"` at the end of `copilot -p`)' }],
} as const satisfies SeamEventTable;

/** COPILOT_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const COPILOT_EVENTS: readonly AgentEventMapping[] = eventRows(COPILOT_SEAM_EVENTS);

/**
 * Fields every Copilot event carries (measured: `sessionId`, `timestamp` in
 * ms, `cwd`). Nothing else is required: a field a newer Copilot adds is
 * tolerated, one it drops is not a reason to deny.
 */
export const CopilotCommonSchema = z.looseObject({
  sessionId: z.string().regex(SESSION_ID_PATTERN, 'a session id of letters, digits, ".", "_" or "-" (at most 128)'),
  cwd: z.string().refine((cwd) => path.isAbsolute(cwd), 'an absolute path'),
});

/** Copilot's events carry no event name: it is the one the hook's command line (or URL) names. */
export const copilotFrame = commandLineFrame(
  'Copilot CLI events carry no event name: the hook command must name it (hookbox hook copilot <event>)',
  CopilotCommonSchema,
  ({ sessionId, cwd }) => ({ sessionId, cwd }),
);

/** A tool's result as Copilot reports it to a postToolUse hook. */
export const CopilotToolResultSchema = z.looseObject({ resultType: z.string(), textResultForLlm: z.string() });

// `toolArgs`: an object as measured; JSON text or none is read by the bridge (never a reason to deny the event).
const ToolFields = { toolName: z.string().min(1), toolArgs: z.unknown().optional() };
/** The JSON of each event hookbox reads from Copilot, beyond the common fields. */
export const COPILOT_EVENT_SCHEMAS = {
  sessionStart: z.looseObject({ source: z.unknown().optional() }),
  userPromptSubmitted: z.looseObject({ prompt: z.string() }),
  preToolUse: z.looseObject(ToolFields),
  postToolUse: z.looseObject({ ...ToolFields, toolResult: CopilotToolResultSchema }),
  postToolUseFailure: z.looseObject({ ...ToolFields, error: z.string() }),
  agentStop: z.looseObject({ stop_hook_active: z.boolean().optional(), stopHookActive: z.boolean().optional() }),
  ...COPILOT_LIFECYCLE_SCHEMAS,
} as const satisfies EventSchemas<EventOf<typeof COPILOT_SEAM_EVENTS>>;
/** A Copilot event hookbox reads. */
export type CopilotEvent = keyof typeof COPILOT_EVENT_SCHEMAS;
/** Copilot's event names hookbox reads, in the order setup writes them. */
export const COPILOT_EVENT_NAMES = Object.keys(COPILOT_EVENT_SCHEMAS) as CopilotEvent[];
