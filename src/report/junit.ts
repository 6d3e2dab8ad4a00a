import { inertLines } from '../base/inert.js';
import { fixedCounts } from './audit-highlights.js';
import type { Report } from './types.js';

/** XML 1.0 text: server text made inert line by line (src/base/inert.ts), then escaped for XML. */
const xml = (text: string) =>
  inertLines(text)
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

interface TestCase {
  name: string;
  classname: string;
  failure?: { message: string; type: string; body: string };
  skipped?: string;
}

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/**
 * JUnit XML, for CI test dashboards. One suite of the candidate's frozen cases (one test case per
 * case), one of the contract (one test case per breaking change, or a single passing one), and
 * the verdict as a test case of its own. Rendered from the report alone.
 */
export function renderJunit(report: Report): string {
  const c = report.candidate;
  // What the candidate fixed passes: one test case per finding code, counted in its name.
  const fixed: TestCase[] = fixedCounts(report).map((f) => ({ name: `fixed: ${f.words} (${f.code})`, classname: 'mcp-gate.audit' }));
  const suites: Suite[] = [
    [`frozen role cases (${c.profile})`, caseTests(report)],
    [`contract ${report.baseline.profile} -> ${c.profile}`, contractTests(report)],
    ...(fixed.length ? [['fixed in this release', fixed] as Suite] : []),
    ['decision', [verdictTest(report)]],
  ];
  return xmlOf(suites, report);
}

type Suite = [name: string, tests: TestCase[]];

/** One test case per case the candidate ran; a failure the baseline shares says so. */
function caseTests({ candidate: c }: Report): TestCase[] {
  return c.caseResults.map((r) => ({
    name: r.id,
    classname: `mcp-gate.cases.${r.role}`,
    ...(r.status === 'failed' && {
      failure: {
        message: `${r.regression === false ? 'pre-existing (fails on the baseline the same way): ' : ''}${r.failures.map((f) => f.message).join('; ')}`,
        type: r.regression === false ? 'case-already-failing' : (r.failures[0]?.code ?? 'case-broken'),
        body: r.failures.map((f) => `${f.code}: ${f.message}`).join('\n'),
      },
    }),
    ...(r.status === 'skipped' && {
      skipped: r.probes.find((p) => p.reason)?.reason ?? (c.available ? 'probes skipped' : 'candidate unavailable'),
    }),
  }));
}

/** One failing test case per breaking change, or a single passing one. */
function contractTests(report: Report): TestCase[] {
  const breaking = report.diff.changes.filter((x) => x.severity === 'breaking');
  return breaking.length
    ? breaking.map((x) => ({
        name: `${x.code} ${x.tool ?? ''} ${x.path}`.trim(),
        classname: 'mcp-gate.contract',
        failure: { message: x.message, type: x.code, body: `fingerprint ${x.fingerprint}` },
      }))
    : [{ name: 'no breaking changes', classname: 'mcp-gate.contract' }];
}

/** The verdict: it fails unless it is Promote. */
function verdictTest({ decision: d }: Report): TestCase {
  return {
    name: `verdict ${d.verdict}`,
    classname: 'mcp-gate.decision',
    ...(d.verdict !== 'Promote' && {
      failure: {
        message: `${d.verdict}: ${d.reasons.map((r) => r.code).join(', ')}`,
        type: d.verdict,
        body: d.reasons.map((r) => `[${r.action}] ${r.code}: ${r.message}`).join('\n'),
      },
    }),
  };
}

function xmlOf(suites: Suite[], report: Report): string {
  const count = (list: TestCase[], key: 'failure' | 'skipped') => list.filter((t) => t[key] !== undefined).length;
  const all = suites.flatMap(([, list]) => list);
  const time = seconds(report.timing?.totalMs);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="mcp-gate" tests="${all.length}" failures="${count(all, 'failure')}" errors="0" skipped="${count(all, 'skipped')}" time="${time}">`,
  );
  suites.forEach(([name, list], id) => {
    out.push(
      `  <testsuite name="${xml(name)}" id="${id}" package="mcp-gate" hostname="localhost" timestamp="${report.startedAt.replace(/\.\d+Z$/, '').replace(/Z$/, '')}" tests="${list.length}" failures="${count(list, 'failure')}" errors="0" skipped="${count(list, 'skipped')}" time="0">`,
    );
    for (const t of list) out.push(...testCaseXml(t));
    out.push('  </testsuite>');
  });
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function testCaseXml(t: TestCase): string[] {
  const open = `    <testcase name="${xml(t.name)}" classname="${xml(t.classname)}" time="0"`;
  if (t.failure)
    return [
      `${open}>`,
      `      <failure message="${xml(t.failure.message)}" type="${xml(t.failure.type)}">${xml(t.failure.body)}</failure>`,
      '    </testcase>',
    ];
  if (t.skipped !== undefined) return [`${open}>`, `      <skipped message="${xml(t.skipped)}"/>`, '    </testcase>'];
  return [`${open}/>`];
}
