import path from 'node:path';
import * as z from 'zod';
import type { AgentEventMapping, SeamEventTable } from '../agent-bridge.ts';
import { type EventOf, type EventSchemas, commandLineFrame, eventRows } from '../bridge-parts.ts';
import { SESSION_ID_PATTERN } from '../event-input.ts';

/** What every detached Cline event gets: Cline 3.0.65 starts these hooks in the background and reads nothing back (its hook runner, read in the bundle; no CLI flag turns it to blocking). */
const DETACHED = 'none reaches Cline: 3.0.65 runs this hook detached and reads no answer; hooks see the event, its decision is not applied';

/**
 * Cline CLI's hook events (`cline` 3.0.65: an executable file per event,
 * named after it, in `.clinerules/hooks/`, `.cline/hooks/`, `~/.cline/hooks/`
 * or `~/Documents/Cline/Hooks/`) that hookbox answers, and what each decision
 * becomes — measured with the real binary against a mock model. Only
 * PreToolUse and PostToolUse are awaited; `cancel: true` there ends the whole
 * task (a thrown stop in Cline's agent loop), so the model never reads the
 * reason. The README's copy is checked against this table by a test.
 */
export const CLINE_SEAM_EVENTS = {
  'agent/session-start': [{ event: 'TaskStart', answers: DETACHED }],
  'agent/prompt-submit': [
    { event: 'UserPromptSubmit', answers: `${DETACHED} (and headless, measured, not run at all for the task's prompt): a block cannot stop the prompt, which reaches the model` },
  ],
  'tools/pre-execute': [
    {
      event: 'PreToolUse',
      answers:
        'deny / ask → `cancel: true` + `errorMessage` (measured: the tool does not run and the whole task ends — `cline` exits 0 with `finishReason: "aborted"`, the model is not called again, so it never reads the reason); allow → no answer',
    },
  ],
  'tools/post-execute': [
    {
      event: 'PostToolUse',
      answers:
        'block or replaced content → `cancel: true` + `errorMessage` (Cline takes no replaced output: the task ends before the result is added, the model never receives it); context → `contextModification` (Cline adds it after the tool\'s result: read from its code, not run here)',
    },
  ],
  // Cline's one end-of-run event, TaskComplete, is the task's (the session's) end and is detached: a continuation
  // could never be forced through it, so it is read as the session's end below, not as a turn's.
  'agent/turn-continuation': [],
  // Cline 3.0.65 has no permission-prompt, subagent or notification hook event (its subagents fire the task events
  // with `parent_agent_id` set); its `PreCompact` file is bound to no event in its hook runner and never runs.
  'tools/permission-request': [],
  'agent/subagent-start': [],
  'agent/subagent-stop': [],
  'agent/notification': [],
  'agent/pre-compact': [],
  'agent/session-end': [
    { event: 'TaskComplete', answers: `${DETACHED} (measured: the end of a completed \`cline --json\` task, read as \`reason: "exit"\`; a subagent's is passed)` },
    {
      event: 'SessionShutdown',
      answers: `${DETACHED} (measured: the end of a task a hook cancelled, with no \`reason\`: \`other\`; a reason naming a failure or error: \`error\`). TaskCancel is not read: it fired nothing headless, and Cline sends it only just before SessionShutdown`,
    },
  ],
} as const satisfies SeamEventTable;

/** CLINE_SEAM_EVENTS as rows (event, seam, answers), in seam order. */
export const CLINE_EVENTS: readonly AgentEventMapping[] = eventRows(CLINE_SEAM_EVENTS);

/**
 * Fields every Cline event carries (measured: `taskId`, `workspaceRoots`,
 * `hookName`, `clineVersion`, `timestamp`, `userId`, …). The session is the
 * task; the folder is the first workspace root. Anything else is tolerated.
 */
export const ClineCommonSchema = z.looseObject({
  taskId: z.string().regex(SESSION_ID_PATTERN, 'a task id of letters, digits, ".", "_" or "-" (at most 128)'),
  workspaceRoots: z.array(z.string().refine((root) => path.isAbsolute(root), 'an absolute path')).min(1, 'at least one workspace root'),
});

/**
 * Cline's hook file is named after its event, and setup names the event on
 * the file's command line too: the JSON's `hookName` (`tool_call`, …) is
 * never trusted to say which event it is.
 */
export const clineFrame = commandLineFrame(
  'Cline events are named by their hook file: the hook command must name it (hookbox hook cline <event>)',
  ClineCommonSchema,
  ({ taskId, workspaceRoots }) => ({ sessionId: taskId, cwd: workspaceRoots[0]! }),
);

const Parameters = z.record(z.string(), z.unknown());
/** The tool call as Cline's own (`tool_call`, `tool_result`): its input with its real types (`preToolUse.parameters` holds them as JSON text). */
const ToolCall = z.looseObject({ id: z.string().min(1), name: z.string().min(1), input: z.unknown().optional() });

/** The JSON of each event hookbox reads from Cline, beyond the common fields; the event's own key must be there. */
export const CLINE_EVENT_SCHEMAS = {
  TaskStart: z.looseObject({ taskStart: z.unknown() }),
  UserPromptSubmit: z.looseObject({ userPromptSubmit: z.looseObject({ prompt: z.string() }) }),
  PreToolUse: z.looseObject({ tool_call: ToolCall, preToolUse: z.looseObject({ toolName: z.string(), parameters: Parameters.optional() }) }),
  PostToolUse: z.looseObject({
    tool_result: ToolCall.extend({ output: z.unknown().optional(), error: z.string().optional() }),
    postToolUse: z.looseObject({ toolName: z.string(), result: z.string(), success: z.boolean() }),
  }),
  TaskComplete: z.looseObject({ taskComplete: z.unknown(), parent_agent_id: z.string().nullish() }),
  SessionShutdown: z.looseObject({ hookName: z.literal('session_shutdown'), reason: z.string().optional(), parent_agent_id: z.string().nullish() }),
} as const satisfies EventSchemas<EventOf<typeof CLINE_SEAM_EVENTS>>;
/** A Cline event hookbox reads. */
export type ClineEvent = keyof typeof CLINE_EVENT_SCHEMAS;
/** Cline's event names hookbox reads, in the order setup writes their files. */
export const CLINE_EVENT_NAMES = Object.keys(CLINE_EVENT_SCHEMAS) as ClineEvent[];
