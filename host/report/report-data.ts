import * as z from 'zod';
import { HookFaultKindSchema, SEAM_IDS, type SeamId } from '../seams/index.ts';

const count = z.number().int().nonnegative();
const seam = z.enum(SEAM_IDS as [SeamId, ...SeamId[]]);

/** One session log the report read. */
export const ReportSessionSchema = z.strictObject({
  /** The file as given on the command line. */
  file: z.string(),
  /** The session id of its first `session/start` (absent when the log has none). */
  sessionId: z.string().optional(),
  startedAt: z.string().optional(),
  turns: count,
  events: count,
  /** Bytes of a torn last line (a crash mid-write) the reader skipped. */
  tornBytes: count,
});
export type ReportSession = z.infer<typeof ReportSessionSchema>;

/** Every call of one hook (by name) across the logs. */
export const HookStatsSchema = z.strictObject({
  hook: z.string(),
  /** The module digests seen for this name (more than one: the hook changed between sessions). */
  digests: z.array(z.string()),
  sandboxes: z.array(z.enum(['wasm', 'native', 'shell'])),
  seams: z.array(seam),
  calls: count,
  noOpinion: count,
  /** The hook's own decisions by `action` (`context` or `empty` for a decision without one: see `decisionWord`). */
  decisions: z.record(z.string(), count),
  faults: z.partialRecord(HookFaultKindSchema, count),
  /** Nearest-rank percentiles of the call durations, in µs. */
  p50Us: z.number().nonnegative(),
  p99Us: z.number().nonnegative(),
  maxUs: z.number().nonnegative(),
  /** Every call's duration in µs, in log order (the latency chart plots them). */
  durationsUs: z.array(z.number().nonnegative()),
});
export type HookStats = z.infer<typeof HookStatsSchema>;

/** A restrictive outcome: a denied or asked tool call, a blocked prompt or tool result. */
export const FindingSchema = z.strictObject({
  /** Index into `sessions`. */
  session: count,
  turn: z.number().int().positive().optional(),
  step: z.number().int().nonnegative().optional(),
  hook: z.string(),
  seam,
  action: z.enum(['deny', 'ask', 'block']),
  reason: z.string(),
  /** What was decided on: `bash {"command":…}`, or the prompt. */
  subject: z.string().optional(),
  /** The hook faulted and this is its seam's fault decision. */
  fault: HookFaultKindSchema.optional(),
  /** For an ask: what the person (or the ask's fallback) answered. */
  answer: z.enum(['allow', 'deny']).optional(),
  /** The id of the timeline entry it links to. */
  anchor: z.string(),
});
export type Finding = z.infer<typeof FindingSchema>;

/** Totals over every log. */
export const ReportTotalsSchema = z.strictObject({
  sessions: count,
  turns: count,
  turnsByReason: z.record(z.string(), count),
  prompts: count,
  blockedPrompts: count,
  toolCalls: count,
  deniedToolCalls: count,
  blockedToolResults: count,
  replacedToolResults: count,
  /** Calls pre-tool hooks rewrote (`tool/rewrite`): they ran with other arguments than the model gave. */
  rewrittenToolCalls: count,
  asks: count,
  hookCalls: count,
  faults: count,
  faultsByKind: z.partialRecord(HookFaultKindSchema, count),
  firstAt: z.string().optional(),
  lastAt: z.string().optional(),
});
export type ReportTotals = z.infer<typeof ReportTotalsSchema>;

/** What `hookbox report --json` prints: everything the HTML report computes (not the timeline, which is the logs themselves). */
export const ReportDataSchema = z.strictObject({
  sessions: z.array(ReportSessionSchema),
  totals: ReportTotalsSchema,
  hooks: z.array(HookStatsSchema),
  findings: z.array(FindingSchema),
});
export type ReportData = z.infer<typeof ReportDataSchema>;
