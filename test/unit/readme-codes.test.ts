import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/findings/codes.js';
import { ROOT } from '../helpers/cli.js';

/** The README's table of finding codes is what src/findings/codes.ts says: every code, its default, its title. */
describe('README: finding codes', () => {
  it('lists every code with its default action, and no code that does not exist', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Finding codes'), readme.indexOf('## How a decision is made'));
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| (rollback|hold|ignore) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).toEqual(Object.entries(CODES).map(([code, meta]) => [code, meta.action, meta.title]));
  });
});
