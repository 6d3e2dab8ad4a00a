import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** Usage errors are answered by the CLI's front: exit 3, the reason, then the usage. */
describe('mcp-gate usage errors (the built CLI)', () => {
  const cases: [string[], string][] = [
    [['run', 'extra'], 'run takes no positional arguments'],
    [['plan', 'a'], 'plan takes no positional arguments'],
    [['validate', 'a'], 'validate takes no positional arguments'],
    [['snapshot', 'a'], 'snapshot takes no positional arguments'],
    [['diff', 'only-one'], 'diff takes BEFORE and AFTER: snapshot files or profile names'],
    [['show'], 'show takes one REPORT.json'],
    [['history', 'a', 'b'], 'history takes at most one DIR'],
    [['deploy'], 'unknown command "deploy"'],
    [['run', '--fail-on', 'sometimes'], '--fail-on must be rollback, hold or never, not "sometimes"'],
    [['run', '--format', 'pdf'], '--format must be one of text, json, markdown, junit, sarif, html, not "pdf"'],
  ];

  it.each(cases)('%j: exit 3 with "%s" and the usage', async (args, message) => {
    const result = await runCli(args);
    expect([result.code, result.stdout]).toEqual([3, '']);
    expect(result.stderr.split('\n')[0]).toBe(`mcp-gate: ${message}`);
    expect(result.stderr).toContain('Usage: mcp-gate <command> [options]');
  });
});
