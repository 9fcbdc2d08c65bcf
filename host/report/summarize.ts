import type { EventOf, SessionEvent } from '../log/index.ts';
import type { HookFaultKind } from '../seams/index.ts';
import { type QuoteOptions, sessionFindings } from './findings.ts';
import { bump, hookStats } from './hook-stats.ts';
import type { ReportData, ReportSession, ReportTotals } from './report-data.ts';

/** One session log as read by `readSessionLog`, with the name it was given by. */
export interface ReportLog {
  readonly file: string;
  readonly events: readonly SessionEvent[];
  readonly tornBytes: number;
}

function sessionOf(log: ReportLog): ReportSession {
  const start = log.events.find((event) => event.type === 'session/start');
  return {
    file: log.file,
    ...(start !== undefined && { sessionId: start.sessionId, startedAt: start.at }),
    turns: log.events.filter((event) => event.type === 'turn/start').length,
    events: log.events.length,
    tornBytes: log.tornBytes,
  };
}

function totalsOf(logs: readonly ReportLog[]): ReportTotals {
  const all = logs.flatMap((log) => log.events);
  const of = <T extends SessionEvent['type']>(type: T) => all.filter((event): event is EventOf<T> => event.type === type);
  const turnsByReason: Record<string, number> = {};
  for (const end of of('turn/end')) bump(turnsByReason, end.reason);
  const faultsByKind: Partial<Record<HookFaultKind, number>> = {};
  const faults = of('hook/invoke').filter((invoke) => invoke.outcome === 'fault');
  for (const invoke of faults) if (invoke.fault !== undefined) bump(faultsByKind, invoke.fault.kind);
  const results = of('tool/result');
  const effect = (kind: 'denied' | 'blocked' | 'replaced') => results.filter((result) => result.hookEffect === kind).length;
  // ISO-8601 UTC timestamps sort as strings.
  const stamps = all.flatMap((event) => (event.type === 'session/start' || event.type === 'turn/start' ? [event.at] : [])).sort();
  const blockedPrompts = of('prompt/blocked').length;
  return {
    sessions: logs.length,
    turns: of('turn/start').length,
    turnsByReason,
    prompts: of('user/message').length + blockedPrompts,
    blockedPrompts,
    toolCalls: of('tool/call').length,
    deniedToolCalls: effect('denied'),
    blockedToolResults: effect('blocked'),
    replacedToolResults: effect('replaced'),
    rewrittenToolCalls: of('tool/rewrite').length,
    asks: of('tool/ask').length,
    hookCalls: of('hook/invoke').length,
    faults: faults.length,
    faultsByKind,
    ...(stamps.length > 0 && { firstAt: stamps[0], lastAt: stamps.at(-1) }),
  };
}

/** Everything the report computes from the logs, in the order given. */
export function summarize(logs: readonly ReportLog[], options: QuoteOptions = {}): ReportData {
  return {
    sessions: logs.map(sessionOf),
    totals: totalsOf(logs),
    hooks: hookStats(logs.flatMap((log) => log.events.filter((event): event is EventOf<'hook/invoke'> => event.type === 'hook/invoke'))),
    findings: logs.flatMap((log, index) => sessionFindings(index, log.events, options)),
  };
}
