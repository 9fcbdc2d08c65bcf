/**
 * `host/report`'s figures from a session log written by the real log writer
 * and read back by `readReportLogs`. Every expected value is written out by
 * hand from the log below, never computed with the code under test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLogError } from '../../host/errors.ts';
import { type SessionEvent, SessionLogWriter } from '../../host/log/index.ts';
import {
  ReportDataSchema,
  chartScale,
  formatUs,
  histogram,
  percentile,
  readReportLogs,
  summarize,
  timelineSections,
} from '../../host/report/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-report-unit-');
});
afterEach(() => workspace.dispose());

const AT = '2026-12-01T10:00:00.000Z';
const invoke = (fields: Partial<Extract<SessionEvent, { type: 'hook/invoke' }>> & Pick<Extract<SessionEvent, { type: 'hook/invoke' }>, 'hook' | 'seam' | 'durationUs' | 'outcome'>): SessionEvent => ({
  type: 'hook/invoke',
  applied: null,
  ...fields,
});

/** A session of three turns: a deny, an ask answered deny, a faulting hook, a blocked prompt. */
const LOG: SessionEvent[] = [
  { type: 'session/start', sessionId: 'sess-1', cwd: '/w', source: 'startup', at: AT },
  invoke({ hook: 'ctx', seam: 'agent/session-start', durationUs: 40, outcome: 'decision', decision: { additionalContext: 'rules' }, applied: { additionalContext: 'rules' } }),
  { type: 'turn/start', turn: 1, at: '2026-12-01T10:00:01.000Z' },
  invoke({ turn: 1, step: 0, hook: 'pg', seam: 'agent/prompt-submit', durationUs: 100, outcome: 'decision', decision: { action: 'allow' }, applied: { action: 'allow' } }),
  { type: 'user/message', turn: 1, content: 'clean up' },
  { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } },
  invoke({ turn: 1, step: 1, hook: 'guard', seam: 'tools/pre-execute', durationUs: 300, outcome: 'decision', decision: { action: 'deny', reason: 'no' }, applied: { action: 'deny', reason: 'no' } }),
  { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: 'Tool call denied by a hook: no', isError: true, hookEffect: 'denied' },
  { type: 'tool/call', turn: 1, step: 2, toolCallId: 'c2', toolName: 'bash', arguments: { command: 'git push' } },
  invoke({ turn: 1, step: 2, hook: 'guard', seam: 'tools/pre-execute', durationUs: 200, outcome: 'decision', decision: { action: 'ask', reason: 'push?' }, applied: { action: 'ask', reason: 'push?' } }),
  invoke({ turn: 1, step: 2, hook: 'flaky', seam: 'tools/pre-execute', durationUs: 5000, outcome: 'fault', fault: { kind: 'timeout', message: 'over 1000 ms' }, applied: { action: 'ask', reason: 'flaky timed out' } }),
  { type: 'tool/ask', turn: 1, step: 2, toolCallId: 'c2', asks: [{ hook: 'guard', reason: 'push?' }], answer: 'deny', reason: 'push? (denied by the user)' },
  { type: 'tool/result', turn: 1, step: 2, toolCallId: 'c2', toolName: 'bash', content: 'denied', isError: true, hookEffect: 'denied' },
  { type: 'turn/end', turn: 1, reason: 'completed', steps: 2 },
  { type: 'turn/start', turn: 2, at: '2026-12-01T10:00:02.000Z' },
  invoke({ turn: 2, step: 0, hook: 'pg', seam: 'agent/prompt-submit', durationUs: 400, outcome: 'decision', decision: { action: 'block', reason: 'secret' }, applied: { action: 'block', reason: 'secret' } }),
  { type: 'prompt/blocked', turn: 2, reason: 'secret', content: 'key AKIA0000' },
  { type: 'turn/end', turn: 2, reason: 'rejected', steps: 0, message: 'secret' },
  // turn 3 has no turn/start (a log cut at the front would look like this)
  invoke({ turn: 3, step: 1, hook: 'guard', seam: 'tools/pre-execute', durationUs: 250, outcome: 'no-opinion' }),
];

function writeLog(name: string, events: readonly SessionEvent[]): string {
  const path = join(workspace.dir, name);
  const writer = SessionLogWriter.open(path);
  try {
    for (const event of events) writer.append(event);
  } finally {
    writer.close();
  }
  return path;
}

describe('summarize', () => {
  it('counts turns, prompts, tool calls, denials, asks, hook calls and faults', () => {
    const data = summarize(readReportLogs([writeLog('a.jsonl', LOG)]));
    expect(ReportDataSchema.parse(data)).toEqual(data);
    expect(data.totals).toEqual({
      sessions: 1,
      turns: 2,
      turnsByReason: { completed: 1, rejected: 1 },
      prompts: 2,
      blockedPrompts: 1,
      toolCalls: 2,
      deniedToolCalls: 2,
      blockedToolResults: 0,
      replacedToolResults: 0,
      rewrittenToolCalls: 0,
      asks: 1,
      hookCalls: 7,
      faults: 1,
      faultsByKind: { timeout: 1 },
      firstAt: AT,
      lastAt: '2026-12-01T10:00:02.000Z',
    });
    expect(data.sessions).toEqual([{ file: join(workspace.dir, 'a.jsonl'), sessionId: 'sess-1', startedAt: AT, turns: 2, events: LOG.length, tornBytes: 0 }]);
  });

  it('gives each hook its calls, decisions by action, faults by kind and nearest-rank percentiles, in first-call order', () => {
    const { hooks } = summarize(readReportLogs([writeLog('a.jsonl', LOG)]));
    expect(hooks.map((h) => h.hook)).toEqual(['ctx', 'pg', 'guard', 'flaky']);
    const guard = hooks.find((h) => h.hook === 'guard');
    expect(guard).toMatchObject({ calls: 3, noOpinion: 1, decisions: { deny: 1, ask: 1 }, faults: {}, p50Us: 250, p99Us: 300, maxUs: 300, durationsUs: [300, 200, 250] });
    expect(hooks.find((h) => h.hook === 'flaky')).toMatchObject({ calls: 1, noOpinion: 0, decisions: {}, faults: { timeout: 1 }, p50Us: 5000 });
    expect(hooks.find((h) => h.hook === 'ctx')?.decisions).toEqual({ context: 1 });
    expect(hooks.find((h) => h.hook === 'pg')?.decisions).toEqual({ allow: 1, block: 1 });
  });

  it('lists denials, asks (with the answer) and blocks with what they decided on; a blocked prompt is withheld unless asked for', () => {
    const file = writeLog('a.jsonl', LOG);
    const { findings } = summarize(readReportLogs([file]));
    expect(findings).toEqual([
      { session: 0, turn: 1, step: 1, hook: 'guard', seam: 'tools/pre-execute', action: 'deny', reason: 'no', subject: 'bash {"command":"rm -rf /"}', anchor: 's0-e6' },
      { session: 0, turn: 1, step: 2, hook: 'guard', seam: 'tools/pre-execute', action: 'ask', reason: 'push?', subject: 'bash {"command":"git push"}', answer: 'deny', anchor: 's0-e9' },
      {
        session: 0,
        turn: 1,
        step: 2,
        hook: 'flaky',
        seam: 'tools/pre-execute',
        action: 'ask',
        reason: 'flaky timed out',
        subject: 'bash {"command":"git push"}',
        fault: 'timeout',
        answer: 'deny',
        anchor: 's0-e10',
      },
      {
        session: 0,
        turn: 2,
        step: 0,
        hook: 'pg',
        seam: 'agent/prompt-submit',
        action: 'block',
        reason: 'secret',
        subject: 'prompt: (12 characters, withheld from the report; see the session log)',
        anchor: 's0-e15',
      },
    ]);
    expect(JSON.stringify(findings)).not.toContain('AKIA0000');
    const shown = summarize(readReportLogs([file]), { showBlockedPrompts: true }).findings.at(-1);
    expect(shown?.subject).toBe('prompt: key AKIA0000');
  });

  it('numbers sessions in the order the logs were given', () => {
    const first = writeLog('a.jsonl', LOG);
    const second = writeLog('b.jsonl', [{ type: 'session/start', sessionId: 'sess-2', cwd: '/w', source: 'resume', at: AT }, ...LOG.slice(5, 8)]);
    const data = summarize(readReportLogs([first, second]));
    expect(data.sessions.map((s) => s.sessionId)).toEqual(['sess-1', 'sess-2']);
    expect(data.findings.filter((f) => f.session === 1)).toEqual([
      { session: 1, turn: 1, step: 1, hook: 'guard', seam: 'tools/pre-execute', action: 'deny', reason: 'no', subject: 'bash {"command":"rm -rf /"}', anchor: 's1-e2' },
    ]);
    expect(data.hooks.find((h) => h.hook === 'guard')?.calls).toBe(4);
  });
});

describe('timelineSections', () => {
  it('cuts the log into turns and runs outside a turn, groups a seam dispatch, and keeps a turn whose start is missing', () => {
    const sections = timelineSections(0, LOG);
    expect(sections.map((s) => [s.turn, s.end?.reason, s.items.length])).toEqual([
      [undefined, undefined, 2],
      [1, 'completed', 9],
      [2, 'rejected', 2],
      [3, undefined, 1],
    ]);
    const dispatch = sections[1]?.items[6];
    expect(dispatch?.kind === 'dispatch' && dispatch.invocations.map((i) => [i.event.hook, i.anchor])).toEqual([
      ['guard', 's0-e9'],
      ['flaky', 's0-e10'],
    ]);
  });
});

describe('figures', () => {
  it('percentile is nearest-rank: always a recorded value', () => {
    expect(percentile([], 0.5)).toBe(0);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 1)).toBe(100);
  });

  it('the chart scale spans every hook in quarter decades, and the histogram puts each call in its bin', () => {
    const hooks = summarize(readReportLogs([writeLog('a.jsonl', LOG)])).hooks;
    // fastest 40 µs: bin floor(4·log10 40) = 6; slowest 5000 µs: floor(4·log10 5000) = 14, plus one
    expect(chartScale(hooks)).toEqual({ lo: 6, hi: 15 });
    // guard: 300 µs → bin 9, 200 µs → bin 9, 250 µs → bin 9
    expect(histogram([300, 200, 250], { lo: 6, hi: 15 })).toEqual([0, 0, 0, 3, 0, 0, 0, 0, 0]);
    expect(histogram([0.2, 1e9], { lo: 6, hi: 15 })).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect([formatUs(847), formatUs(1203), formatUs(12412), formatUs(2_500_000)]).toEqual(['847 µs', '1.20 ms', '12.4 ms', '2.50 s']);
  });
});

describe('readReportLogs', () => {
  it('names the file for a missing file, a folder, an empty file, and the file and line for a bad line', () => {
    const missing = join(workspace.dir, 'missing.jsonl');
    expect(() => readReportLogs([missing])).toThrow(new SessionLogError(`session log ${missing} does not exist`));
    const folder = join(workspace.dir, 'folder');
    mkdirSync(folder);
    expect(() => readReportLogs([folder])).toThrow(`${folder}: not a file`);
    const empty = join(workspace.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(() => readReportLogs([empty])).toThrow(`${empty}: not a session log (no events)`);
    const bad = join(workspace.dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(LOG[0])}\n{"type":"nope"}\n`);
    expect(() => readReportLogs([bad])).toThrow(`${bad}:2: not a session event`);
    expect(() => readReportLogs([])).toThrow(SessionLogError);
  });

  it('skips and counts a torn last line', () => {
    const file = writeLog('torn.jsonl', LOG.slice(0, 3));
    writeFileSync(file, `${JSON.stringify(LOG[0])}\n{"type":"turn/st`);
    const [log] = readReportLogs([file]);
    expect(log?.events).toHaveLength(1);
    expect(log?.tornBytes).toBe('{"type":"turn/st'.length);
  });
});
