/**
 * A session log whose every string is an attack on the page that shows it:
 * markup that would run a script, end the title or the style sheet, break
 * out of an attribute or an SVG, load something from the network, and the
 * terminal attacks of `hostile-text.ts` (escape sequences, bidi, C1…). The
 * report must show each as inert, visible text. Checked twice: on the HTML
 * text (no browser needed) and in a real Chromium (what the DOM holds, what
 * ran, what was requested).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SessionEvent, SessionLogWriter } from '../../host/log/index.ts';
import { readReportLogs, renderPage, summarize } from '../../host/report/index.ts';
import { isPrintable, printable, printableJson } from '../../host/text/index.ts';
import { CHROMIUM, NO_CHROMIUM, launchChromium, openFile, requestsBeyond } from '../helpers/chromium.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { ALL_ATTACKS, ATTACKS } from './hostile-text.ts';
import { skipUnless } from '../helpers/skips.ts';

/** Each would do something if it reached the page as markup. */
const MARKUP = {
  script: '<script>window.__pwned = 1; alert(1)</script>',
  title: '</title><script>alert(2)</script><title>',
  style: '</style><style>body { background: url(http://127.0.0.1:9/style) }</style>',
  attribute: `" onmouseover="alert(3)" data-x="`,
  singleQuote: `' autofocus onfocus='alert(4)' x='`,
  image: '<img src="http://127.0.0.1:9/img" onerror="alert(5)">',
  svg: '</desc></svg><svg onload="alert(6)"><a href="javascript:alert(7)">x</a>',
  comment: '--><!-- <base href="http://127.0.0.1:9/">',
  entity: '&lt;script&gt; stays as typed &amp;',
} as const;

const EVIL = `${Object.values(MARKUP).join(' ')} ${ALL_ATTACKS}`;
const evil = (where: string): string => `${where}: ${EVIL}`;

const LOG: SessionEvent[] = [
  { type: 'session/start', sessionId: evil('session'), cwd: evil('cwd'), source: 'startup', at: '2026-12-01T10:00:00.000Z' },
  { type: 'hook/log', hook: evil('log hook'), level: 'warn', message: evil('log message') },
  { type: 'hook/invoke', hook: evil('context hook'), digest: evil('digest'), sandbox: 'wasm', seam: 'agent/session-start', durationUs: 10, outcome: 'decision', decision: { additionalContext: evil('context') }, applied: { additionalContext: evil('context') } },
  { type: 'turn/start', turn: 1, at: '2026-12-01T10:00:01.000Z' },
  { type: 'hook/invoke', turn: 1, step: 0, hook: evil('prompt hook'), seam: 'agent/prompt-submit', durationUs: 20, outcome: 'decision', decision: { action: 'allow', content: evil('rewrite') }, applied: { action: 'allow', content: evil('rewrite') } },
  { type: 'user/message', turn: 1, content: `${evil('prompt')}\nsecond line ${MARKUP.script}`, originalContent: evil('original prompt') },
  { type: 'context/message', turn: 1, content: evil('context message'), source: 'prompt-submit' },
  { type: 'assistant/message', turn: 1, step: 1, content: evil('assistant'), toolCalls: [] },
  { type: 'tool/call', turn: 1, step: 1, toolCallId: evil('call id'), toolName: evil('tool'), arguments: { [evil('arg key')]: evil('arg value') } },
  { type: 'hook/invoke', turn: 1, step: 1, hook: evil('guard hook'), seam: 'tools/pre-execute', durationUs: 30, outcome: 'decision', decision: { action: 'ask', reason: evil('ask reason') }, applied: { action: 'ask', reason: evil('ask reason') } },
  { type: 'hook/invoke', turn: 1, step: 1, hook: evil('faulting hook'), sandbox: 'shell', seam: 'tools/pre-execute', durationUs: 40, outcome: 'fault', fault: { kind: 'plugin-error', message: evil('fault message') }, applied: { action: 'deny', reason: evil('fault decision') } },
  { type: 'tool/ask', turn: 1, step: 1, toolCallId: evil('call id'), asks: [{ hook: evil('asking hook'), reason: evil('asked') }], answer: 'deny', reason: evil('ask answer') },
  { type: 'tool/result', turn: 1, step: 1, toolCallId: evil('call id'), toolName: evil('tool'), content: evil('result'), isError: true, hookEffect: 'denied' },
  { type: 'steering/message', turn: 1, content: evil('steering') },
  { type: 'turn/end', turn: 1, reason: 'completed', steps: 1, message: evil('turn end') },
  { type: 'turn/start', turn: 2, at: '2026-12-01T10:00:02.000Z' },
  { type: 'hook/invoke', turn: 2, step: 0, hook: evil('blocking hook'), seam: 'agent/prompt-submit', durationUs: 50, outcome: 'decision', decision: { action: 'block', reason: evil('block reason') }, applied: { action: 'block', reason: evil('block reason') } },
  { type: 'prompt/blocked', turn: 2, reason: evil('blocked reason'), content: evil('blocked prompt') },
  { type: 'turn/end', turn: 2, reason: 'rejected', steps: 0, message: evil('rejected') },
];

let workspace: TestWorkspace;
let file: string;
let page: string;
beforeAll(() => {
  workspace = makeWorkspace('hookbox-report-hostile-');
  // The log's own name is an attack too (a file name may hold anything but "/").
  file = join(workspace.dir, `${MARKUP.image}${MARKUP.attribute}.jsonl`);
  const writer = SessionLogWriter.open(file);
  try {
    for (const event of LOG) writer.append(event);
  } finally {
    writer.close();
  }
});
// Rendered for each test, not once: code a `beforeAll` runs is "static" to the mutation groups
// (every report mutant it reaches would run every suite of the group), and rendering costs milliseconds.
beforeEach(() => {
  const logs = readReportLogs([file]);
  const options = { showBlockedPrompts: true, generatedAt: '2026-12-01T11:00:00.000Z' };
  page = renderPage(summarize(logs, options), [logs[0]?.events ?? []], options);
});
afterAll(() => workspace.dispose());

describe('a hostile session log, in the HTML text', () => {
  it('holds no markup from the log: no script, image, event-handler attribute or second title/style/svg', () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toMatch(/<base/i);
    expect(page).not.toMatch(/<a href="javascript/i);
    // every tag, its double-quoted attribute values taken out: no on…= attribute is left
    // (a value that let a raw quote through would leave its injected attribute behind)
    const tags = (page.match(/<[a-z][^>]*>/gi) ?? []).map((tag) => tag.replace(/="[^"]*"/g, '=""'));
    expect(tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag) || /[\s"']autofocus/i.test(tag))).toEqual([]);
    // the document's title and one per chart (five hooks), each closed once
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page.match(/<title[\s>]/g)).toHaveLength(6);
    expect(page.match(/<\/title>/g)).toHaveLength(6);
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(page.match(/<\/style>/g)).toHaveLength(1);
    // one chart per hook (five hooks), and no other svg
    expect(page.match(/<svg/g)).toHaveLength(5);
    expect(page.match(/<!--/g)).toBeNull();
  });

  it('holds no control, escape, bidi or format character: each line is printable', () => {
    for (const line of page.split('\n')) expect(isPrintable(line), JSON.stringify(line.slice(0, 200))).toBe(true);
  });

  it('shows every attack escaped, where it can be read', () => {
    expect(page).toContain('&lt;script&gt;window.__pwned = 1; alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).toContain('&quot; onmouseover=&quot;alert(3)&quot;');
    expect(page).toContain('&#39; autofocus onfocus=&#39;alert(4)&#39;');
    expect(page).toContain('&amp;lt;script&amp;gt; stays as typed &amp;amp;');
    expect(page).toContain(printable(ATTACKS.clipboard));
    expect(page).toContain('\\u{202e}HBXMARK kcolb');
    expect(page).toContain('\\x1b[2K\\r');
  });

  it('--json data is lossless and printable too', () => {
    const json = printableJson(summarize(readReportLogs([file]), { showBlockedPrompts: true }), 2);
    expect(json).not.toContain('\x1b');
    expect(json).not.toContain('\u202e');
    expect(JSON.parse(json).findings.map((f: { reason: string }) => f.reason)).toContain(evil('ask reason'));
  });
});

describe.skipIf(skipUnless('a hostile session log, in Chromium', CHROMIUM === undefined ? NO_CHROMIUM : undefined))(`a hostile session log, in Chromium (${CHROMIUM === undefined ? NO_CHROMIUM : CHROMIUM})`, () => {
  it('nothing runs, loads or breaks out; the attacks are visible as text', async () => {
    const htmlFile = join(workspace.dir, 'report.html');
    writeFileSync(htmlFile, page);
    const browser = await launchChromium();
    try {
      const record = await openFile(browser, htmlFile);
      const { page: tab } = record;
      // give an injected autofocus/onmouseover its chance
      await tab.mouse.move(300, 300);
      await tab.keyboard.press('Tab');
      expect(record.dialogs).toEqual([]);
      expect(record.pageErrors).toEqual([]);
      expect(record.consoleErrors).toEqual([]);
      expect(requestsBeyond(record, htmlFile)).toEqual([]);
      // In-page checks are plain JS text: the project's tsconfig has no DOM types.
      const inPage = await tab.evaluate(`({
        pwned: typeof window.__pwned,
        handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on') || a.name === 'autofocus')).length,
        javascriptLinks: [...document.querySelectorAll('a')].filter((a) => (a.getAttribute('href') ?? '').trim().toLowerCase().startsWith('javascript')).length,
      })`);
      const dom = {
        ...(inPage as { pwned: string; handlers: number; javascriptLinks: number }),
        dangerous: await tab.locator('script, img, iframe, object, embed, link, base, form, input, title ~ title, style ~ style').count(),
        svgs: await tab.locator('svg').count(),
        title: await tab.title(),
        h1: await tab.locator('h1').allTextContents(),
        text: await tab.locator('body').innerText(),
      };
      expect(dom.pwned).toBe('undefined');
      expect(dom.dangerous).toBe(0);
      expect(dom.handlers).toBe(0);
      expect(dom.javascriptLinks).toBe(0);
      expect(dom.svgs).toBe(5);
      expect(dom.h1).toEqual(['hookbox audit report']);
      // document.title collapses runs of whitespace
      expect(dom.title).toBe(`hookbox audit report: session ${printable(evil('session'), { maxLength: 2000 })}`.replace(/\s+/g, ' '));
      expect(dom.text).toContain(MARKUP.script);
      expect(dom.text).toContain(MARKUP.svg);
      expect(dom.text).toContain('\\u{202e}HBXMARK kcolb');
      expect(dom.text).not.toContain('\u202e');
      expect(dom.text).not.toContain('\x1b');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
