import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, NO_CHROMIUM, openFile, type OpenedPage } from '../helpers/browser.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';
import type { Report } from '../../src/report/types.js';
// @ts-expect-error: a plain .mjs fixture without types
import { PAYLOADS } from '../fixtures/servers/markup-payloads.mjs';

if (!hasChromium) console.warn(`html-viewer.test.ts: ${NO_CHROMIUM}`);

const onlyReport = (dir: string) => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
};

/** `show REPORT --format html -o FILE` through the real CLI; returns the page's path. */
async function renderPage(reportPath: string, cwd: string): Promise<string> {
  const page = join(cwd, 'page', 'report.html');
  const shown = await runCli(['show', reportPath, '--format', 'html', '-o', page], { cwd });
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toBe('');
  return page;
}

/** Elements matching the selector that take up space on the page. */
const visible = (opened: OpenedPage, selector: string) =>
  opened.page.locator(selector).evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).getClientRects().length > 0).length);

describe.skipIf(!hasChromium)('the HTML report of the example Rollback run, in headless Chromium', () => {
  let report: Report;
  let opened: OpenedPage;

  beforeAll(async () => {
    const dir = scratchProject();
    const run = await runCli(['run', '--report-dir', 'reports', '--quiet'], { cwd: dir });
    expect(run.code).toBe(1);
    const reportPath = onlyReport(join(dir, 'reports'));
    report = readReportFile(reportPath);
    opened = await openFile(await renderPage(reportPath, dir));
    await opened.page.waitForSelector('html[data-rendered="true"]', { timeout: 10_000 });
  });
  afterAll(async () => opened?.close());

  it('shows the verdict and its reasons', async () => {
    expect(await opened.page.textContent('#verdict')).toBe('Rollback');
    expect(await opened.page.locator('#reasons li').evaluateAll((li) => li.map((l) => l.getAttribute('data-code')))).toEqual(
      report.decision.reasons.map((r) => r.code),
    );
    expect(await opened.page.textContent('#profiles [data-side="candidate"] [data-hash]')).toBe(report.candidate.contractHash);
  });

  it('wraps tool names and paths only at their separators, never mid-word; at 1280 px the names fit on one line', async () => {
    /** Where each tool name or path wraps: the character before each line break. */
    const wraps = () =>
      opened.page.locator('.tool-name, code.path').evaluateAll((nodes) =>
        nodes
          .filter((n) => (n as HTMLElement).getClientRects().length > 0)
          .flatMap((n) => {
            const found: { text: string; after: string }[] = [];
            const walker = document.createTreeWalker(n, NodeFilter.SHOW_TEXT);
            const range = document.createRange();
            let top: number | null = null;
            let before = '';
            for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
              for (let i = 0; i < node.data.length; i++) {
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                if (top !== null && rect.top > top + 2) found.push({ text: n.textContent ?? '', after: before });
                top = rect.top;
                before = node.data[i]!;
              }
            }
            return found;
          }),
      );
    const wide = await wraps();
    expect(wide.filter((w) => !'./_:-'.includes(w.after))).toEqual([]);
    expect(wide.filter((w) => !w.text.startsWith('/'))).toEqual([]); // names: one line; a long path may wrap at a slash
    await opened.page.setViewportSize({ width: 760, height: 900 });
    try {
      const narrow = await wraps();
      expect(narrow.length).toBeGreaterThan(0); // the page is narrow enough to wrap something
      expect(narrow.filter((w) => !'./_:-'.includes(w.after))).toEqual([]);
    } finally {
      await opened.page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('counts the added and removed tools, in the summary and on the surface', async () => {
    expect(await opened.page.textContent('[data-summary="addedTools"]')).toBe('1');
    expect(await opened.page.textContent('[data-summary="removedTools"]')).toBe('0');
    expect(await opened.page.locator('details.tool[data-status="added"]').count()).toBe(1);
    expect(await opened.page.locator('details.tool[data-status="removed"]').count()).toBe(0);
    expect(await opened.page.locator('details.tool').count()).toBe(6);
  });

  it('puts the destructive badge on the new Deployments.Rollback, and not on a read-only tool', async () => {
    const rollback = opened.page.locator('details.tool[data-key="Deployments.Rollback"]');
    expect(await rollback.getAttribute('data-status')).toBe('added');
    expect(await rollback.locator('.cell-baseline [data-badge]').count()).toBe(0);
    expect(await rollback.locator('.cell-candidate [data-badge="destructive"]').isVisible()).toBe(true);
    expect(
      await opened.page
        .locator('details.tool[data-key="Tickets.Search"] [data-badge]')
        .evaluateAll((b) => b.map((x) => x.getAttribute('data-badge'))),
    ).toEqual(['read-only', 'read-only']);
  });

  it('expands a tool into its schema diff, with the removed argument flagged breaking', async () => {
    const declare = opened.page.locator('details.tool[data-key="Incident.Declare"]');
    await declare.locator('summary').click();
    const flagged = declare.locator('.json .flag-breaking');
    expect(await flagged.first().getAttribute('data-pointer')).toBe('/inputSchema/properties/severity');
    expect(await declare.locator('.schema-diff h4 .sev-breaking').count()).toBe(1);
    expect(await declare.locator('tr.change[data-code="required-argument-removed"]').isVisible()).toBe(true);
  });

  it('hides the safe changes when the safe filter is clicked, and keeps the others', async () => {
    expect(await visible(opened, '#changes tr.change[data-severity="safe"]')).toBe(1);
    await opened.page.click('button[data-filter="safe"]');
    expect(await opened.page.getAttribute('button[data-filter="safe"]', 'aria-pressed')).toBe('false');
    expect(await visible(opened, '#changes tr.change[data-severity="safe"]')).toBe(0);
    expect(await visible(opened, '#changes tr.change[data-severity="breaking"]')).toBe(1);
    expect(await visible(opened, '#changes tr.change[data-severity="dangerous"]')).toBe(1);
    await opened.page.click('button[data-filter="safe"]');
    expect(await visible(opened, '#changes tr.change[data-severity="safe"]')).toBe(1);
  });

  it('searches tools by name and description', async () => {
    await opened.page.fill('#search', 'roll back');
    expect(await visible(opened, 'details.tool')).toBe(1);
    expect(await opened.page.textContent('#tool-count')).toBe('1 of 6 tools shown');
    await opened.page.fill('#search', '');
    // Unchanged tools are hidden until their toggle is pressed: the two that changed, then all six.
    expect(await visible(opened, 'details.tool')).toBe(2);
    expect(await opened.page.textContent('#tool-count')).toBe('2 of 6 tools shown (4 unchanged hidden)');
    await opened.page.click('button[data-filter="none"]');
    expect(await visible(opened, 'details.tool')).toBe(6);
    await opened.page.click('button[data-filter="none"]');
  });

  it('lists each case per side with its failures and probe sizes', async () => {
    const tg3 = opened.page.locator('#cases tr[data-case="TG-003"]');
    expect(await tg3.locator('td[data-side="baseline"]').getAttribute('data-status')).toBe('passed');
    expect(await tg3.locator('td[data-side="candidate"]').getAttribute('data-status')).toBe('failed');
    expect(await tg3.locator('td[data-side="candidate"] ul.failures li').count()).toBe(
      report.candidate.caseResults.find((r) => r.id === 'TG-003')!.failures.length,
    );
    const bytes = report.candidate.caseResults.find((r) => r.id === 'TG-003')!.probes[0]!.resultBytes;
    expect(await tg3.locator('td[data-side="candidate"] ul.probes').textContent()).toContain(`${bytes} B`);
  });

  it('made no network request and logged no error; a screenshot is kept', async () => {
    expect(opened.requests).toEqual([]);
    expect(opened.errors).toEqual([]);
    // The docs picture: Incident.Declare open on its schema diff. Rewritten in docs/ on request only,
    // since its times change on every run.
    await opened.page.locator('details.tool[data-key="Incident.Declare"]').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    const target = process.env.MCPGATE_UPDATE_SCREENSHOT ? join(ROOT, 'docs/report-viewer.png') : join(ROOT, '.tmp/report-viewer.png');
    mkdirSync(join(target, '..'), { recursive: true });
    await opened.page.locator('#search').blur();
    await opened.page.evaluate(() => window.scrollTo(0, 0));
    const png = await opened.page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1720 } });
    writeFileSync(target, png);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });
});

describe.skipIf(!hasChromium)('the HTML report escapes server-provided text (markup fixture server)', () => {
  let html: string;
  let pagePath: string;

  beforeAll(async () => {
    const dir = scratchProject();
    const run = await runCli(
      ['run', '-c', join(ROOT, 'test/fixtures/servers/markup.config.yaml'), '--report-dir', join(dir, 'reports'), '--quiet'],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(1);
    const reportPath = onlyReport(join(dir, 'reports'));
    const report = readReportFile(reportPath);
    expect(report.candidate.tools.map((t) => t.name)).toContain(PAYLOADS.toolName);
    pagePath = await renderPage(reportPath, dir);
    html = readFileSync(pagePath, 'utf8');
  });

  it('keeps every payload out of the markup: the embedded JSON has no "<"', () => {
    const data = html.slice(html.indexOf('<script type="application/json"'), html.lastIndexOf('<script>'));
    expect(data.slice(data.indexOf('>') + 1)).not.toMatch(/<(?!\/script>\s*$)/);
    for (const payload of Object.values(PAYLOADS) as string[]) expect(html).not.toContain(payload);
  });

  // Once as written, and once without the Content-Security-Policy, so the escaping is tested by
  // itself and not only the policy that backs it up.
  for (const variant of ['with its policy', 'without its policy'] as const) {
    it(`runs no planted script and shows the text literally (${variant})`, async () => {
      const file = variant === 'with its policy' ? pagePath : pagePath.replace(/\.html$/, '.no-csp.html');
      if (file !== pagePath) writeFileSync(file, html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''));
      const opened = await openFile(file);
      try {
        await opened.page.waitForSelector('html[data-rendered="true"]', { timeout: 10_000 });
        await opened.page.locator('details.tool').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        await opened.page.hover('#profiles tbody tr:nth-child(2) td[data-side="baseline"]');
        expect(await opened.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
        expect(opened.dialogs).toEqual([]);
        expect(opened.errors).toEqual([]);
        expect(opened.requests).toEqual([]);
        expect(await opened.page.locator('img, b, i, iframe, object').count()).toBe(0);
        expect(await opened.page.locator('script').count()).toBe(2);
        const row = opened.page.locator('details.tool[data-status="added"]');
        expect(await row.locator('.cell-candidate .tool-name').textContent()).toBe(PAYLOADS.toolName);
        expect(await row.locator('.cell-candidate [data-badge="destructive"]').count()).toBe(1);
        const text = await opened.page.locator('body').innerText();
        for (const payload of [PAYLOADS.toolName, PAYLOADS.title, PAYLOADS.server, PAYLOADS.property, 'MK-<b>1</b>'])
          expect(text).toContain(payload);
        expect(text).toContain(PAYLOADS.description);
        expect(text).toContain(JSON.stringify(`Order ${PAYLOADS.result}`)); // the probe's output, quoted in the case failure
        // Bidirectional controls and zero-width characters show as escapes, as in every other format.
        expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
        expect(text).toContain('Lists orders. \\u{202E}sredro lla dnufer\\u{202C} and\\u{200B} more.');
      } finally {
        await opened.close();
      }
    });
  }
});
