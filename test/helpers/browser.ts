import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; `.ci/run` installs it. Playwright downloads no browser of its own here. */
const CHROMIUM = process.env.MCPGATE_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM = `skipped: no Chromium at ${CHROMIUM} (install Debian's chromium package, as .ci/run does, or set MCPGATE_CHROMIUM)`;

/** Flags that keep the browser from reaching out on its own (updates, sync, field trials). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface OpenedPage {
  page: Page;
  /** Every request the page made other than loading the file itself. */
  requests: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Dialogs (alert, confirm, prompt) the page tried to open. */
  dialogs: string[];
  close(): Promise<void>;
}

/**
 * Opens a local file in headless Chromium with a fresh profile. Any request that is not the page
 * itself is recorded and aborted, so a test can assert the page asked the network for nothing.
 */
export async function openFile(path: string, viewport = { width: 1280, height: 900 }): Promise<OpenedPage> {
  const profile = mkdtempSync(join(tmpdir(), 'mcp-gate-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      colorScheme: 'light',
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const url = `file://${path}`;
  const requests: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (r) => r.url() !== url && !requests.includes(r.url()) && requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return {
    page,
    requests,
    errors,
    dialogs,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
