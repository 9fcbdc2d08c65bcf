import * as z from 'zod';
import { AttributedAskSchema, HookFaultSchema, SEAM_IDS, SignalRunSchema, type SeamId, SessionStartSourceSchema } from '../seams/index.ts';

/** Why a turn ended. `rejected`: every prompt of its batch was blocked by prompt-submit. */
export const TurnEndReasonSchema = z.enum(['completed', 'max-steps', 'cancelled', 'error', 'rejected']);
export type TurnEndReason = z.infer<typeof TurnEndReasonSchema>;

export const ToolCallSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

const turn = z.number().int().positive();

/**
 * Every durable session event, one JSON object per JSONL line. Each has a
 * `type`; those that live inside a turn carry its number.
 */
export const SessionEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session/start'),
    sessionId: z.string(),
    cwd: z.string(),
    source: SessionStartSourceSchema,
    at: z.string(),
  }),
  z.object({ type: z.literal('turn/start'), turn, at: z.string() }),
  z.object({
    type: z.literal('user/message'),
    turn,
    content: z.string(),
    /** The prompt as submitted, when a prompt-submit hook rewrote it (kept for replay). */
    originalContent: z.string().optional(),
  }),
  /** A prompt blocked by prompt-submit: recorded for audit and replay, never sent to the model. */
  z.object({ type: z.literal('prompt/blocked'), turn, reason: z.string(), content: z.string() }),
  z.object({
    type: z.literal('assistant/message'),
    turn,
    step: z.number().int().positive(),
    content: z.string(),
    toolCalls: z.array(ToolCallSchema),
  }),
  z.object({
    type: z.literal('tool/call'),
    turn,
    step: z.number().int().positive(),
    toolCallId: z.string(),
    toolName: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('tool/result'),
    turn,
    step: z.number().int().positive(),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    /** What decided the result when a hook did: `denied`, `blocked`, `replaced`. */
    hookEffect: z.enum(['denied', 'blocked', 'replaced']).optional(),
    /**
     * A replaced result's original (what the tool returned, before a hook
     * replaced it; `content` is what the model received): its length in
     * UTF-16 code units and SHA-256 (hex) always, the text itself only when
     * the operator config's `log.keepReplacedOriginals` is on.
     */
    original: z.object({ length: z.number().int().nonnegative(), sha256: z.string(), content: z.string().optional() }).optional(),
  }),
  /**
   * Pre-tool hooks rewrote a call: the arguments the model gave (`original`,
   * also in its `tool/call`), the arguments every gate then decided on and the
   * tool ran with (`arguments`), and the hooks whose rewrites changed them, in
   * order. Logged after the pre-tool decision and before the tool runs; the
   * one record audit, presentation and replay read (docs/rfc-tool-input-rewrite.md).
   */
  z.object({
    type: z.literal('tool/rewrite'),
    turn,
    step: z.number().int().positive(),
    toolCallId: z.string(),
    toolName: z.string(),
    original: z.record(z.string(), z.unknown()),
    arguments: z.record(z.string(), z.unknown()),
    hooks: z.array(z.string()).min(1),
    /**
     * The rewrites did not settle within the passes, so the call was denied:
     * the hooks that still changed the arguments in the last pass (replay
     * folds that deny back from it).
     */
    unsettled: z.array(z.string()).min(1).optional(),
  }),
  /**
   * Pre-tool hooks asked before a call: every asking hook with its own
   * reason (attributed by the host), and what the person (or the timeout)
   * answered. Logged before the call's `tool/result`.
   */
  z.object({
    type: z.literal('tool/ask'),
    turn,
    step: z.number().int().positive(),
    toolCallId: z.string(),
    asks: z.array(AttributedAskSchema).min(1),
    answer: z.enum(['allow', 'deny']),
    /** Why, as the loop put it (e.g. "… (denied by the user)", "… (ask degraded to deny: …)"). */
    reason: z.string(),
  }),
  z.object({
    type: z.literal('context/message'),
    turn,
    content: z.string(),
    source: z.enum(['session-start', 'prompt-submit', 'post-tool', 'inject']),
  }),
  z.object({
    type: z.literal('steering/message'),
    turn,
    content: z.string(),
    /** A subagent forced on (agent/subagent-stop), by the agent's id for it ('' when it gives none); absent: the turn itself. */
    subagent: z.string().optional(),
  }),
  z.object({
    type: z.literal('turn/end'),
    turn,
    reason: TurnEndReasonSchema,
    steps: z.number().int().nonnegative(),
    message: z.string().optional(),
  }),
  z.object({
    type: z.literal('hook/invoke'),
    turn: turn.optional(),
    step: z.number().int().nonnegative().optional(),
    hook: z.string(),
    digest: z.string().optional(),
    /** Where the hook ran; `shell` = unsandboxed (an imported Claude Code / Codex command). */
    sandbox: z.enum(['wasm', 'native', 'shell']).optional(),
    seam: z.enum(SEAM_IDS as [SeamId, ...SeamId[]]),
    durationUs: z.number().nonnegative(),
    outcome: z.enum(['decision', 'no-opinion', 'fault']),
    decision: z.unknown().optional(),
    fault: HookFaultSchema.optional(),
    applied: z.unknown(),
    /** The operator's signals the call read (argv[0], exit, duration, bytes). */
    signals: z.array(SignalRunSchema).readonly().optional(),
  }),
  z.object({
    type: z.literal('hook/log'),
    turn: turn.optional(),
    hook: z.string(),
    level: z.enum(['info', 'warn', 'error', 'debug']),
    message: z.string(),
  }),
]);
export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type SessionEventType = SessionEvent['type'];
export type EventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;
