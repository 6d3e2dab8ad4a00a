import type { Features } from '../contract/types.js';
import { depthOf, MAX_DEFINITION_DEPTH } from '../contract/normalize.js';
import { describe } from '../base/error-text.js';
import { safeRegex } from '../base/safe-regex.js';
import { unprobed } from './probe.js';
import type { Case, CaseFailure, Probe, FeatureExpectation } from './types.js';
import { isObject } from '../base/json-object.js';

/** A raw answer to prompts/get or resources/read, and how long it took. */
export interface FeatureAnswer {
  result: unknown;
  durationMs: number;
}

/** What a live side offers for the prompt and resource probes. */
export interface FeatureReader {
  getPrompt(name: string, args: Record<string, string>): Promise<FeatureAnswer>;
  readResource(uri: string): Promise<FeatureAnswer>;
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * A case's prompts and resources on one side: contract checks first (the prompt or template is
 * listed, its required arguments are the ones the case needs), then the probes, prompts/get and
 * resources/read. Both methods read by definition, so no side-effect consent is asked. A side whose
 * lists are unknown (a tools-only snapshot, a list that failed) has its contract checks skipped.
 */
export async function featureProbes(
  spec: Case,
  features: Features | undefined,
  reader: FeatureReader | null,
  noReaderReason: string,
): Promise<{ probes: Probe[]; failures: CaseFailure[]; reads: ResourceRead[] }> {
  const probes: Probe[] = [];
  const failures: CaseFailure[] = [];
  const reads: ResourceRead[] = [];
  for (const required of spec.requiredPrompts ?? []) {
    const listed = features?.prompts?.find((p) => p.name === required.name);
    if (features?.prompts && !listed) {
      failures.push({ code: 'required-prompt-missing', tool: required.name, message: `required prompt ${required.name} is not listed` });
      continue;
    }
    for (const argument of listed ? (required.requiredArguments ?? []) : []) {
      if (!listed!.arguments.some((a) => a.name === argument && a.required)) {
        const present = listed!.arguments.some((a) => a.name === argument);
        failures.push({
          code: 'required-argument-missing',
          tool: required.name,
          message: `prompt ${required.name}: argument ${argument} is ${present ? 'no longer required' : 'missing'}`,
          check: argument,
        });
      }
    }
    if (required.arguments === undefined) continue;
    const outcome = await probe('prompt', required.name, reader, noReaderReason, () =>
      reader!.getPrompt(required.name, required.arguments!),
    );
    probes.push(outcome.probe);
    failures.push(...outcome.failures);
    if (outcome.result !== undefined) failures.push(...expectations(required.name, promptText(outcome.result), null, required.expect));
  }
  for (const required of spec.requiredResources ?? []) {
    const template = required.uriTemplate;
    if (template !== undefined && features?.resourceTemplates && !features.resourceTemplates.some((t) => t.uriTemplate === template)) {
      failures.push({
        code: 'required-resource-template-missing',
        tool: template,
        message: `required resource template ${template} is not listed`,
      });
      continue;
    }
    const uri = template !== undefined ? expandTemplate(template, required.variables ?? {}) : required.uri!;
    const outcome = await probe('resource', uri, reader, noReaderReason, () => reader!.readResource(uri));
    probes.push(outcome.probe);
    failures.push(...outcome.failures);
    if (outcome.result !== undefined) {
      const contents = resourceContents(outcome.result);
      failures.push(...expectations(uri, contents.text, contents.mimeTypes, required.expect));
      reads.push({ uri, result: outcome.result, resultBytes: outcome.probe.resultBytes ?? 0, modelBytes: contents.bytes });
    }
  }
  return { probes, failures, reads };
}

/** A resource read by a case: the audit sizes it as it sizes a tool result. */
export interface ResourceRead {
  uri: string;
  result: unknown;
  resultBytes: number;
  /** What the model receives: the text contents, and blobs as sent (base64). */
  modelBytes: number;
}

async function probe(
  kind: 'prompt' | 'resource',
  subject: string,
  reader: FeatureReader | null,
  noReaderReason: string,
  read: () => Promise<FeatureAnswer>,
): Promise<{ probe: Probe; failures: CaseFailure[]; result?: unknown }> {
  const base = unprobed(subject, kind);
  if (!reader) return { probe: { ...base, reason: noReaderReason }, failures: [] };
  const method = kind === 'prompt' ? 'prompts/get' : 'resources/read';
  let answer: FeatureAnswer;
  try {
    answer = await read();
  } catch (error) {
    const message = describe(error);
    return {
      probe: { ...base, status: 'failed', reason: message },
      failures: [{ code: 'probe-failed', tool: subject, message: `${method} failed: ${message}` }],
    };
  }
  if (depthOf(answer.result, MAX_DEFINITION_DEPTH + 1) > MAX_DEFINITION_DEPTH) {
    const reason = `the answer nests more than ${MAX_DEFINITION_DEPTH} levels deep; it was not read`;
    return {
      probe: { ...base, status: 'failed', reason, durationMs: answer.durationMs },
      failures: [{ code: 'probe-failed', tool: subject, message: `${method}: ${reason}` }],
    };
  }
  const bytes = Buffer.byteLength(JSON.stringify(answer.result) ?? '', 'utf8');
  return {
    probe: { ...base, status: 'called', isError: false, durationMs: answer.durationMs, resultBytes: bytes },
    failures: [],
    result: answer.result,
  };
}

/** The text of a prompts/get answer: every message's text content, in order. */
function promptText(result: unknown): string {
  const messages = isObject(result) && Array.isArray(result.messages) ? result.messages : [];
  return messages
    .map((m) => (isObject(m) && isObject(m.content) && typeof m.content.text === 'string' ? m.content.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The text contents of a resources/read answer, and the MIME types of all its contents. */
function resourceContents(result: unknown): { text: string; mimeTypes: string[]; bytes: number } {
  const contents = (isObject(result) && Array.isArray(result.contents) ? result.contents : []).filter(isObject);
  const sent = (c: Record<string, unknown>) => (typeof c.text === 'string' ? c.text : typeof c.blob === 'string' ? c.blob : '');
  return {
    bytes: contents.reduce((n, c) => n + Buffer.byteLength(sent(c), 'utf8'), 0),
    text: contents
      .map((c) => (typeof c.text === 'string' ? c.text : ''))
      .filter(Boolean)
      .join('\n'),
    mimeTypes: contents.map((c) => c.mimeType).filter((t): t is string => typeof t === 'string'),
  };
}

function expectations(subject: string, text: string, mimeTypes: string[] | null, expect: FeatureExpectation | undefined): CaseFailure[] {
  const failures: CaseFailure[] = [];
  const fail = (check: string, message: string) => failures.push({ code: 'expectation-failed', tool: subject, message, check });
  for (const needle of expect?.contains ?? []) {
    if (!text.includes(needle))
      fail(`contains:${needle}`, `expected ${subject} to contain ${JSON.stringify(needle)}; got ${JSON.stringify(clip(text))}`);
  }
  const matcher = expect?.matches === undefined ? null : safeRegex(expect.matches);
  // The dataset loader refused a pattern RE2 cannot run.
  if (matcher !== null && typeof matcher !== 'string' && !matcher.test(text)) {
    fail('matches', `expected ${subject} to match /${expect!.matches}/; got ${JSON.stringify(clip(text))}`);
  }
  if (expect?.mimeType !== undefined && mimeTypes !== null && !mimeTypes.includes(expect.mimeType)) {
    fail('mimeType', `expected ${subject} to have MIME type ${expect.mimeType}; got ${mimeTypes.join(', ') || 'none'}`);
  }
  return failures;
}

/**
 * Fills an RFC 6570 template with string values: `{var}` percent-encoded, `{+var}` and `{#var}`
 * reserved characters kept, and `{?a,b}`, `{&a}`, `{/a}`, `{.a}` joined the way their operator says.
 */
export function expandTemplate(template: string, variables: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^{}]*)\}/g, (_, operator: string, list: string) => {
    const names = list.split(',').map((n) => n.replace(/\*$/, '').replace(/:\d+$/, '').trim());
    const present = names.filter((n) => variables[n] !== undefined);
    const encode = (v: string) => (operator === '+' || operator === '#' ? encodeURI(v) : encodeURIComponent(v));
    const values = present.map((n) => encode(variables[n]!));
    if (!values.length) return '';
    switch (operator) {
      case '?':
      case '&':
        return `${operator}${present.map((n, i) => `${n}=${values[i]}`).join('&')}`;
      case ';':
        return present.map((n, i) => `;${n}=${values[i]}`).join('');
      case '/':
      case '.':
        return values.map((v) => `${operator}${v}`).join('');
      case '#':
        return `#${values.join(',')}`;
      default:
        return values.join(',');
    }
  });
}
