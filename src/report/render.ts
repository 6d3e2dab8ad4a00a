import { jsonInert } from '../inert.js';
import { redactAll } from '../secrets.js';
import { renderJunit } from './junit.js';
import { renderHtml } from './html/page.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { colours, plain, renderText } from './text.js';
import type { Report } from './types.js';

/** The formats a report renders to (`--format`). */
export type Format = 'text' | 'json' | 'markdown' | 'junit' | 'sarif' | 'html';
export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'junit', 'sarif', 'html'];

/** One report, one format: the single place that picks a reporter. */
export function renderReport(report: Report, format: Format, options: { reportPath?: string | null; colour?: boolean } = {}): string {
  switch (format) {
    case 'json':
      return `${jsonInert(JSON.stringify(report, null, 2))}\n`;
    case 'markdown':
      return renderMarkdown(redactAll(report)); // before cells are clipped, so no token is cut in half
    case 'junit':
      return renderJunit(report);
    case 'sarif':
      return renderSarif(report);
    case 'html':
      return renderHtml(report);
    case 'text':
      return renderText(report, options.colour ? colours : plain, options.reportPath ?? null);
  }
}
