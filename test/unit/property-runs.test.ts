import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * One variable scales every property run (MCPGATE_PROPERTY_RUNS, test/helpers/property.ts), and
 * the fast project skips them: that holds only while each `fc.assert` takes its count through
 * `runs()` and sits in a test declared with `property`.
 */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('property runs', () => {
  const files = testFiles(join(ROOT, 'test'))
    .filter((file) => file !== import.meta.filename)
    .map((file) => ({ file: relative(ROOT, file), text: readFileSync(file, 'utf8') }));
  const withProperties = files.filter(({ text }) => text.includes('fc.assert('));

  it('every fc.assert takes its count from runs(), in a test declared with property', () => {
    expect(withProperties.length).toBeGreaterThan(5);
    const unscaled = withProperties.filter(({ text }) => text.split('fc.assert(').length !== text.split('numRuns: runs(').length);
    const undeclared = withProperties.filter(({ text }) => !/^ {2,}property\(/m.test(text));
    expect(unscaled.map(({ file }) => file)).toEqual([]);
    expect(undeclared.map(({ file }) => file)).toEqual([]);
  });
});
