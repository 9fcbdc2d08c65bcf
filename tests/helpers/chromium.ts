/**
 * A real Chromium (Debian's `chromium`, installed by `.ci/run` when missing)
 * driven by playwright-core, for tests that check what a person sees.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';

/** The browser binary: `HOOKBOX_CHROMIUM`, else the first Debian/Ubuntu path that exists. */
export const CHROMIUM: string | undefined = [process.env.HOOKBOX_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
);

/** The reason a browser test is skipped, for its title. */
export const NO_CHROMIUM = 'skipped, because chromium is not installed (.ci/run installs it with apt-get)';

/** What a page did while it was open: every request (the document's own load included), dialogs, console errors, page errors. */
export interface PageRecord {
  readonly page: Page;
  readonly requests: string[];
  readonly dialogs: string[];
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
}

/** Launches headless Chromium; the caller closes it in `finally`. */
export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error(NO_CHROMIUM);
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/** Opens a local HTML file in a fresh page and records what it tries to do. */
export async function openFile(browser: Browser, file: string, viewport = { width: 1200, height: 900 }): Promise<PageRecord> {
  const page = await browser.newPage({ viewport });
  const record: PageRecord = { page, requests: [], dialogs: [], consoleErrors: [], pageErrors: [] };
  page.on('request', (request) => record.requests.push(request.url()));
  page.on('dialog', (dialog) => {
    record.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') record.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => record.pageErrors.push(error.message));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return record;
}

/** The requests a page made beyond loading its own document. */
export function requestsBeyond(record: PageRecord, file: string): string[] {
  const self = pathToFileURL(file).href;
  return record.requests.filter((url) => url !== self);
}
