import { firstEvents } from '../agents/bridge-parts.ts';
import { CLAUDE_CODE_SEAM_EVENTS } from '../agents/claude-code/protocol.ts';
import { CODEX_SEAM_EVENTS } from '../agents/codex/protocol.ts';
import { TOOL_PROTOCOLS, type ToolProtocol } from '../agents/tool-names.ts';
import { MAX_TIMEOUT_MS } from '../runner/limits.ts';
import { SessionStartSourceSchema, type SeamId } from '../seams/index.ts';

export { TOOL_PROTOCOLS, type ToolProtocol };

/** How each protocol names itself in messages. */
export const PROTOCOL_LABEL: Readonly<Record<ToolProtocol, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
};

type TableEvents<T> = { [S in keyof T]: T[S] extends readonly [{ readonly event: infer E }, ...unknown[]] ? E : never }[keyof T];

/**
 * A hook event hookbox supports, by its Claude Code / Codex name. Read from
 * the table itself, not from `EVENT_FOR_SEAM`, so that a seam missing from
 * Claude Code's table fails `tsc` there and here, not in every reader.
 */
export type ToolEventName = TableEvents<typeof CLAUDE_CODE_SEAM_EVENTS>;

type CodexFirstEvents = ReturnType<typeof firstEvents<typeof CODEX_SEAM_EVENTS>>;

/**
 * The event a hook of either format is sent for each seam: the first event
 * of each seam in Claude Code's protocol table (an event such as
 * `PostToolUseFailure`, which Claude Code sends and hookbox reads, is never
 * sent to a hook). Where Codex maps a seam, it names the same first event
 * (checked here).
 */
export const EVENT_FOR_SEAM: { readonly [S in SeamId]: ToolEventName } = {
  ...definedEvents(firstEvents(CLAUDE_CODE_SEAM_EVENTS)),
} satisfies { readonly [S in SeamId]: CodexFirstEvents[S] extends undefined ? ToolEventName : CodexFirstEvents[S] };

/** A table's first events without the seams it has none for. */
function definedEvents<T extends Record<string, string | undefined>>(events: T): { [K in keyof T as T[K] extends undefined ? never : K]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(events).filter(([, event]) => event !== undefined)) as never;
}

/** The seam each supported event maps to. */
export const SEAM_FOR_EVENT: Readonly<Record<ToolEventName, SeamId>> = Object.fromEntries(
  Object.entries(EVENT_FOR_SEAM).map(([seam, event]) => [event, seam]),
) as Record<ToolEventName, SeamId>;

export function isToolEventName(name: string): name is ToolEventName {
  return Object.hasOwn(SEAM_FOR_EVENT, name);
}

/**
 * What one hook run produced, in the protocol's terms: a command's exit code,
 * stdout and stderr, or a wasm export's return code, output and `error_set` text.
 */
export interface ProtocolResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Claude Code's default timeout for a command hook: 600 s (raised from 60 s in
 * Claude Code 2.1.3; Codex uses 600 s too). Also hookbox's largest `timeoutMs`.
 */
export const TOOL_DEFAULT_TIMEOUT_MS = MAX_TIMEOUT_MS;

/** Every SessionStart source, which a SessionStart matcher selects from (the seam's own list). */
export const SESSION_START_SOURCES = SessionStartSourceSchema.options;
