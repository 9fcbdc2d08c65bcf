/**
 * The audit report of the real demo session, opened in a real Chromium:
 * `hookbox demo` writes its session log, `hookbox report` makes the page,
 * and the test asserts on what a person sees and can reach by keyboard, and
 * that the page requests nothing. `npm run report:screenshot` also saves
 * `docs/report-screenshot.png` (a normal run never rewrites docs).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HOOK_ORDER } from '../../host/cli/demo/scenario.ts';
import { ReportDataSchema } from '../../host/report/index.ts';
import { CHROMIUM, NO_CHROMIUM, type PageRecord, launchChromium, openFile, requestsBeyond } from '../helpers/chromium.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { skipUnless } from '../helpers/skips.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
const SCREENSHOT = fileURLToPath(new URL('../../docs/report-screenshot.png', import.meta.url));

function hookbox(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 180_000 });
}

let workspace: TestWorkspace;
let logPath: string;
let reportPath: string;
beforeAll(() => {
  workspace = makeWorkspace('hookbox-report-demo-');
  const demo = hookbox(['demo', '--workspace', workspace.dir]);
  expect(demo.status, demo.stderr).toBe(0);
  logPath = join(workspace.dir, '.hookbox', 'session.jsonl');
  reportPath = join(workspace.dir, 'report.html');
  const report = hookbox(['report', logPath, '-o', reportPath]);
  expect(report.status, report.stderr).toBe(0);
}, 240_000);
afterAll(() => workspace.dispose());

describe('hookbox report of the demo session', () => {
  it('--json: the six hooks, the denied rm -rf, the ask and the blocked prompt', () => {
    const run = hookbox(['report', logPath, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const data = ReportDataSchema.parse(JSON.parse(run.stdout));
    expect(data.hooks.map((hook) => hook.hook)).toEqual([...DEMO_HOOK_ORDER]);
    expect(data.findings.map((f) => [f.hook, f.action, f.subject])).toEqual([
      ['guard-bash', 'deny', 'bash {"command":"sudo rm -rf --no-preserve-root /"}'],
      ['guard-bash', 'ask', 'bash {"command":"git push origin main"}'],
      ['prompt-guard', 'block', 'prompt: (45 characters, withheld from the report; see the session log)'],
    ]);
    expect(data.findings[1]?.answer).toBe('deny');
  });

  it('is one self-contained file: no script, no external reference', () => {
    const page = readFileSync(reportPath, 'utf8');
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/\b(src|href)="(?!#)/);
    expect(page).not.toMatch(/url\(/);
    expect(page).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });
});

describe.skipIf(skipUnless("the demo's report in Chromium", CHROMIUM === undefined ? NO_CHROMIUM : undefined))(`the demo's report in Chromium (${CHROMIUM === undefined ? NO_CHROMIUM : CHROMIUM})`, () => {
  let browser: Browser;
  let record: PageRecord;
  beforeAll(async () => {
    browser = await launchChromium();
    record = await openFile(browser, reportPath, { width: 1200, height: 1400 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the denied rm -rf, the blocked prompt and the ask in the list of denials, asks and blocks', async () => {
    const { page } = record;
    const findings = page.getByRole('table', { name: /denial\(s\), .* ask\(s\), .* block\(s\)/ });
    expect(await findings.isVisible()).toBe(true);
    const deny = findings.getByRole('row').filter({ hasText: 'sudo rm -rf --no-preserve-root /' });
    expect(await deny.count()).toBe(1);
    expect(await deny.isVisible()).toBe(true);
    expect(await deny.getByRole('rowheader').textContent()).toBe('guard-bash');
    expect(await deny.locator('.badge').textContent()).toBe('deny');
    expect(await deny.textContent()).toContain('guard-bash: recursive-delete: recursive delete with --no-preserve-root');
    const block = findings.getByRole('row').filter({ hasText: 'agent/prompt-submit' });
    expect(await block.isVisible()).toBe(true);
    expect(await block.getByRole('rowheader').textContent()).toBe('prompt-guard');
    expect(await block.locator('.badge').textContent()).toBe('block');
    expect(await block.textContent()).toContain('the prompt contains a secret (1 aws-access-key-id)');
    const ask = findings.getByRole('row').filter({ hasText: 'git push origin main' });
    expect(await ask.textContent()).toContain('answered deny');
    // the timeline shows the blocked prompt too, without the secret it held
    expect(await page.getByText('Prompt blocked', { exact: true }).isVisible()).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it("has a row in the hook table and a latency chart for each of the demo's six hooks", async () => {
    const { page } = record;
    const table = page.getByRole('table', { name: /Every hook's calls/ });
    expect(await table.isVisible()).toBe(true);
    expect(await table.getByRole('rowheader').allTextContents()).toEqual([...DEMO_HOOK_ORDER]);
    for (const hook of DEMO_HOOK_ORDER) {
      const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: hook, exact: true }) });
      expect(await row.isVisible(), hook).toBe(true);
      const calls = Number(await row.getByRole('cell').nth(1).textContent());
      expect(calls, `${hook} calls`).toBeGreaterThan(0);
      const chart = page.getByRole('img', { name: `Latency of ${hook}` });
      expect(await chart.count(), `${hook} chart`).toBe(1);
      expect(await chart.locator('rect.bar').count(), `${hook} bars`).toBeGreaterThan(0);
    }
    expect(await table.getByRole('row').filter({ hasText: 'guard-bash' }).textContent()).toContain('2 allow, 1 ask, 1 deny');
  });

  it('is structured for a screen reader: one h1, no skipped heading level, captions and scoped headers on every table', async () => {
    const { page } = record;
    const levels = (await page.evaluate("[...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((e) => Number(e.tagName.slice(1)))")) as number[];
    expect(levels[0]).toBe(1);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] as number), `heading ${i}`).toBeLessThanOrEqual(1);
    });
    const tables = (await page.evaluate(
      "[...document.querySelectorAll('table')].map((t) => ({ caption: (t.caption?.textContent ?? '').trim(), unscoped: t.querySelectorAll('th:not([scope])').length }))",
    )) as { caption: string; unscoped: number }[];
    expect(tables.length).toBeGreaterThan(3);
    for (const table of tables) {
      expect(table.caption).not.toBe('');
      expect(table.unscoped, table.caption).toBe(0);
    }
    expect(await page.locator('svg:not([role="img"])').count()).toBe(0);
  });

  it('Tab reaches every link in document order, and Enter on a denial jumps to it in the timeline', async () => {
    const { page } = record;
    const links = (await page.evaluate(`[...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')].map((e) => e.getAttribute('href'))`)) as string[];
    expect(links.slice(0, 5)).toEqual(['#summary', '#hooks', '#latency', '#findings', '#timeline']);
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    const reached: (string | null)[] = [];
    for (let i = 0; i < links.length; i += 1) {
      await page.keyboard.press('Tab');
      reached.push((await page.evaluate('document.activeElement?.getAttribute("href") ?? null')) as string | null);
    }
    expect(reached).toEqual(links);
    const denyLink = page.getByRole('row').filter({ hasText: 'sudo rm -rf --no-preserve-root /' }).getByRole('link');
    const target = await denyLink.getAttribute('href');
    await denyLink.focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate('location.hash')).toBe(target);
    const row = page.locator(`[id="${(target ?? '').slice(1)}"]`);
    expect(await row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('guard-bash');
    expect(await page.evaluate(`document.querySelector('[id="${(target ?? '').slice(1)}"]').matches(':target')`)).toBe(true);
  });

  it('made no network request, raised no console error (the style sheet passed its CSP hash) and applied its styles', async () => {
    const { page } = record;
    expect(requestsBeyond(record, reportPath)).toEqual([]);
    expect(record.consoleErrors).toEqual([]);
    expect(record.pageErrors).toEqual([]);
    expect(await page.evaluate("getComputedStyle(document.querySelector('h2')).borderBottomWidth")).toBe('2px');
    if (process.env.HOOKBOX_UPDATE_SCREENSHOT === '1') {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: SCREENSHOT });
    }
  });
});
