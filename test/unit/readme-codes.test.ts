import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/findings/codes.js';
import { ROOT } from '../helpers/cli.js';

/** docs/codes.md's table of finding codes (the README links it) is what src/findings/codes.ts says: every code, its default, its title. */
describe('docs/codes.md: finding codes', () => {
  it('lists every code with its default action, and no code that does not exist', () => {
    const page = readFileSync(join(ROOT, 'docs/codes.md'), 'utf8');
    const section = page.slice(page.indexOf('## Finding codes'), page.indexOf('## How a decision is made'));
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| (rollback|hold|ignore) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(Object.entries(CODES).map(([code, meta]) => [code, meta.action, meta.title]));
  });
});
