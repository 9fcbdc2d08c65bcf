import type { HookInvocation, SeamBus } from '../events/index.ts';
import { canonicalJson } from '../events/index.ts';
import type { SessionEvent } from '../log/index.ts';
import { type DecisionOf, type PayloadOf, type SeamId, seamDefinition } from '../seams/index.ts';
import { SEAM_FIRING } from './seam-firing.ts';

/** One hook's say in a decision: what the seam applied from it (`null` = no opinion). */
export interface HookVerdict {
  readonly hook: string;
  readonly applied: unknown;
  readonly fault?: string;
}

export interface ReplayedDecision {
  readonly seam: SeamId;
  readonly turn: number;
  /** What was decided about: the prompt text, or the tool name and call id. */
  readonly subject: string;
  readonly toolCallId?: string;
  readonly before: Verdicts;
  readonly after: Verdicts;
  /** Whether the decision or the arguments a rewrite made (pre-tool) differ. */
  readonly changed: boolean;
}

/** A composed decision, the hooks behind it, and on pre-tool the arguments a rewrite made it run with. */
export interface Verdicts {
  readonly decision: unknown;
  readonly hooks: readonly HookVerdict[];
  /** Present when pre-tool hooks rewrote the call: the arguments it ran (or would run) with, and who rewrote it. */
  readonly rewrite?: { readonly arguments: Record<string, unknown>; readonly hooks: readonly string[] };
}

export interface ReplayReport {
  readonly decisions: readonly ReplayedDecision[];
  /** Recorded decisions that cannot be re-decided, and why. */
  readonly skipped: readonly { readonly seam: SeamId; readonly turn: number; readonly subject: string; readonly why: string }[];
  /** Seams the log has hook calls on that replay does not re-decide at all, and why. */
  readonly notReplayed: readonly { readonly seam: SeamId; readonly why: string }[];
}

interface Pending {
  readonly invocations: Extract<SessionEvent, { type: 'hook/invoke' }>[];
}

/**
 * Re-decides every recorded prompt and tool call of a session log against
 * another hook set, without running any tool or model, and reports what
 * would change. "Before" is the recorded hooks' applied decisions folded by
 * the seam's own composition; "after" is a live dispatch on the new bus.
 */
export async function replaySession(events: readonly SessionEvent[], bus: SeamBus): Promise<ReplayReport> {
  const decisions: ReplayedDecision[] = [];
  const skipped: { seam: SeamId; turn: number; subject: string; why: string }[] = [];
  const start = events.find((event) => event.type === 'session/start');
  const sessionId = start?.type === 'session/start' ? start.sessionId : 'replay';
  const cwd = start?.type === 'session/start' ? start.cwd : process.cwd();
  let pending: Pending = { invocations: [] };
  let lastCall: Extract<SessionEvent, { type: 'tool/call' }> | undefined;
  const take = (seam: SeamId) => {
    const mine = pending.invocations.filter((invocation) => invocation.seam === seam);
    pending = { invocations: pending.invocations.filter((invocation) => invocation.seam !== seam) };
    return mine;
  };

  let lastRewrite: Extract<SessionEvent, { type: 'tool/rewrite' }> | undefined;
  async function redecide<S extends SeamId>(seam: S, turn: number, step: number, subject: string, payload: PayloadOf<S>, toolCallId?: string) {
    const recorded = take(seam);
    const definition = seamDefinition(seam);
    let before = definition.defaultDecision(payload);
    for (const applied of standingDecisions(recorded, definition.rewriteRounds !== undefined)) {
      if (applied !== null) before = definition.compose(before, applied as DecisionOf<S>);
      if (definition.shortCircuits(before)) break;
    }
    const result = await bus.dispatch(seam, payload, { id: sessionId, turn, step, cwd });
    const after = result.decision;
    // A rewrite is part of what was decided: the log's `tool/rewrite` against the live run's final payload.
    const recordedRewrite = seam === 'tools/pre-execute' && lastRewrite?.toolCallId === toolCallId ? lastRewrite : undefined;
    // Rewrites that did not settle were denied whatever each hook last said: the recorded side is that deny.
    const rounds = definition.rewriteRounds;
    if (recordedRewrite?.unsettled !== undefined && rounds !== undefined) before = rounds.unsettled(recordedRewrite.unsettled, rounds.max) as DecisionOf<S>;
    const beforeRewrite = recordedRewrite === undefined ? undefined : { arguments: recordedRewrite.arguments, hooks: recordedRewrite.hooks };
    const afterRewrite = liveRewrite(payload, result.payload, result.rewrittenBy);
    decisions.push({
      seam,
      turn,
      subject,
      ...(toolCallId !== undefined && { toolCallId }),
      before: { decision: before, hooks: recorded.map(verdict), ...(beforeRewrite !== undefined && { rewrite: beforeRewrite }) },
      after: { decision: after, hooks: result.invocations.map(verdict), ...(afterRewrite !== undefined && { rewrite: afterRewrite }) },
      changed:
        JSON.stringify(before) !== JSON.stringify(after) ||
        canonicalJson(beforeRewrite?.arguments ?? null) !== canonicalJson(afterRewrite?.arguments ?? null),
    });
  }

  for (const event of events) {
    switch (event.type) {
      case 'hook/invoke':
        pending.invocations.push(event);
        break;
      case 'user/message':
        await redecide('agent/prompt-submit', event.turn, 0, event.originalContent ?? event.content, {
          content: event.originalContent ?? event.content,
          source: 'api',
        });
        break;
      case 'prompt/blocked':
        await redecide('agent/prompt-submit', event.turn, 0, event.content, { content: event.content, source: 'api' });
        break;
      case 'tool/call':
        take('tools/pre-execute');
        lastCall = event;
        lastRewrite = undefined;
        break;
      case 'tool/rewrite':
        lastRewrite = event;
        break;
      case 'tool/result': {
        if (lastCall === undefined || lastCall.toolCallId !== event.toolCallId) break;
        const call = lastCall;
        const subject = `${call.toolName} ${JSON.stringify(call.arguments)}`;
        // Pre-tool hooks ran before the result; their invocations precede it.
        const base = { toolCallId: call.toolCallId, toolName: call.toolName, arguments: call.arguments };
        const postRecorded = pending.invocations.filter((invocation) => invocation.seam === 'tools/post-execute');
        pending = { invocations: pending.invocations.filter((invocation) => invocation.seam !== 'tools/post-execute') };
        await redecide('tools/pre-execute', call.turn, call.step, subject, base, call.toolCallId);
        if (event.hookEffect === undefined) {
          pending.invocations.push(...postRecorded);
          await redecide(
            'tools/post-execute',
            call.turn,
            call.step,
            subject,
            { ...base, result: { content: event.content, isError: event.isError } },
            call.toolCallId,
          );
        } else if (event.hookEffect !== 'denied') {
          skipped.push({
            seam: 'tools/post-execute',
            turn: call.turn,
            subject,
            why: `the result was ${event.hookEffect} by a hook and the original is not kept in the log`,
          });
        }
        lastCall = undefined;
        lastRewrite = undefined;
        break;
      }
      default:
        break;
    }
  }
  const recordedSeams = new Set(events.flatMap((event) => (event.type === 'hook/invoke' ? [event.seam] : [])));
  const notReplayed = [...recordedSeams].flatMap((seam) => {
    const why = SEAM_FIRING[seam].notReplayed;
    return why === null ? [] : [{ seam, why }];
  });
  return { decisions, skipped, notReplayed };
}

/**
 * What each recorded hook finally stood on, in order. On a seam that re-asks
 * hooks after a rewrite (pre-tool) a hook may be logged once per pass; the
 * last pass folds each hook's latest answer in the order the hooks first ran.
 */
function standingDecisions(recorded: readonly Extract<SessionEvent, { type: 'hook/invoke' }>[], rounds: boolean): unknown[] {
  if (!rounds) return recorded.map((invocation) => invocation.applied);
  const latest = new Map<string, unknown>();
  for (const invocation of recorded) latest.set(invocation.hook, invocation.applied);
  return [...latest.values()];
}

/** The rewrite a live pre-tool run made, when its final arguments differ from the call's. */
function liveRewrite(payload: unknown, final: unknown, hooks: readonly string[] | undefined): Verdicts['rewrite'] {
  const before = (payload as { arguments?: Record<string, unknown> }).arguments;
  const after = (final as { arguments?: Record<string, unknown> } | undefined)?.arguments;
  if (after === undefined || hooks === undefined || hooks.length === 0) return undefined;
  if (canonicalJson(before) === canonicalJson(after)) return undefined;
  return { arguments: after, hooks };
}

function verdict(invocation: HookInvocation | Extract<SessionEvent, { type: 'hook/invoke' }>): HookVerdict {
  return {
    hook: invocation.hook,
    applied: invocation.applied,
    ...(invocation.fault !== undefined && { fault: invocation.fault.kind }),
  };
}
