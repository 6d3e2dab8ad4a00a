import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * The release checks of docs/releases.md on real servers: release-server.mjs (an SDK McpServer over
 * stdio) in releases whose versions and changes the fixture sets; every run through the built CLI,
 * as users run it.
 */
function project(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-release-'));
  const config = readFileSync(join(ROOT, 'test/fixtures/servers/release.config.yaml'), 'utf8').replace(
    /release-server\.mjs/g,
    join(ROOT, 'test/fixtures/servers/release-server.mjs'),
  );
  writeFileSync(join(dir, 'gate.config.yaml'), `${config}${extra}`);
  return dir;
}

async function gate(dir: string, baseline: string, candidate: string, format = 'json', env: Record<string, string> = {}) {
  const result = await runCli(['run', '--baseline', baseline, '--candidate', candidate, '--format', format, '--quiet'], { cwd: dir, env });
  return { ...result, report: format === 'json' ? (JSON.parse(result.stdout) as Report) : null };
}

const changes = (r: Report) => r.diff.changes.map((c) => [c.code, c.tool ?? c.path]);
const reasons = (r: Report) => r.decision.reasons.map((x) => [x.code, x.action]);
const releaseFindings = (r: Report) => r.release!.findings.map((f) => f.code);

describe('deprecation: announce, then remove', { timeout: 60_000 }, () => {
  it('marks in a description, in `deprecated: true` and in a prompt argument are deprecation-marked; a minor bump fits them: Promote', async () => {
    const { report } = await gate(project(), 'v1', 'marked');
    const marked = report!.diff.changes.filter((c) => c.code === 'deprecation-marked');
    expect(marked.map((c) => [c.tool, c.path, c.severity])).toEqual([
      [null, '/prompts/summarize/arguments/style', 'safe'],
      ['Files.Read', '', 'safe'],
      ['Files.Search', '/inputSchema/properties/limit', 'safe'],
    ]);
    expect(report!.release).toMatchObject({
      baselineVersion: '1.0.0',
      candidateVersion: '1.1.0',
      needed: 'minor',
      actual: 'minor',
      findings: [],
    });
    expect(report!.decision.verdict).toBe('Promote');
  });

  it('removing a tool the baseline marked is tool-removed-after-deprecation: Hold while the saved reports show the mark under the window', async () => {
    const dir = project();
    const { report, code } = await gate(dir, 'marked', 'removed');
    expect(changes(report!)).toContainEqual(['tool-removed-after-deprecation', 'Files.Read']);
    expect(changes(report!)).not.toContainEqual(['tool-removed', 'Files.Read']);
    expect(reasons(report!)).toEqual([['tool-removed-after-deprecation', 'hold']]);
    expect(code).toBe(2);
    expect(report!.diff.changes.find((c) => c.code === 'tool-removed-after-deprecation')!.message).toContain(
      'promotion.deprecationWindowDays',
    );
    // The same removal of an unmarked tool stays a Rollback (a likely rename here: Files.ReadText has its signature).
    const plain = await gate(dir, 'v1', 'removed');
    expect(changes(plain.report!)).toContainEqual(['tool-renamed', 'Files.Read']);
    expect(plain.report!.decision.verdict).toBe('Rollback');
  });

  it('once a saved report shows the mark older than promotion.deprecationWindowDays, the removal is calm: Promote', async () => {
    const dir = project();
    const first = await gate(dir, 'v1', 'marked');
    // The run that announced it, as if saved 45 days ago.
    const announced = { ...first.report!, startedAt: new Date(Date.now() - 45 * 86_400_000).toISOString() };
    writeFileSync(join(dir, 'reports', readdirSync(join(dir, 'reports'))[0]!), JSON.stringify(announced));
    const { report, code } = await gate(dir, 'marked', 'removed');
    expect(changes(report!)).toContainEqual(['tool-removed-after-deprecation', 'Files.Read']);
    expect(report!.decision.verdict).toBe('Promote');
    expect(code).toBe(0);
    expect(report!.diff.changes.find((c) => c.code === 'tool-removed-after-deprecation')!.message).toMatch(
      /removal is calm: .*45 days ago \(window 30 days\)/,
    );
    // A longer window holds it again.
    const strict = await gate(dir, 'marked', 'removed', 'json', { MCPGATE_PROMOTION__DEPRECATION_WINDOW_DAYS: '60' });
    expect(reasons(strict.report!)).toEqual([['tool-removed-after-deprecation', 'hold']]);
  });
});

describe('deprecation of arguments and prompts: announce, then remove', { timeout: 60_000 }, () => {
  const lifecycle = (r: Report) =>
    r.diff.changes
      .filter((c) => /removed/.test(c.code))
      .map((c) => [c.code, c.tool, c.path])
      .sort();

  it('removing an argument, a prompt and a prompt argument the baseline marked: the lifecycle codes, Hold', async () => {
    const { report, code } = await gate(project(), 'legacy', 'trimmed');
    expect(lifecycle(report!)).toEqual([
      ['argument-removed-after-deprecation', 'Files.List', '/inputSchema/properties/recursive'],
      ['prompt-argument-removed-after-deprecation', null, '/prompts/summarize/arguments/style'],
      ['prompt-removed-after-deprecation', null, '/prompts/outline'],
    ]);
    expect(reasons(report!)).toEqual([
      ['argument-removed-after-deprecation', 'hold'],
      ['prompt-removed-after-deprecation', 'hold'],
      ['prompt-argument-removed-after-deprecation', 'hold'],
    ]);
    expect(report!.decision.verdict).toBe('Hold');
    expect(code).toBe(2);
    const changelog = await gate(project(), 'legacy', 'trimmed', 'changelog');
    expect(changelog.stdout).toContain('- Argument "recursive" of tool "Files.List" was removed after the baseline marked it deprecated.');
    expect(changelog.stdout).toContain('- Prompt "outline" was removed after the baseline marked it deprecated.');
  });

  it('the same removals unmarked keep their codes: a required argument and a prompt removed are a Rollback', async () => {
    const { report, code } = await gate(project(), 'legacy-plain', 'trimmed');
    expect(lifecycle(report!)).toEqual([
      ['prompt-argument-removed', null, '/prompts/summarize/arguments/style'],
      ['prompt-removed', null, '/prompts/outline'],
      ['required-argument-removed', 'Files.List', '/inputSchema/properties/recursive'],
    ]);
    expect(report!.decision.verdict).toBe('Rollback');
    expect(code).toBe(1);
  });

  it('announced, and saved more than promotion.deprecationWindowDays ago: the removals are calm, Promote; a longer window holds', async () => {
    const dir = project();
    const first = await gate(dir, 'legacy-plain', 'legacy');
    expect(
      first
        .report!.diff.changes.filter((c) => c.code === 'deprecation-marked')
        .map((c) => [c.tool, c.path])
        .sort(),
    ).toEqual(
      [
        ['Files.List', '/inputSchema/properties/recursive'],
        [null, '/prompts/outline'],
        [null, '/prompts/summarize/arguments/style'],
      ].sort(),
    );
    const announced = { ...first.report!, startedAt: new Date(Date.now() - 45 * 86_400_000).toISOString() };
    writeFileSync(join(dir, 'reports', readdirSync(join(dir, 'reports'))[0]!), JSON.stringify(announced));
    const { report, code } = await gate(dir, 'legacy', 'trimmed');
    expect(lifecycle(report!).map(([c]) => c)).toEqual([
      'argument-removed-after-deprecation',
      'prompt-argument-removed-after-deprecation',
      'prompt-removed-after-deprecation',
    ]);
    expect(report!.decision.verdict).toBe('Promote');
    expect(code).toBe(0);
    for (const c of report!.diff.changes.filter((x) => x.code.endsWith('-after-deprecation')))
      expect(c.message).toMatch(/removal is calm: .*45 days ago \(window 30 days\)/);
    const strict = await gate(dir, 'legacy', 'trimmed', 'json', { MCPGATE_PROMOTION__DEPRECATION_WINDOW_DAYS: '60' });
    expect(strict.report!.decision.verdict).toBe('Hold');
  });
});

describe('the version bump against what the changes call for', { timeout: 60_000 }, () => {
  it('a breaking change under a minor bump is version-bump-too-small: Hold, with the bump it needed', async () => {
    const { report } = await gate(project(), 'marked', 'sneaky');
    expect(report!.release).toMatchObject({ candidateVersion: '1.2.0', scheme: 'semver', needed: 'major', actual: 'minor' });
    expect(releaseFindings(report!)).toEqual(['version-bump-too-small']);
    expect(reasons(report!)).toContainEqual(['version-bump-too-small', 'hold']);
  });

  it('an unchanged version is information on a PR head, and a Hold when promotion.release says the candidate is a release', async () => {
    const dir = project();
    const head = await gate(dir, 'v1', 'same');
    expect(releaseFindings(head.report!)).toEqual(['version-unchanged']);
    expect(head.report!.decision.verdict).toBe('Promote');
    const tagged = await gate(dir, 'v1', 'same', 'json', { MCPGATE_PROMOTION__RELEASE: 'true' });
    expect(reasons(tagged.report!)).toEqual([['version-unchanged', 'hold']]);
  });

  it('a calendar version is checked for moving forward only, and a version that is none is explained, not crashed on', async () => {
    const dir = project();
    const dated = await gate(dir, 'v1', 'dated');
    expect(dated.report!.release).toMatchObject({ scheme: 'calendar', needed: 'minor', findings: [] });
    expect(dated.report!.release!.summary).toContain('a date cannot say whether a release breaks');
    const none = await gate(dir, 'v1', 'unversioned');
    expect(none.report!.release).toMatchObject({ scheme: 'unknown', actual: null });
    expect(releaseFindings(none.report!)).toEqual(['version-unreadable']);
    expect(none.report!.release!.summary).toContain(`the candidate's "main" is not a semver or calendar version`);
    expect(none.report!.decision.verdict).toBe('Promote');
  });
});

describe('client profiles (audit.clients)', { timeout: 60_000 }, () => {
  it('a tool a declared client newly refuses is client-rejects-tool per client, naming the client and why: Hold', async () => {
    const dir = project('audit:\n  clients: [anthropic, openai-strict]\n');
    const { report } = await gate(dir, 'v1', 'dotted');
    const rejected = report!.audit.findings
      .filter((f) => f.code === 'client-rejects-tool' && f.side === 'candidate' && f.regression)
      .map((f) => [f.client, f.tool]);
    // Dotted names (Files.Touch too) break the API name rule: every tool of this server does, on both sides.
    expect(rejected).toEqual([
      ['anthropic', 'Files.Touch'],
      ['anthropic', 'files.read.v2'],
      ['openai-strict', 'Files.Touch'],
      ['openai-strict', 'files.read.v2'],
    ]);
    const touch = report!.audit.findings.find((f) => f.client === 'openai-strict' && f.tool === 'Files.Touch' && f.side === 'candidate')!;
    expect(touch.message).toContain('OpenAI function calling with strict: true (audit.clients: openai-strict) rejects tool "Files.Touch"');
    expect(touch.message).toContain('an object at /properties/target/anyOf/0 does not set additionalProperties: false');
    // Files.Search's optional limit breaks strict mode on both sides: pre-existing, not judged.
    expect(
      report!.audit.findings.filter((f) => f.tool === 'Files.Search' && f.client === 'openai-strict').map((f) => f.regression),
    ).toEqual([false, false]);
    expect(reasons(report!)).toEqual([['client-rejects-tool', 'hold']]);
    expect(report!.decision.reasons[0]!.tools).toEqual(['Files.Touch', 'files.read.v2']);
  });
});

describe('the changelog format', { timeout: 60_000 }, () => {
  it('run --format changelog writes release notes grouped by what callers must do, and show renders the same from the saved report', async () => {
    const dir = project();
    const run = await gate(dir, 'v1', 'marked', 'changelog');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^## release-fixture 1\.1\.0\n/);
    const sections = [...run.stdout.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Deprecated', 'Added', 'Changed']);
    expect(run.stdout).toContain('- Tool "Files.Read" is now marked deprecated.');
    expect(run.stdout).toContain('- Tool "Files.ReadText" was added.');
    expect(run.stdout).toContain('a minor release');
    const saved = join(dir, 'reports', readdirSync(join(dir, 'reports'))[0]!);
    const shown = await runCli(['show', saved, '--format', 'changelog'], { cwd: dir });
    expect(shown.stdout).toBe(run.stdout);
    const removal = await gate(dir, 'marked', 'sneaky', 'changelog');
    expect(removal.stdout.indexOf('### Breaking')).toBeGreaterThan(0);
    expect(removal.stdout).toContain('- Tool "Files.Read" was removed after the baseline marked it deprecated.');
    expect(removal.stdout).toContain('the changes call for a major bump');
  });

  it('a published pair: filesystem 2026.1.14 -> 2026.7.4 under diff --format changelog', async () => {
    const config = join(ROOT, 'test/fixtures/published/gate.config.yaml');
    const run = await runCli(['diff', 'filesystem-2026.1.14', 'filesystem-2026.7.4', '-c', config, '--format', 'changelog', '--quiet'], {
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    // The package is calendar-versioned; the server says 0.2.0 on both sides.
    expect(run.stdout).toMatch(/^## secure-filesystem-server 0\.2\.0\n/);
    expect(run.stdout).toContain('The changes make this a patch release: nothing was added or broken.');
    expect(run.stdout).toContain('Versions "0.2.0" to "0.2.0": unchanged; the changes call for a patch bump.');
    expect([...run.stdout.matchAll(/^### (.+)$/gm)].map((m) => m[1])).toEqual(['Changed']);
    // Server text is inert markdown: the underscore is escaped.
    expect(run.stdout).toContain('- "move\\_file" effective destructiveHint went from false to true.');
  });

  it('the example: a breaking change and a destructive tool under 1.5.0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-release-example-'));
    const server = join(ROOT, 'examples/support-ops/dist/server.js');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      readFileSync(join(ROOT, 'gate.config.yaml'), 'utf8').replace(
        /args: \[examples\/support-ops\/dist\/server\.js, ([\w-]+)\]/g,
        `args: [${server}, $1]`,
      ),
    );
    cpSync(join(ROOT, 'datasets'), join(dir, 'datasets'), { recursive: true });
    const run = await runCli(['run', '--format', 'changelog', '--quiet'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        '## support-ops 1.5.0',
        '',
        'Compared with 1.4.0. The changes make this a major release: callers must change.',
        '',
        'Versions "1.4.0" to "1.5.0": a minor bump; the changes call for a major bump.',
        '',
        '### Breaking',
        '',
        '- "Incident.Declare" no longer takes required argument "severity".',
        '',
        '### Added',
        '',
        '- New tool "Deployments.Rollback" declares itself destructive (destructiveHint true).',
        '',
      ].join('\n'),
    );
  });
});
