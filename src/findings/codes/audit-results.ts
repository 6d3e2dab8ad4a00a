import { inert } from '../../base/inert.js';
import type { FindingMeta } from './meta.js';

/** One reason the SDK gave for refusing a server's own result (audit/sdk-refusal.ts). */
interface Refusal {
  path: string;
  keyword: string;
  expected?: unknown;
  message: string;
}

/** Why a result fails its outputSchema: the SDK refused it for the server, it has no structuredContent, or it fails the schema. */
type Invalid =
  { how: 'sdk'; refusals: Refusal[] } | { how: 'absent' } | { how: 'schema'; failures: { message: string; keyword: string }[] };

function invalidWords(f: Invalid): string {
  if (f.how === 'absent') return 'declares an outputSchema but returned no structuredContent.';
  if (f.how === 'schema')
    return `structuredContent fails the outputSchema: ${f.failures.map((x) => `${x.message} ("${x.keyword}")`).join('; ')}.`;
  const said = f.refusals.map(
    (r) =>
      `${inert(r.path)} fails "${r.keyword}"${r.expected === undefined ? '' : ` (${inert(JSON.stringify(r.expected)).slice(0, 80)})`}: ${inert(r.message)}`,
  );
  return `the server refused its own result (the SDK's "Output validation error"): ${said.join('; ')}.`;
}

/** A place in a result (`/structuredContent/items/0/eta`), for the findings that compare the two sides' results. */
interface At {
  at: string;
}

/**
 * The audit of what the model reads of one live result (audit/result-checks.ts), and of the
 * candidate's result against the baseline's for the same probe (audit/result-drift.ts). Judged as
 * regressions, so a finding the baseline shares does not move the verdict. A finding on a probe's
 * result is told after the case and the tool: `TG-001 Incident.Get: …`.
 */
export const AUDIT_RESULT_CODES = {
  'structured-content-invalid': {
    area: 'audit',
    severity: 'breaking',
    action: 'hold',
    title: 'Structured content fails its outputSchema',
    doc: "the result fails the tool's own `outputSchema`. It is checked with ajv, using 2020-12 unless `$schema` names draft-07; an SDK server's own \"Output validation error\" answer counts too. The finding's `path` and `keyword` say where and why. An error result (`isError: true`) is not held to the schema, as the spec says; a client that holds it to the schema anyway is `client-rejects-result`.",
    noun: ['result its own output schema refused', 'results their own output schema refused'],
    message: invalidWords,
  },
  'structured-content-without-text': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Structured content without a text copy',
    noun: ['structured result without a text copy', 'structured results without a text copy'],
    message: () => 'structuredContent has no text block carrying the same JSON; clients without structured output see less.',
  },
  'error-not-flagged': {
    area: 'audit',
    severity: 'breaking',
    action: 'hold',
    title: 'Errors returned without isError',
    doc: 'an `{error}`, `success: false`, a status ≥ 400 or text starting with "Error", without `isError`; or text the candidate flags as an error, word for word.',
    noun: ['error not flagged', 'errors not flagged'],
    message: (f: { why: string }) => `looks like an error (${f.why}) but isError is not true, so the model reads it as data.`,
  },
  'pagination-hint-hidden': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Next-page signal hidden from the model',
    doc: 'the next-page signal sits only in `structuredContent`. A result that says it is the end (`has_more: false`, a next cursor of `null` or `""`, a `total` equal to the items it returns) signals nothing, even when its list is as long as the limit asked.',
    noun: ['hidden next-page signal', 'hidden next-page signals'],
    message: (f: { more: string }) =>
      `structuredContent signals more results (${f.more}) but no text tells the model how to get the next page.`,
  },
  // Also a reason a case fails: a result dropped unread for its size (cases/replay.ts).
  'result-too-large': {
    area: 'audit',
    severity: 'breaking',
    action: 'hold',
    title: 'Results over the byte budget',
    doc: "over `audit.resultBudgetBytes`, default 32 KiB, or a case's `expect.resultBudgetBytes`. (Both were called `maxResultBytes` before; the old names are still read, with a note on stderr naming the line to rename. `limits.maxResultBytes` is another thing: the largest result the gate reads at all.)",
    noun: ['oversized result', 'oversized results'],
    caseFailure: true,
    message: (f: { size: string; budget: number }) => `${f.size}, over the budget of ${f.budget}.`,
  },
  'result-pretty-json': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Pretty-printed JSON in results',
    doc: 'the bytes wasted by indented JSON.',
    noun: ['pretty-printed result', 'pretty-printed results'],
    message: (f: { wasted: number }) => `a text block holds indented JSON: ${f.wasted} bytes of whitespace over the compact form.`,
  },
  'result-size-regression': {
    area: 'audit',
    // The items or the page hint moved into the text the model reads: it grew because it carries them now.
    resolves: {
      'pagination-hint-hidden': 'probe',
      'structured-content-without-text': 'probe',
      'structured-content-invalid': 'probe',
      'error-not-flagged': 'probe',
    },
    severity: 'dangerous',
    action: 'hold',
    title: 'Results grew',
    doc: 'growth over `audit.resultGrowthPercent` and `audit.resultGrowthMinBytes`.',
    noun: ['result that grew', 'results that grew'],
    /** `what`: what the model reads of it; `whole`: the result with structuredContent, where that differs. */
    message: (f: { what: string; was: number; now: number; whole?: number; limit: number }) =>
      `${f.what} grew from ${f.was} to ${f.now} bytes${f.whole === undefined ? '' : ` (${f.whole} bytes with structuredContent)`} (+${Math.round((f.now / f.was - 1) * 100)}%, limit ${f.limit}%).`,
  },
  'result-field-removed': {
    area: 'audit',
    // The null keys removed are the null keys fixed; `has_more: true` removed is the hidden signal gone.
    resolves: { 'result-null-fields': 'place', 'pagination-hint-hidden': 'place' },
    severity: 'dangerous',
    action: 'hold',
    title: 'Result fields gone',
    noun: ['result field gone', 'result fields gone'],
    message: (f: At) => `${f.at} is gone from the result.`,
  },
  'result-type-changed': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Result values of another type',
    noun: ['result value of another type', 'result values of another type'],
    message: (f: At & { was: string; now: string }) => `${f.at} was ${f.was}, is ${f.now}.`,
  },
  'result-list-emptied': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Result lists now empty',
    noun: ['result list now empty', 'result lists now empty'],
    message: (f: At & { items: number }) => `${f.at} had ${f.items} item(s), is empty.`,
  },
  'result-error-flipped': {
    area: 'audit',
    // The error is flagged now: what the model read as data was an error all along.
    resolves: { 'error-not-flagged': 'probe' },
    severity: 'dangerous',
    action: 'hold',
    title: 'Probes that now return an error',
    noun: ['probe that now returns an error', 'probes that now return an error'],
    message: () => 'the probe now returns isError true; the baseline answered it.',
  },
  // `to`: where the data is now; JSON text turned into prose is still text for the model.
  'result-content-moved': {
    area: 'audit',
    resolves: { 'structured-content-without-text': 'probe', 'structured-content-invalid': 'probe', 'error-not-flagged': 'probe' },
    severity: 'dangerous',
    action: 'hold',
    title: 'Result data moved between text and structuredContent',
    doc: '`structuredContent` gone (a client that reads it finds nothing), the data moved from JSON text into it, or the text block gone with the data left in `structuredContent` alone (a client or model that reads `content` finds none).',
    noun: ['result whose data moved', 'results whose data moved'],
    message: (f: { to: 'text' | 'nowhere' | 'structuredContent' }) =>
      f.to === 'structuredContent'
        ? 'the data is in structuredContent alone now, not in a text block: a client or model that reads the text finds none.'
        : `structuredContent is gone${f.to === 'text' ? ' (it is in the text now)' : ''}: a client that reads it finds nothing.`,
  },
} as const satisfies Record<string, FindingMeta>;
