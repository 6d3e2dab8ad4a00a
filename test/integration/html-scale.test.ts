import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import { toSnapshot } from '../../src/contract/snapshot.js';
import { syntheticTool } from '../fixtures/synthetic/tools.mjs';
import { hasChromium, NO_CHROMIUM, openFile, type OpenedPage } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';

if (!hasChromium) console.warn(`html-scale.test.ts: ${NO_CHROMIUM}`);

const TOOLS = 1000;

/**
 * A 1,000-tool report made by the real CLI (two synthetic snapshots, `diff --format json`, then
 * `show --format html`), as bench/html-render.mjs makes it: 5% of the tools drift, 2% are removed
 * and 2% added. Returns the page's path.
 */
async function thousandToolPage(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-html-scale-'));
  const server = { name: 'synthetic', version: '1', protocolVersion: '2025-11-25', instructions: null };
  const snapshot = (tools: unknown[]) => toSnapshot(buildContract(server, tools, { pages: 1, durationMs: 0, errors: [] }));
  const before = Array.from({ length: TOOLS }, (_, i) => syntheticTool(i));
  const after = before
    .map((_, i) => syntheticTool(i, i % 20 === 0 ? 1 + ((i / 20) % 4) : 0))
    .filter((_, i) => i % 50 !== 7)
    .concat(Array.from({ length: TOOLS / 50 }, (_, i) => syntheticTool(TOOLS + i)));
  writeFileSync(join(dir, 'baseline.json'), snapshot(before));
  writeFileSync(join(dir, 'candidate.json'), snapshot(after));
  const diff = await runCli(['diff', 'baseline.json', 'candidate.json', '--format', 'json', '-o', 'report.json', '--fail-on', 'never'], {
    cwd: dir,
  });
  expect(diff.code, diff.stderr).toBe(0);
  const shown = await runCli(['show', 'report.json', '--format', 'html', '-o', 'report.html'], { cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  return join(dir, 'report.html');
}

/** How far the page runs past the window's width: 0 when nothing overflows sideways. */
const overflow = (opened: OpenedPage) =>
  opened.page.evaluate(() => {
    const root = document.scrollingElement!;
    return root.scrollWidth - root.clientWidth;
  });

describe.skipIf(!hasChromium)('the HTML report of 1,000 tools, at 1280 and 760 px', () => {
  let path: string;
  const opened: OpenedPage[] = [];
  const open = async (width: number) => {
    const page = await openFile(path, { width, height: 900 });
    opened.push(page);
    await page.page.waitForSelector('html[data-rendered="true"]', { timeout: 30_000 });
    return page;
  };

  beforeAll(async () => {
    path = await thousandToolPage();
  }, 60_000);
  afterAll(async () => {
    for (const page of opened) await page.close();
  });

  it.each([1280, 760])('at %i px nothing runs off the side, with the changes and a tool opened', async (width) => {
    const page = await open(width);
    expect(await overflow(page)).toBe(0);
    // The widest things on the page: a changed tool's schema diff and its table of changes.
    await page.page.locator('details.tool[data-status="changed"] > summary').first().click();
    await page.page.waitForSelector('details.tool[open] .tool-details');
    expect(await overflow(page)).toBe(0);
    expect(page.errors).toEqual([]);
  });

  it('hides unchanged tools until asked, in natural order, and names each reason tool once', async () => {
    const page = await open(1280);
    const rows = () => page.page.locator('details.tool').evaluateAll((n) => n.filter((d) => d.getClientRects().length).map((d) => d.id));
    const shown = await rows();
    // 1,000 tools: 50 drift, 20 removed, 20 added (one removal is a rename): 89 rows that changed.
    expect(shown).toHaveLength(89);
    expect(await page.page.textContent('#tool-count')).toBe('89 of 1019 tools shown (930 unchanged hidden)');
    expect(await page.page.getAttribute('button[data-filter="none"]', 'aria-pressed')).toBe('false');
    const removed = shown.filter((id) => /^tool-Domain7\./.test(id));
    expect(removed.slice(0, 3)).toEqual(['tool-Domain7.Action7', 'tool-Domain7.Action57', 'tool-Domain7.Action107']);
    await page.page.click('button[data-filter="none"]');
    expect(await rows()).toHaveLength(1019);
    // Each reason names a tool at most once, and at most 12 tools, then a count.
    const reasons = await page.page.locator('#reasons li').allTextContents();
    expect(reasons.length).toBeGreaterThan(3);
    for (const reason of reasons) {
      const names = reason.match(/Domain\d+\.Action\d+/g) ?? [];
      expect(new Set(names).size, reason).toBe(names.length);
      expect(names.length, reason).toBeLessThanOrEqual(12);
    }
    expect(reasons.join('\n')).toMatch(/and \d+ more/);
  });

  it.each([1280, 760])('at %i px the headers stay visible under the filter bar when scrolled', async (width) => {
    const page = await open(width);
    // The 40th tool row shown (unchanged rows are hidden), brought to the top of the window.
    await page.page.evaluate(() =>
      [...document.querySelectorAll('#tools details.tool')].filter((d) => d.getClientRects().length)[40]!.scrollIntoView(),
    );
    const boxes = await page.page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
      return { filters: box('#filters').toJSON() as DOMRect, head: box('#tools .tool-head').toJSON() as DOMRect };
    });
    // The filter bar at the top, the tool surface's column headers right under it, not behind it.
    expect(boxes.filters.top).toBe(0);
    expect(boxes.head.top).toBeGreaterThanOrEqual(boxes.filters.bottom - 1);
    expect(boxes.head.top).toBeLessThanOrEqual(boxes.filters.bottom + 1);
    // The table of all changes keeps its header row the same way.
    await page.page.evaluate(() => document.querySelector('#changes tbody tr:nth-child(60)')!.scrollIntoView());
    const th = await page.page.evaluate(() => {
      const head = document.querySelector('#changes thead th')!.getBoundingClientRect();
      const bar = document.querySelector('#filters')!.getBoundingClientRect();
      return { top: head.top, bar: bar.bottom };
    });
    expect(Math.abs(th.top - th.bar)).toBeLessThanOrEqual(1);
  });
});
