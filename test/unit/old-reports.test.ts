import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArtifact, writeArtifact } from '../../src/action/artifact.js';
import { historyCommand } from '../../src/commands/history.js';
import type { CommandIO } from '../../src/commands/io.js';
import { mergeCommand } from '../../src/commands/merge.js';
import { legacySubject, readReport, reportProblems } from '../../src/report/read.js';
import { renderReport } from '../../src/report/formats.js';
import { pathOf, toolOf, type Subject } from '../../src/findings/subject.js';
import { ROOT } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * Reports written by earlier builds stay readable: test/fixtures/reports holds them as they were
 * written (the 0.1.0 one is the example's Rollback, from before changes carried a subject).
 */
const OLD = join(ROOT, 'test/fixtures/reports/support-ops-rollback.0.1.0.report.json');

describe('a report of mcp-gate 0.1.0', () => {
  it('loads, and each change gets back a subject whose path and tool are the ones it was saved with', () => {
    const report = readReport(OLD, ROOT);
    expect(report.diff.changes.map((c) => c.subject)).toEqual([
      { kind: 'tool', tool: 'Deployments.Rollback', at: [] },
      { kind: 'tool', tool: 'Deployments.Rollback', at: ['annotations'] },
      { kind: 'tool', tool: 'Incident.Declare', at: ['inputSchema', 'properties', 'severity'] },
    ]);
  });

  it('loads, and each finding gets a subject from its tool: the server for a finding on no tool', () => {
    const report = readReport(OLD, ROOT);
    expect(report.audit.findings.map((f) => [f.code, f.subject])).toEqual([
      ['tool-definition-cost', { kind: 'server' }],
      ['tool-definition-cost', { kind: 'server' }],
    ]);
    const withTool = JSON.parse(readFileSync(OLD, 'utf8')) as Report;
    withTool.audit.findings[0] = { ...withTool.audit.findings[0]!, code: 'description-missing', tool: 'Incident.Declare' };
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-old-finding-'));
    try {
      writeFileSync(join(dir, 'report.json'), JSON.stringify(withTool));
      expect(readReport(join(dir, 'report.json'), ROOT).audit.findings[0]!.subject).toEqual({
        kind: 'tool',
        tool: 'Incident.Declare',
        at: [],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('restores the subject of every kind of change from its tool and path, as it was derived', () => {
    const subjects: Subject[] = [
      { kind: 'tool', tool: 'a/b', at: ['inputSchema', 'properties', 'x~y', 'type'] },
      { kind: 'server', field: 'instructions' },
      { kind: 'server', field: 'protocolVersion' },
      { kind: 'prompt', prompt: 'Incident.Triage' },
      { kind: 'prompt', prompt: 'Incident.Triage', argument: 'service' },
      { kind: 'resource', uri: 'memory://graph/x' },
      { kind: 'resource', uri: 'memory://graph/x', field: 'mimeType' },
      { kind: 'template', uriTemplate: 'tickets://{id}' },
      { kind: 'template', uriTemplate: 'tickets://{id}', field: 'mimeType' },
      { kind: 'capability', capability: ['resources', 'subscribe'] },
    ];
    for (const subject of subjects) expect(legacySubject({ tool: toolOf(subject), path: pathOf(subject) })).toEqual(subject);
  });

  it('renders in every format with its verdict', () => {
    const report = readReport(OLD, ROOT);
    for (const format of ['text', 'markdown', 'json', 'junit', 'sarif', 'html'] as const) {
      expect(renderReport(report, format)).toContain('Rollback');
    }
  });

  it('written before the release check: no `release`, and the changelog works out the bump from the changes', () => {
    const report = readReport(OLD, ROOT);
    expect(report.release).toBeUndefined();
    const notes = renderReport(report, 'changelog');
    expect(notes).toContain('The changes make this a major release');
    expect(notes).toContain('### Breaking');
    expect(notes).not.toContain('Versions ');
  });
});

describe('a side started twice (side.retried, added after 0.1.0)', () => {
  const retried = (): Report => {
    const report = readReport(OLD, ROOT);
    report.candidate.retried = { phase: 'initialize', message: 'Connection closed (server exited with code 1)' };
    return report;
  };

  it('is optional: the old report has none and stays valid, and one that has it is valid too', () => {
    expect(readReport(OLD, ROOT).candidate.retried).toBeUndefined();
    expect(reportProblems(JSON.parse(JSON.stringify(retried())))).toEqual([]);
    const broken = { ...retried(), candidate: { ...retried().candidate, retried: { phase: 'initialize' } } };
    expect(reportProblems(broken)).toEqual(["/candidate/retried: must have required property 'message'"]);
  });

  it('is said in the text and markdown output, and only when it happened', () => {
    expect(renderReport(retried(), 'text')).toContain(
      'Candidate started on the second try; the first start failed (initialize: Connection closed (server exited with code 1))',
    );
    expect(renderReport(retried(), 'markdown')).toMatch(/\| started \| first try \| on the second try; the first start failed/);
    expect(renderReport(readReport(OLD, ROOT), 'text')).not.toContain('second try');
    expect(renderReport(readReport(OLD, ROOT), 'markdown')).not.toContain('| started |');
  });
});

describe('environment.containment, added after 0.1.0', () => {
  const report = () => JSON.parse(readFileSync(OLD, 'utf8')) as Record<string, unknown>;

  it('is absent from the old report, which still loads; present, it is checked', () => {
    expect(report().environment).toBeUndefined();
    const none = { mechanism: 'none', route: null, unavailable: ['unshare-user: unshare: write failed /proc/self/uid_map'] };
    expect(reportProblems({ ...report(), environment: { containment: none } })).toEqual([]);
    expect(reportProblems({ ...report(), environment: { containment: null } })).toEqual([]);
    const claimed = { mechanism: 'everything', route: null, unavailable: [] };
    expect(reportProblems({ ...report(), environment: { containment: claimed } })).not.toEqual([]);
  });
});

describe('server.era, added with the SDK v2 client', () => {
  const withEra = (era: unknown): Report => {
    const report = readReport(OLD, ROOT);
    report.candidate.server = { ...report.candidate.server, era: era as 'modern' };
    return report;
  };

  it('is absent from the old report, which still loads and shows the revision alone; present, it is checked', () => {
    const old = readReport(OLD, ROOT);
    expect(old.candidate.server.era).toBeUndefined();
    expect(renderReport(old, 'text')).toContain('protocol 2025-11-25)');
    expect(reportProblems(JSON.parse(JSON.stringify(withEra('legacy'))))).toEqual([]);
    expect(reportProblems(JSON.parse(JSON.stringify(withEra('stateless'))))).toEqual([
      '/candidate/server/era: must be equal to one of the allowed values',
    ]);
  });

  it('is shown beside the revision in text and markdown', () => {
    expect(renderReport(withEra('legacy'), 'text')).toContain('protocol 2025-11-25 (legacy era))');
    expect(renderReport(withEra('legacy'), 'markdown')).toContain('| 2025-11-25 (legacy era) |');
  });
});

describe('case-result paths: `$.items[0].id` in mcp-gate 0.1.0, JSON pointers since', () => {
  const scratch: string[] = [];
  const folder = () => scratch[scratch.push(mkdtempSync(join(tmpdir(), 'mcp-gate-paths-'))) - 1]!;
  afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const OLD_PATH = '$.items[0].id';
  const NEW_PATH = '/items/0/id';
  /** The old report, its structured failure naming `path`, saved as `<name>.json` in `dir` as server `name`. */
  const save = (dir: string, name: string, path: string): string => {
    const report = JSON.parse(readFileSync(OLD, 'utf8')) as Report;
    report.server = name;
    // The one structured failure (case TG-003) goes first, where the markdown table's cut cannot reach it.
    const result = report.candidate.caseResults.find((r) => r.failures.some((f) => f.check === 'structured'))!;
    const structured = result.failures.find((f) => f.check === 'structured')!;
    structured.message = `structuredContent differs: ${path}: expected "a", got "b"`;
    result.failures = [structured, ...result.failures.filter((f) => f !== structured)];
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(report));
    return file;
  };
  const io = (cwd: string, out: string[]): CommandIO => ({
    stdout: (text) => out.push(text),
    log: () => {},
    error: (line) => out.push(line),
    env: {},
    cwd,
    colour: false,
    interrupted: () => false,
  });

  it('both load as schemaVersion 1 and read alike: every format, the Action artifact and its annotations show the path as written', () => {
    const dir = folder();
    for (const path of [OLD_PATH, NEW_PATH]) {
      const report = readReport(save(dir, 'support', path), dir);
      expect(report.schemaVersion).toBe(1);
      for (const format of ['text', 'markdown', 'json', 'junit', 'sarif', 'html'] as const) {
        // Markdown escapes its own syntax (`\\[`), so the path is read back without the backslashes.
        const shown = renderReport(report, format);
        expect(format === 'markdown' ? shown.replaceAll('\\', '') : shown, format).toContain(`${path}: expected`);
      }
      expect(renderReport(report, 'workflow-annotations')).toContain(`${path}: expected`);
      const artifact = folder();
      writeArtifact(artifact, { report });
      const read = readArtifact(artifact);
      expect(read.kind).toBe('report');
      expect(renderReport((read as { report: Report }).report, 'markdown').replaceAll('\\', '')).toContain(`${path}: expected`);
    }
  });

  it('history and merge take an old and a new report side by side', () => {
    const dir = folder();
    save(dir, 'old', OLD_PATH);
    save(dir, 'new', NEW_PATH);
    const history: string[] = [];
    expect(historyCommand({ dir, config: 'none.yaml', configGiven: false, format: 'json' }, io(dir, history))).toEqual({ kind: 'ok' });
    const { runs, unreadable } = JSON.parse(history.join('')) as { runs: unknown[]; unreadable: unknown[] };
    expect([runs.length, unreadable]).toEqual([2, []]);
    const merged: string[] = [];
    const outcome = mergeCommand(
      { config: 'none.yaml', configGiven: false, reports: ['old.json', 'new.json'], format: 'text' },
      io(dir, merged),
    );
    expect(outcome).toMatchObject({ kind: 'verdict', verdict: 'Rollback' });
    for (const server of ['old', 'new']) {
      expect(merged.join('')).toMatch(new RegExp(`\\n  ${server} +baseline -> candidate +Rollback`));
      expect(merged.join('')).toContain(`${server}: [rollback] case-broken: Candidate failed 3 frozen role cases.`);
    }
  });
});
