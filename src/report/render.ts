import type { Format } from '../commands/outcome.js';
import { renderJunit } from './junit.js';
import { renderHtml } from './html/page.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { plain, renderText, type TextStyle } from './text.js';
import type { Report } from './types.js';

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const colours: TextStyle = { bold: ansi(1, 22), red: ansi(31, 39), yellow: ansi(33, 39), green: ansi(32, 39), dim: ansi(2, 22) };

/** One report, one format: the single place that picks a reporter. */
export function renderReport(report: Report, format: Format, options: { reportPath?: string | null; colour?: boolean } = {}): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'markdown':
      return renderMarkdown(report);
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
