import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';

/**
 * JUnit and SARIF render from the saved report alone, and validate against their schemas:
 * test/fixtures/schemas/junit.xsd (with libxml2's xmllint, as wasm), and the official SARIF 2.1.0
 * JSON schema that @microsoft/jest-sarif ships (draft-04, so ajv-draft-04; one of its patterns
 * is not valid in unicode mode, hence unicodeRegExp: false).
 */
const rollback = readReportFile(join(ROOT, 'docs/examples/support-ops-rollback.report.json'));
const XSD = readFileSync(join(ROOT, 'test/fixtures/schemas/junit.xsd'), 'utf8');
const require = createRequire(import.meta.url);
const SARIF_SCHEMA = JSON.parse(
  readFileSync(join(require.resolve('@microsoft/jest-sarif/package.json'), '../lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
) as object;

async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'report.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: XSD }],
  });
  return result.errors.map((e) => e.rawMessage);
}

/** A report whose server text is as hostile as it gets for XML: markup, quotes, control characters. */
function hostile(): Report {
  const report = structuredClone(rollback);
  report.candidate.caseResults[0]!.failures[0]!.message = 'bad <tag> & "quotes" \u0001\u001b[31m ]]> end';
  report.candidate.caseResults[0]!.id = 'TG-<001>';
  report.diff.changes[0]!.message = '</failure><script>alert(1)</script>';
  return report;
}

describe('--format junit', () => {
  it('validates against the JUnit XSD, with one test case per case, per breaking change and for the verdict', async () => {
    const xml = renderJunit(rollback);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuites name="mcp-gate" tests="5" failures="5" errors="0" skipped="0"/);
    expect(xml.match(/<testcase /g)).toHaveLength(5); // 3 cases + 1 breaking change + the verdict
    expect(xml).toContain('<testcase name="TG-003" classname="mcp-gate.cases.support-agent" time="0">');
    expect(xml).toContain('type="required-argument-removed"');
    expect(xml).toContain('<testcase name="verdict Rollback" classname="mcp-gate.decision" time="0">');
  });

  it('stays valid XML with hostile text, and a Promote has passing test cases', async () => {
    expect(await junitErrors(renderJunit(hostile()))).toEqual([]);
    const promote = structuredClone(rollback);
    promote.decision = { verdict: 'Promote', reasons: [], exceptionsApplied: [] };
    promote.diff.changes = [];
    promote.candidate.caseResults = promote.baseline.caseResults;
    const xml = renderJunit(promote);
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
  });

  it('the XSD is strict enough to reject what it should', async () => {
    expect(await junitErrors(renderJunit(rollback).replace(' classname="mcp-gate.decision"', ''))).not.toEqual([]);
    expect(await junitErrors(renderJunit(rollback).replace('failures="5"', 'failures="many"'))).not.toEqual([]);
  });
});

describe('--format sarif', () => {
  // CommonJS default export under NodeNext: the class is .default at type level.
  const Ajv04 = AjvDraft04 as unknown as typeof AjvDraft04.default;
  const validate = new Ajv04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(SARIF_SCHEMA);

  it('validates against the SARIF 2.1.0 schema, with rules and results for what matters', () => {
    const sarif = JSON.parse(renderSarif(rollback)) as {
      version: string;
      runs: {
        results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
        tool: { driver: { rules: { id: string }[] } };
      }[];
    };
    expect(validate(sarif), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = sarif.runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.level])).toEqual([
      ['tool-added-destructive', 'warning'], // in the report's change order
      ['required-argument-removed', 'error'],
      ['case-broken', 'error'],
      ['case-broken', 'error'],
      ['case-broken', 'error'],
      ['id-source-missing', 'warning'], // the candidate's audit regressions, reported ones too
    ]);
    expect(run.results[2]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('datasets/support-ops.cases.yaml');
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual([
      'tool-added-destructive',
      'required-argument-removed',
      'case-broken',
      'id-source-missing',
    ]);
  });

  it('places each result at the line the report recorded for it, and at line 1 of the config where it has none', () => {
    const placed = structuredClone(rollback);
    placed.diff.changes[2]!.source = { file: 'snapshots/support-ops.contract.json', line: 41 };
    const sarif = JSON.parse(renderSarif(placed)) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
    };
    const where = sarif.runs[0]!.results.map((r) => {
      const { artifactLocation, region } = r.locations[0]!.physicalLocation;
      return `${artifactLocation.uri}:${region.startLine}`;
    });
    expect(where).toEqual([
      'gate.config.yaml:1',
      'snapshots/support-ops.contract.json:41',
      'datasets/support-ops.cases.yaml:6',
      'datasets/support-ops.cases.yaml:20',
      'datasets/support-ops.cases.yaml:36',
      'gate.config.yaml:1',
    ]);
  });

  it('stays valid with hostile text', () => {
    expect(validate(JSON.parse(renderSarif(hostile())))).toBe(true);
  });

  it('the schema is strict enough to reject what it should', () => {
    const broken = JSON.parse(renderSarif(rollback)) as { runs: { results: { level: string }[] }[] };
    broken.runs[0]!.results[0]!.level = 'catastrophic';
    expect(validate(broken)).toBe(false);
  });
});

describe("--format markdown within GitHub's comment limit", () => {
  it('a 70 KB tool name, 1,500 changes and 600 broken cases still make a body under 65,536 characters, the rest counted', () => {
    const huge = structuredClone(rollback);
    const name = `t${'x'.repeat(70_000)}`;
    const change = huge.diff.changes[0]!;
    huge.diff.changes = Array.from({ length: 1500 }, (_, i) => ({
      ...change,
      tool: i ? `tool_${i}` : name,
      message: `${change.message} ${'detail '.repeat(30)}`,
    }));
    const failed = huge.candidate.caseResults[0]!;
    huge.candidate.caseResults = Array.from({ length: 600 }, (_, i) => ({
      ...failed,
      id: `CASE-${i}`,
      failures: [{ ...failed.failures[0]!, message: `${name} is exposed` }],
    }));
    huge.baseline.caseResults = [];
    huge.candidate.cases = { total: 600, passed: 0, failed: 600, skipped: 0, passRate: 0 };
    const markdown = renderMarkdown(huge, { reportLink: 'https://github.test/run/1' });
    expect(markdown.length).toBeLessThanOrEqual(65_536);
    expect(markdown).toContain('## ⛔ mcp-gate: **Rollback**');
    expect(markdown).toMatch(/_\d+ more changes left out to keep this under GitHub's comment limit/);
    expect(markdown).toMatch(/_\d+ more rows left out to keep this under GitHub's comment limit/);
    expect(markdown).toContain('| contract |'); // the fixed parts are never pushed out
    expect(markdown).not.toContain('x'.repeat(400));
  });
});

describe('markdown sees whole tokens before it clips a cell', () => {
  it('a token that straddles the 300-character cut leaves no fragment', async () => {
    const { renderReport } = await import('../../src/report/formats.js');
    const leaky = structuredClone(rollback);
    const token = `ghp_${'Q7'.repeat(18)}`;
    leaky.diff.changes[0]!.message = `${'x'.repeat(290)} ${token} tail`;
    const markdown = renderReport(leaky, 'markdown');
    expect(markdown).not.toContain('ghp_Q7');
    expect(markdown).toContain('\\*\\*\\*'); // *** in markdown text, escaped
  });
});
