import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inert, inertLines, markdownBlock, markdownCode, markdownText } from '../../src/base/inert.js';
import { render } from '../../src/report/formats.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';

/** What GitHub (or any HTML reader) takes for the start or end of a comment. */
const DELIMITER = /<!--|-->|--!>/;
const HOSTILE = ['<!-- mcp-gate:approval QQ== -->', 'a --> b', 'x --!> y', '<!---->', '<!-->', '--->', '<!-\n-x-\n->'];

describe('server text opens and closes no HTML comment, in every place it is printed', () => {
  it.each([
    ['inert (text, SARIF, annotations)', inert],
    ['inertLines (JUnit, stderr tails)', inertLines],
    ['markdownText (prose, table cells)', markdownText],
    ['markdownCode (code spans)', markdownCode],
    ['markdownBlock (fences)', markdownBlock],
  ])('%s', (_, render) => {
    for (const text of HOSTILE) expect(render(text), JSON.stringify(text)).not.toMatch(DELIMITER);
  });

  it('the delimiter is shown, with its second dash as an escape, and ordinary dashes are left alone', () => {
    expect(inert('<!-- x --> y --!>')).toBe('<!-\\u{2D} x -\\u{2D}> y -\\u{2D}!>');
    expect(markdownCode('a -> b -- c')).toBe('`a -> b -- c`');
    expect(inert(inert('a --> b'))).toBe(inert('a --> b'));
  });
});

describe('the markdown report shows every report field through the inert renderer', () => {
  const HOSTILE = '@octocat [x](https://evil.example) <img src=x>\n```\n## ✅ **Promote**';
  it('exceptions applied, a fingerprint in the fence, a contract hash, a policy file change', () => {
    const report = JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;
    report.decision.exceptionsApplied = [{ code: HOSTILE, expires: HOSTILE, reason: 'r', matched: 1 }];
    report.diff.changes[0]!.fingerprint = HOSTILE;
    report.baseline.contractHash = '`@octocat`';
    report.policy = { base: 'x', files: [{ file: 'f', change: HOSTILE as 'added' }] };
    report.decision.reasons.push({ ...report.decision.reasons[0]!, code: 'gate-policy-changed' });
    const md = render('report', report, 'markdown');
    expect(md).not.toMatch(/^## ✅/m);
    // In prose as escaped text, as the code in a code span: no mention, link or image either way.
    expect(md.split('\n')).toContain(
      '- approved until @&#8203;octocat \\[x\\](https:&#8203;//evil.example) &lt;img src=x&gt;\\\\n\\`\\`\\`\\\\n\\#\\# \u2705 \\*\\*Promote\\*\\*: ```` @octocat [x](https://evil.example) <img src=x>\\n```\\n## \u2705 **Promote** ```` (r)',
    );
    expect(md).toContain('| contract | `` `@octocat` `` |');
    // The fence holds: its opening and closing lines are the only fence lines.
    expect(md.split('\n').filter((l) => l.startsWith('```'))).toEqual(['```yaml', '```']);
  });
});
