import { createHash } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import { SessionStartSourceSchema, type DecisionOf, type PayloadOf, type SeamId } from '../seams/index.ts';
import type { OurToolCall } from './tool-names.ts';
import type { AgentAnswer, AgentBridge, AgentEventMapping, AgentEventRow, AgentSeamEvent, ParsedAgentEvent, SeamEventTable } from './agent-bridge.ts';
import { SESSION_ID_PATTERN, invalidEvent, safeContext, safeText } from './event-input.ts';

/** Fields every Claude Code, Codex and Gemini CLI hook event carries (the latter two take Claude Code's names). */
export const CommonEventSchema = z.looseObject({
  hook_event_name: z.string(),
  session_id: z.string().regex(SESSION_ID_PATTERN, 'a session id of letters, digits, ".", "_" or "-" (at most 128)'),
  cwd: z.string().refine((cwd) => path.isAbsolute(cwd), 'an absolute path'),
});

/** The event name of unparsed input, when it has one (for a fail-closed answer to a malformed event). */
export function eventNameOf(input: unknown): string | undefined {
  const name = (input as { hook_event_name?: unknown } | null)?.hook_event_name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * A tool call id for an event that carries none (Gemini CLI's; the
 * Claude-format events of agents that leave `tool_use_id` out, such as Copilot
 * CLI and Factory Droid reading a Claude Code setup): pre and post of one call
 * get the same id from the call itself (name and arguments), so the session
 * log pairs them. Never a reason to refuse the event.
 */
export function toolCallIdFromCall(agent: string, toolName: string, input: unknown): string {
  return `${agent}-${createHash('sha256').update(toolName).update('\0').update(JSON.stringify(input) ?? '').digest('hex').slice(0, 16)}`;
}

/** The answer that says nothing: the agent goes on as it would without hookbox. */
export const NO_OPINION: AgentAnswer = { exitCode: 0, stdout: '', stderr: '' };

/** A JSON answer on exit 0 (how both agents read a decision). */
export function jsonAnswer(value: object): AgentAnswer {
  return { exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' };
}

/** One seam call for an agent event. */
export function seamEvent<S extends SeamId>(
  event: string,
  sessionId: string,
  cwd: string,
  seam: S,
  payload: PayloadOf<S>,
  extra: Partial<Pick<AgentSeamEvent, 'alreadyContinued' | 'agentCall'>> = {},
): AgentSeamEvent<S> {
  return { event, sessionId, cwd, seam, payload, ...extra };
}

/**
 * One tool event that maps to several hookbox tool calls (a patch touching
 * several files): the first answers, the rest are decided alongside. Each
 * extra call gets its own id (`<id>#2`, …) so the session log keeps them apart.
 */
export function toolEvents<S extends 'tools/pre-execute' | 'tools/post-execute'>(
  calls: readonly OurToolCall[],
  toolCallId: string,
  build: (call: OurToolCall, id: string) => AgentSeamEvent<S>,
): ParsedAgentEvent {
  const events = calls.map((call, index) => build(call, index === 0 ? toolCallId : `${toolCallId}#${index + 1}`));
  const [first, ...more] = events;
  return { kind: 'seam', event: first!, ...(more.length > 0 && { more }) };
}

/** An agent event read as far as its common fields and its own schema. */
export interface ReadAgentEvent {
  readonly kind: 'read';
  readonly event: string;
  readonly sessionId: string;
  readonly cwd: string;
  /** The event's fields, checked against the schema of `schemas[event]`. */
  readonly data: Record<string, unknown>;
}

/** What every event of an agent carries: its name, its session and its folder. */
export interface FramedEvent {
  readonly kind: 'framed';
  readonly event: string;
  readonly sessionId: string;
  readonly cwd: string;
}

/**
 * How an agent's events carry their name, session and folder, read before
 * the event's own schema: `named` is the event as the hook's command line
 * names it (`eventOnCommandLine`). An input that is no event is `invalid`.
 */
export type EventFrame = (input: unknown, named: string | undefined) => FramedEvent | ParsedAgentEvent;

/** The frame of Claude Code's hook events, which Codex's, Gemini CLI's and the plugin agents' events take: `hook_event_name`, `session_id`, `cwd`. */
export const hookEventFrame: EventFrame = (input) => {
  const common = CommonEventSchema.safeParse(input);
  if (!common.success) return invalidEvent(common.error, eventNameOf(input));
  return { kind: 'framed', event: common.data.hook_event_name, sessionId: common.data.session_id, cwd: common.data.cwd };
};

/**
 * The frame of an agent whose events carry no name (Copilot CLI's, Cline's):
 * the name is the command line's (`missing` says so when it is not there),
 * the session and folder come from the agent's common fields.
 */
export function commandLineFrame<T>(missing: string, common: z.ZodType<T>, fields: (data: T) => { sessionId: string; cwd: string }): EventFrame {
  return (input, named) => {
    if (named === undefined) return { kind: 'invalid', message: missing };
    const parsed = common.safeParse(input);
    if (!parsed.success) return invalidEvent(parsed.error, named);
    return { kind: 'framed', event: named, ...fields(parsed.data) };
  };
}

/**
 * The first step of every bridge's `toSeam`: the common fields (the agent's
 * frame), then the event's own schema from the agent's table. An event the
 * table does not name passes with no opinion; a malformed one is `invalid`
 * (and fails closed).
 */
export function readAgentEvent(
  input: unknown,
  schemas: Readonly<Record<string, z.ZodType>>,
  { named, frame = hookEventFrame }: { readonly named?: string | undefined; readonly frame?: EventFrame } = {},
): ReadAgentEvent | ParsedAgentEvent {
  const framed = frame(input, named);
  if (framed.kind !== 'framed') return framed;
  const { event, sessionId, cwd } = framed;
  if (!Object.hasOwn(schemas, event)) return { kind: 'pass', event, sessionId, answer: NO_OPINION };
  const parsed = schemas[event]!.safeParse(input);
  if (!parsed.success) return invalidEvent(parsed.error, event);
  return { kind: 'read', event, sessionId, cwd, data: parsed.data as Record<string, unknown> };
}

/** The one seam call a read event maps to. */
export function oneSeam<S extends SeamId>(
  read: ReadAgentEvent,
  seam: S,
  payload: PayloadOf<S>,
  extra: Partial<Pick<AgentSeamEvent, 'alreadyContinued' | 'agentCall'>> = {},
): ParsedAgentEvent {
  return { kind: 'seam', event: seamEvent(read.event, read.sessionId, read.cwd, seam, payload, extra) };
}

/**
 * A protocol table, as the functions that only read it take it: whether it
 * names every seam is checked where it is written (`satisfies
 * SeamEventTable`), so that a new seam fails `tsc` there and not again at
 * each reader. `E`: the agent events it lists.
 */
export type AnyEventTable<E extends string = string> = { readonly [S in SeamId]?: readonly AgentEventRow<E>[] };

/** The agent events a protocol table lists (`'PreToolUse' | 'Stop' | …`). */
export type EventOf<T> = { [S in keyof T]: T[S] extends readonly (infer R)[] ? (R extends { readonly event: infer E extends string } ? E : never) : never }[keyof T];

/** The schema of each event of an agent's protocol table (`satisfies EventSchemas<EventOf<typeof TABLE>>`: an event without one fails there). */
export type EventSchemas<E extends string> = { readonly [K in E]: z.ZodType };

/** How an agent reads each event of its protocol table: the event's seam call(s). */
export type EventReaders<E extends string> = { readonly [K in E]: (read: ReadAgentEvent) => ParsedAgentEvent };

/**
 * A bridge's `toSeam`: the event read against the agent's schema for it
 * (`readAgentEvent`), then the agent's reader for it. Schemas and readers
 * are keyed by every event of the agent's protocol table, so an event added
 * to the table without a schema and a reader does not compile. Only the
 * table's events are read (an agent of a shared format may list fewer than
 * the format reads); any other passes with no opinion.
 */
export function toSeamBy<E extends string>(
  table: AnyEventTable<E>,
  schemas: EventSchemas<NoInfer<E>>,
  readers: EventReaders<NoInfer<E>>,
  frame: EventFrame = hookEventFrame,
): AgentBridge['toSeam'] {
  const listed: Record<string, z.ZodType> = Object.fromEntries(eventRows(table).map(({ event }) => [event, schemas[event as E]]));
  return (input, named) => {
    const read = readAgentEvent(input, listed, { named, frame });
    return read.kind === 'read' ? readers[read.event as E](read) : read;
  };
}

/** A session start (`source`, in hookbox's names): the same reading for every agent whose event carries one. */
export function sessionStartEvent(read: ReadAgentEvent): ParsedAgentEvent {
  return oneSeam(read, 'agent/session-start', { source: sessionSource(read.data.source) });
}

/** A prompt the user submitted (`prompt`), before the model sees it. */
export function promptEvent(read: ReadAgentEvent): ParsedAgentEvent {
  return oneSeam(read, 'agent/prompt-submit', { content: read.data.prompt as string, source: 'api' });
}

/**
 * The agent is about to end its turn: its last message from the event's
 * `lastMessageField`, and `stop_hook_active` (it already continued once for
 * a hook) as `alreadyContinued`.
 */
export function stopEvent(lastMessageField: string): (read: ReadAgentEvent) => ParsedAgentEvent {
  return (read) =>
    oneSeam(read, 'agent/turn-continuation', continuationPayload(read.data[lastMessageField]), { alreadyContinued: read.data.stop_hook_active === true });
}

/** An agent's session source in hookbox's names; one hookbox has no name for starts a session like startup does. */
export function sessionSource(source: unknown): PayloadOf<'agent/session-start'>['source'] {
  const known = SessionStartSourceSchema.safeParse(source);
  return known.success ? known.data : 'startup';
}

/** The turn-continuation payload of a stop event: the agent's last message, when it sent a non-empty one. */
export function continuationPayload(lastMessage: unknown): PayloadOf<'agent/turn-continuation'> {
  return { continuations: 0, ...(typeof lastMessage === 'string' && lastMessage !== '' && { lastAssistantText: lastMessage }) };
}

/** Extra context as the agent's `hookSpecificOutput` for `event`; no context is no opinion. */
export function contextAnswer(event: string, additionalContext: string | undefined): AgentAnswer {
  return additionalContext === undefined ? NO_OPINION : jsonAnswer({ hookSpecificOutput: { hookEventName: event, additionalContext: safeContext(additionalContext) } });
}

/** A session-start decision as every agent whose start event is `SessionStart` takes it: its context, if any. */
export function sessionStartAnswer(start: DecisionOf<'agent/session-start'>): AgentAnswer {
  return contextAnswer('SessionStart', start.additionalContext);
}

export { CONTINUE_REASON } from '../loop/reactions.ts';

/** What an agent reads in place of a tool's output a hook replaced with nothing. */
export const WITHHELD_OUTPUT = '(output withheld by a hookbox hook)';

/** The deny reason for a hook's "ask" on an agent whose hooks cannot ask (`cannot` names who cannot). */
export function askAsDeny(cannot: string, reason: string | undefined): string {
  return `a hookbox hook asks for confirmation, which ${cannot} cannot request, so the call is denied${reason === undefined ? '' : `: ${reason}`}`;
}

/** The seams every agent bridge answers: all of them (a new seam is a compile error in each bridge's tables). */
export type AgentSeam = SeamId;

/** One agent's wording of each seam's decision: the part of `answer` that differs between agents. */
export type SeamAnswers = { readonly [S in AgentSeam]: (decision: DecisionOf<S>, event: AgentSeamEvent<S>) => AgentAnswer };

/**
 * The answers of the seams of issue #51 for a bridge that maps none of their
 * events yet (its protocol table names none, so no event reaches them): no
 * opinion. The seams-agents branch replaces this, bridge by bridge.
 */
export const UNMAPPED_SEAM_ANSWERS = {
  'tools/permission-request': () => NO_OPINION,
  'agent/subagent-start': () => NO_OPINION,
  'agent/subagent-stop': () => NO_OPINION,
  'agent/notification': () => NO_OPINION,
  'agent/pre-compact': () => NO_OPINION,
  'agent/session-end': () => NO_OPINION,
} as const;

/**
 * A bridge's `answer`, dispatching on the seam to the agent's table (which
 * names every seam). A seam outside it is a host bug, not "no opinion": it
 * throws, and the caller answers the event fail-closed.
 */
export function answerBySeam(answers: SeamAnswers): AgentBridge['answer'] {
  return (event, decision) => {
    if (!Object.hasOwn(answers, event.seam)) throw new Error(`no answer for seam ${String(event.seam)} (event ${event.event})`);
    const wording = answers[event.seam] as (decision: unknown, event: unknown) => AgentAnswer;
    return wording(decision, event);
  };
}

/**
 * One agent's fail-closed answer per event of its protocol table: a function
 * of the text (`hookbox: <reason>`) that blocks or denies, or `'let-through'`
 * where blocking is not a safe default (forcing a turn on, failing start-up).
 * Keyed by every event of the table, so a new event without one does not compile.
 */
export type FailClosedTable<E extends string> = { readonly [K in E]: ((text: string) => AgentAnswer) | 'let-through' };

/** A bridge's `failClosed` from the agent's table; an event it does not name (or cannot read) gets exit 2 + stderr. */
export function failClosedBy<E extends string>(table: AnyEventTable<E>, closed: FailClosedTable<NoInfer<E>>): AgentBridge['failClosed'] {
  const listed = new Set<string>(eventRows(table).map((row) => row.event));
  return (event, reason) => {
    const text = `hookbox: ${safeText(reason)}`;
    const entry = event !== undefined && listed.has(event) ? closed[event as E] : undefined;
    if (entry === 'let-through') return NO_OPINION;
    if (entry !== undefined) return entry(text);
    return { exitCode: 2, stdout: '', stderr: `${text}\n` };
  };
}

/** An agent's protocol table as rows, in seam order (the README's table, doctor's list of entries). */
export function eventRows(table: AnyEventTable): AgentEventMapping[] {
  return (Object.entries(table) as [SeamId, SeamEventTable[SeamId]][]).flatMap(([seam, rows]) => rows.map((row) => ({ event: row.event, seam, answers: row.answers })));
}

/** The seam → event direction of a protocol table: the event hookbox sends for each seam it names (undefined where it has none). */
export function firstEvents<T extends AnyEventTable>(table: T): FirstEvents<T> {
  return Object.fromEntries(Object.entries(table).map(([seam, rows]) => [seam, (rows as SeamEventTable[SeamId])[0]?.event])) as FirstEvents<T>;
}

/** Each seam of a protocol table → the event name of its first row, or undefined where the agent has no event for it. */
type FirstEvents<T extends AnyEventTable> = { readonly [S in keyof T]: T[S] extends readonly [{ readonly event: infer E }, ...unknown[]] ? E : undefined };
