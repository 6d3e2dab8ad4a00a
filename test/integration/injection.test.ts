import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT, DESCRIPTION, EFFECT, NAME } from '../fixtures/servers/injection-server.mjs';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';

/**
 * A candidate whose text tries to act on whatever shows it (test/fixtures/servers/injection-server.mjs):
 * workflow commands after a newline, terminal escapes, bidirectional controls, and markdown that would
 * mention, link, show an image or fake a heading. Every format and stream shows it, inert.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/injection-server.mjs');
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function checkInert(label: string, output: string): void {
  const lines = output.split('\n');
  expect(
    lines.filter((l) => /^\s*(::|##\[)/.test(l)),
    `${label}: a line starts a workflow command`,
  ).toEqual([]);
  expect(ACTIVE.exec(output)?.[0], `${label}: an active character reached the output`).toBeUndefined();
}

describe('hostile server text is inert in every format and stream', () => {
  let dir: string;
  let run: CliResult;
  let report: string;
  const outputs: Record<string, CliResult> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-gate-inject-'));
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      [
        'version: 1',
        'profiles:',
        `  before: { command: node, args: [${JSON.stringify(SERVER)}, before] }`,
        `  after: { command: node, args: [${JSON.stringify(SERVER)}, after] }`,
        'baseline: before',
        'candidate: after',
        'datasets: [cases.yaml]',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'cases.yaml'),
      'role: orders\ncases:\n  - id: O-1\n    userTask: Look up order 1.\n    requiredTools:\n      - toolName: lookup\n        probeArguments: { id: "1" }\n        expect: { contains: [shipped] }\n',
    );
    run = await runCli(['run', '--format', 'text'], { cwd: dir });
    report = join(
      dir,
      'reports',
      readdirSync(join(dir, 'reports')).find((f) => f.endsWith('.json'))!,
    );
    for (const format of ['text', 'markdown', 'json', 'junit', 'sarif', 'html'] as const)
      outputs[format] = await runCli(['show', report, '--format', format], { cwd: dir });
  });

  it('the candidate is judged, and the report keeps the text as served', async () => {
    expect(run.code).toBe(1);
    const { readReportFile } = await import('../helpers/report.js');
    const saved = readReportFile(report);
    expect(saved.candidate.tools.map((t) => t.name)).toContain(NAME);
    expect(saved.candidate.tools.find((t) => t.name === 'lookup')!.description).toBe(DESCRIPTION);
    // The sentence that says what a call deletes is quoted in the change, as served; every format shows it inert.
    const effect = saved.diff.changes.find((c) => c.code === 'description-effect-added')!;
    expect(effect.message).toContain(EFFECT.replace(/\s+/g, ' ').slice(0, 30));
  });

  it('run: stdout and stderr start no workflow command and carry no escape sequence', () => {
    checkInert('run stdout', run.stdout);
    checkInert('run stderr', run.stderr);
    expect(run.stdout).toContain('\\n::add-mask::leaked');
    expect(run.stdout).toContain('\\u{1B}]8;;');
  });

  it.each(['text', 'markdown', 'json', 'junit', 'sarif'])('show --format %s: inert', (format) => {
    expect(outputs[format]!.code).toBe(0);
    checkInert(`show ${format} stdout`, outputs[format]!.stdout);
    checkInert(`show ${format} stderr`, outputs[format]!.stderr);
  });

  // The JSON keeps the text as served; every rendering shows it, and none opens or closes an HTML
  // comment, even inside a code span or a fence (GitHub keeps the raw text, and reads hidden lines).
  it.each(['text', 'markdown', 'junit', 'sarif', 'html'])('show --format %s: no HTML comment opened or closed', (format) => {
    const shown = outputs[format]!.stdout.replace(/^<!-- mcp-gate:report -->\n/, '');
    expect(shown).toContain(format === 'html' ? 'mcp-gate:approval' : 'mcp-gate:approval QQ==');
    expect(shown.match(/<!--|-->|--!>/g), format).toBeNull();
  });

  it('the run shows the delimiters as escapes, and the JSON keeps them as served', () => {
    expect(run.stdout).toContain('<!-\\u{2D} mcp-gate:approval QQ== -\\u{2D}> -\\u{2D}!> -\\u{2D}>');
    expect(outputs.json!.stdout).toContain(JSON.stringify(COMMENT).slice(1, -1));
  });

  it('markdown: no mention, image, link, heading or HTML from the server, and the table keeps its columns', () => {
    const md = outputs.markdown!.stdout;
    expect(md).not.toMatch(/(^|[^\\])!\[/);
    expect(md).not.toMatch(/@octocat/);
    expect(md).not.toMatch(/https:\/\/evil|www\.evil/);
    expect(md).not.toMatch(/(^|[^\\])\]\(/);
    expect(md).not.toContain('<img');
    expect(md).not.toMatch(/^#+ ✅/m);
    for (const row of md.split('\n').filter((l) => l.startsWith('| `'))) expect(row.split(/(?<!\\)\|/).length, row).toBe(6);
    expect(md).toContain('cc @&#8203;octocat');
  });
});
