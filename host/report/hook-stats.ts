import type { EventOf } from '../log/index.ts';
import type { HookFaultKind, SeamId } from '../seams/index.ts';
import type { HookStats } from './report-data.ts';

type Invoke = EventOf<'hook/invoke'>;

/**
 * The nearest-rank percentile of ascending `sorted` (`q` in 0..1): the
 * smallest recorded value with at least `q` of the values at or below it,
 * so it is always a duration that happened. 0 for no values.
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/**
 * The word a hook's own decision counts under: its `action`; for a decision
 * without one, `context` when it adds some (session-start, subagent-start),
 * else `empty` (the empty acknowledgement of session-end and notification).
 */
export function decisionWord(decision: unknown): string {
  if (typeof decision === 'object' && decision !== null && 'action' in decision && typeof decision.action === 'string') return decision.action;
  if (typeof decision === 'object' && decision !== null && 'additionalContext' in decision) return 'context';
  return 'empty';
}

/** Adds one to `record[key]`. */
export function bump<K extends string>(record: Partial<Record<K, number>>, key: K): void {
  record[key] = (record[key] ?? 0) + 1;
}

function addOnce<T>(list: T[], value: T | undefined): void {
  if (value !== undefined && !list.includes(value)) list.push(value);
}

interface Accumulator {
  readonly hook: string;
  readonly digests: string[];
  readonly sandboxes: NonNullable<Invoke['sandbox']>[];
  readonly seams: SeamId[];
  readonly decisions: Record<string, number>;
  readonly faults: Partial<Record<HookFaultKind, number>>;
  readonly durations: number[];
  noOpinion: number;
}

/** Per-hook figures over every invocation, hooks in the order they were first called. */
export function hookStats(invocations: Iterable<Invoke>): HookStats[] {
  const byHook = new Map<string, Accumulator>();
  for (const invoke of invocations) {
    let acc = byHook.get(invoke.hook);
    if (acc === undefined) {
      acc = { hook: invoke.hook, digests: [], sandboxes: [], seams: [], decisions: {}, faults: {}, durations: [], noOpinion: 0 };
      byHook.set(invoke.hook, acc);
    }
    addOnce(acc.digests, invoke.digest);
    addOnce(acc.sandboxes, invoke.sandbox);
    addOnce(acc.seams, invoke.seam);
    acc.durations.push(invoke.durationUs);
    if (invoke.outcome === 'fault') {
      if (invoke.fault !== undefined) bump(acc.faults, invoke.fault.kind);
    }
    else if (invoke.outcome === 'no-opinion') acc.noOpinion += 1;
    else bump(acc.decisions, decisionWord(invoke.decision));
  }
  return [...byHook.values()].map((acc) => {
    const sorted = [...acc.durations].sort((a, b) => a - b);
    return {
      hook: acc.hook,
      digests: acc.digests,
      sandboxes: acc.sandboxes,
      seams: acc.seams,
      calls: acc.durations.length,
      noOpinion: acc.noOpinion,
      decisions: acc.decisions,
      faults: acc.faults,
      p50Us: percentile(sorted, 0.5),
      p99Us: percentile(sorted, 0.99),
      maxUs: sorted.at(-1) ?? 0,
      durationsUs: acc.durations,
    };
  });
}
