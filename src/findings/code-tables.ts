import { CODES } from './codes.js';
import { AUDIT_CONTRACT_CODES } from './codes/audit-contract.js';
import { AUDIT_LESSON_CODES } from './codes/audit-lessons.js';
import { AUDIT_RESULT_CODES } from './codes/audit-results.js';
import type { CodeMeta } from './codes/meta.js';

/**
 * The parts of docs/codes.md and docs/audit.md that the code table says: written from it by
 * `npm run docs` (scripts/write-docs.mjs) between markers, the prose around them by hand;
 * test/unit/readme-codes.test.ts fails while a committed page differs. Rows follow the code table's
 * order, so a code added on a branch adds one line where it sits, and two branches merge as the
 * table does.
 */
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: string[][]): string =>
  [row(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
const entries = (codes: Record<string, CodeMeta>) => Object.entries(codes);

/** Every judged code with its default action and title. */
const judged = (): string =>
  table(
    ['code', 'default', 'what it means'],
    entries(CODES).flatMap(([code, meta]) => ('action' in meta ? [[`\`${code}\``, meta.action, meta.title]] : [])),
  );

/** Every reason a case fails, with its title. */
const caseFailures = (): string =>
  table(
    ['code', 'what it means'],
    entries(CODES).flatMap(([code, meta]) => ('caseFailure' in meta ? [[`\`${code}\``, meta.title]] : [])),
  );

/** Every fix a code declares (its resolves fact). */
const fixes = (): string =>
  table(
    ['code', 'fixes', 'where'],
    entries(CODES).flatMap(([code, meta]) =>
      'resolves' in meta && meta.resolves
        ? Object.entries(meta.resolves).map(([fixed, scope]) => [
            `\`${code}\``,
            `\`${fixed}\``,
            scope === 'probe' ? 'the probe' : 'its place',
          ])
        : [],
    ),
  );

/** One group of the audit's checks: each code, its default action, and what it looks for. */
const checks = (codes: Record<string, CodeMeta>): string =>
  entries(codes)
    .map(([code, meta]) => {
      const what = 'doc' in meta && meta.doc ? `${meta.doc.charAt(0).toUpperCase()}${meta.doc.slice(1)}` : `${meta.title}.`;
      return `- \`${code}\` (${'action' in meta ? meta.action : 'reported'}): ${what}`;
    })
    .join('\n');

/** The generated parts of each page, by the name their markers give. */
export const GENERATED: Record<string, Record<string, () => string>> = {
  'docs/codes.md': { 'judged-codes': judged, 'case-failures': caseFailures, fixes },
  'docs/audit.md': {
    'audit-results': () => checks(AUDIT_RESULT_CODES),
    'audit-contract': () => checks(AUDIT_CONTRACT_CODES),
    'audit-lessons': () => checks(AUDIT_LESSON_CODES),
    // The checks against the clients a team names (audit.clients, config/clients.ts): release codes by area, found by the audit.
    'audit-clients': () => checks(Object.fromEntries(entries(CODES).filter(([code]) => code.startsWith('client-')))),
  },
};

const START = (name: string) => `<!-- generated: ${name} (npm run docs) -->`;
const END = (name: string) => `<!-- end: ${name} -->`;

/** A page with each generated part written anew between its markers (a blank line each side, so markdown ends the table); a marker missing is an error. */
export function withGenerated(page: string, text: string): string {
  let out = text;
  for (const [name, part] of Object.entries(GENERATED[page] ?? {})) {
    const [start, end] = [out.indexOf(START(name)), out.indexOf(END(name))];
    if (start < 0 || end < start) throw new Error(`${page}: no markers for ${name}: ${START(name)} ... ${END(name)}`);
    out = `${out.slice(0, start)}${START(name)}\n\n${part()}\n\n${out.slice(end)}`;
  }
  return out;
}
