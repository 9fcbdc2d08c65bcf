/**
 * The audit report's pages byte for byte: two session logs written by the
 * real log writer (tests/golden/report/sessions.ts; one with a torn last
 * line) rendered as `hookbox report` renders them, HTML and JSON, with the
 * text of blocked prompts withheld and shown. A renderer's every word,
 * number and class is part of what a reader sees, so any change to them
 * shows here. Golden files change only through `npm run golden:report`,
 * which sets HOOKBOX_UPDATE_GOLDEN=report; review the diff before committing.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printableJson } from '../../host/text/index.ts';
import { type SessionEvent, SessionLogWriter } from '../../host/log/index.ts';
import { type ReportLog, readReportLogs, renderPage, summarize } from '../../host/report/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { SESSION_A, SESSION_B } from './report/sessions.ts';

const GOLDEN_DIR = join(import.meta.dirname, 'report');
const GENERATED_AT = '2026-12-02T09:00:00.000Z';
/** The logs' folder differs per run; the pages show it as this. */
const LOGS = '{logs}';

let workspace: TestWorkspace;
let logs: ReportLog[];

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

beforeAll(() => {
  workspace = makeWorkspace('hookbox-report-golden-');
  const b = writeLog('b.jsonl', SESSION_B);
  appendFileSync(b, '{"type":"tool/res'); // a crash mid-append
  logs = readReportLogs([writeLog('a.jsonl', SESSION_A), b]);
});
afterAll(() => workspace.dispose());

function expectGolden(name: string, text: string): void {
  const path = join(GOLDEN_DIR, name);
  const normalised = text.split(workspace.dir).join(LOGS);
  if (process.env.HOOKBOX_UPDATE_GOLDEN === 'report') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, normalised);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing golden file ${path}: run npm run golden:report`);
  const golden = readFileSync(path, 'utf8');
  if (normalised === golden) return;
  const got = normalised.split('\n');
  const want = golden.split('\n');
  const line = got.findIndex((text, i) => text !== want[i]);
  const at = line < 0 ? Math.min(got.length, want.length) : line;
  expect(got[at], `${name} differs from the golden file at line ${at + 1} (if the change is intended, run npm run golden:report)`).toBe(want[at]);
  expect(normalised).toBe(golden);
}

describe('hookbox report pages', () => {
  it('the HTML page, blocked prompts withheld (the default)', () => {
    const options = { showBlockedPrompts: false };
    expectGolden('two-sessions.html', renderPage(summarize(logs, options), logs.map((log) => log.events), { ...options, generatedAt: GENERATED_AT }));
  });

  it('the HTML page with --show-blocked-prompts', () => {
    const options = { showBlockedPrompts: true };
    expectGolden('two-sessions-prompts-shown.html', renderPage(summarize(logs, options), logs.map((log) => log.events), { ...options, generatedAt: GENERATED_AT }));
  });

  it('the --json figures', () => {
    expectGolden('two-sessions.json', `${printableJson(summarize(logs, { showBlockedPrompts: false }), 2)}\n`);
  });

  it('one session: the title names it', () => {
    const one = [logs[0] as ReportLog];
    const page = renderPage(summarize(one), one.map((log) => log.events), { generatedAt: GENERATED_AT });
    expect(page).toContain('<title>hookbox audit report: session sess-a</title>');
    expect(page).toContain('The text of blocked prompts is withheld');
  });
});
