import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, withGenerated } from '../../src/findings/code-tables.js';
import { CODES } from '../../src/findings/codes.js';
import { ROOT } from '../helpers/cli.js';

const page = readFileSync(join(ROOT, 'docs/codes.md'), 'utf8');
const between = (start: string, end: string) => page.slice(page.indexOf(start), page.indexOf(end));

/** docs/codes.md's tables of codes (the README links it) are what src/findings/codes says: every code, its default, its title. */
describe('docs/codes.md: codes', () => {
  it('lists every judged code with its default action, and no code that does not exist', () => {
    const section = between('## Finding codes', '### Why a case fails');
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| (rollback|hold|ignore) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    const judged = Object.entries(CODES).flatMap(([code, meta]) => ('action' in meta ? [[code, meta.action, meta.title]] : []));
    expect(rows).toEqual(judged);
  });

  it('lists every reason a case fails, with its title', () => {
    const section = between('### Why a case fails', '## How a decision is made');
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    const failures = Object.entries(CODES).flatMap(([code, meta]) => ('caseFailure' in meta ? [[code, meta.title]] : []));
    expect(rows).toEqual(failures);
  });

  it('lists every fix a code declares (its resolves fact), in the order of the code table', () => {
    const section = page.slice(page.indexOf('## Fixes, not regressions'));
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| `([a-z-]+)` \| (the probe|its place) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    const declared = Object.entries(CODES).flatMap(([code, meta]) =>
      'resolves' in meta
        ? Object.entries(meta.resolves).map(([resolved, scope]) => [code, resolved, scope === 'probe' ? 'the probe' : 'its place'])
        : [],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(declared);
  });
});

/** The parts of docs/ that the code table says are written from it (npm run docs), never by hand. */
describe('the generated parts of docs/', () => {
  it.each(Object.keys(GENERATED))(
    '%s is what the code table says between its markers (run `npm run docs` after changing a code)',
    (file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text).toBe(withGenerated(file, text));
    },
  );

  it('lists every audit check in docs/audit.md, each once', () => {
    const audit = readFileSync(join(ROOT, 'docs/audit.md'), 'utf8');
    const listed = [...audit.matchAll(/^- `([a-z-]+)` \((hold|ignore|rollback)\): /gm)].map((m) => m[1]);
    const checks = Object.entries(CODES).flatMap(([code, meta]) => (meta.area === 'audit' || code.startsWith('client-') ? [code] : []));
    expect([...listed].sort()).toEqual([...checks].sort());
  });
});
