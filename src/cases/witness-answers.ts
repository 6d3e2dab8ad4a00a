import { SideUnavailableError } from '../connect/errors.js';
import type { ToolCallResult } from '../connect/session.js';
import { describe } from '../base/error-text.js';
import type { LiveAnswer, LiveCheck } from '../findings/types.js';
import { inert } from '../base/inert.js';
import { isObject } from '../base/json-object.js';

/** How the gate reads what a server answered to a witness (cases/witness-calls.ts sends it). */

const MAX_TEXT = 300;
const INVALID_PARAMS = -32602;
/** The SDK client's own codes for a connection that closed and a request that timed out: no answer from the server. */
const NO_ANSWER = new Set([-32000, -32001]);

/**
 * An error that reads as the server refusing the arguments, not failing at its work: the TypeScript
 * SDK's "Input validation error: Invalid arguments for tool …" (JSON-RPC -32602, as an isError
 * result or as the error itself), pydantic's "validation error for fooArguments" (FastMCP), zod's own
 * "Invalid input: expected …" under a handler's "Invalid arguments:" (any JSON-RPC code), and the
 * sentences validators write about a missing or required property, or an undeclared one. "No
 * browser", a dummy key or a network failure is none of these, and leaves a break unconfirmed.
 */
const VALIDATION = [
  /\bInput validation error\b/i,
  /\bInvalid arguments for tool\b/i,
  /\bMCP error -32602\b/,
  /\bvalidation errors? for \S*Arguments\b/,
  /\binvalid params\b/i,
  /\bInvalid arguments:/i,
  /\bInvalid input: expected\b/,
  /\bmust have required property\b/,
  /\bis a required property\b/,
  /\bmissing (?:required )?(?:argument|parameter|property|field)s?\b/i,
  // An undeclared argument refused: zod's strict object, ajv, Python's jsonschema and a keyword
  // call, pydantic's forbidden extras.
  /\bUnrecognized keys?\b/,
  /\bmust NOT have additional properties\b/i,
  /\bAdditional properties are not allowed\b/i,
  /\bunexpected keyword argument\b/,
  /\bExtra inputs are not permitted\b/,
];

/** Inert first, then cut: an escaped control takes more room than the control, and the bound holds for what is stored. */
const bounded = (text: string): string => {
  const shown = inert(text.length > MAX_TEXT * 8 ? text.slice(0, MAX_TEXT * 8) : text);
  return shown.length > MAX_TEXT ? `${shown.slice(0, MAX_TEXT)}…` : shown;
};
const readsAsValidation = (text: string): boolean => VALIDATION.some((pattern) => pattern.test(text));

/** A tools/call answer, or what the call threw, as a LiveAnswer. */
export function readAnswer(answer: { ok: true; response: ToolCallResult } | { ok: false; error: unknown }): LiveAnswer {
  if (!answer.ok) {
    const text = describe(answer.error);
    // The server answered with a JSON-RPC error: an answer, not a failure of the session.
    const { error } = answer;
    if (error instanceof SideUnavailableError && error.rpcCode !== undefined && !error.timedOut && !NO_ANSWER.has(error.rpcCode)) {
      const validation = error.rpcCode === INVALID_PARAMS || readsAsValidation(text);
      return { kind: 'error', ...(validation && { validation }), text: bounded(text) };
    }
    return { kind: 'failed', text: bounded(text) };
  }
  const { response } = answer;
  if (response.droppedBytes !== undefined)
    return { kind: 'failed', text: bounded(response.droppedReason ?? `the answer (${response.droppedBytes} bytes) was over the byte cap`) };
  const result = isObject(response.result) ? response.result : {};
  const text = textOf(result);
  if (result.isError === true) {
    const validation = readsAsValidation(text);
    return { kind: 'error', ...(validation && { validation }), text: bounded(text) };
  }
  // An error written as data (isError left out) is no clean answer: it is marked, and refutes nothing.
  const validation = readsAsValidation(text);
  return { kind: 'result', ...(validation && { validation }), text: bounded(text) };
}

/** An error of a call on its way to another host: it got past its arguments to do its work. */
const REACHED_OUT =
  /\b(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|getaddrinfo|fetch failed|socket hang up|DNS lookup failed|[Cc]ould not (?:connect|reach))\b/;

/** What two answers make of a break: refuted, confirmed, the same failure or unconfirmed, and why. Baseline null: no live baseline. */
export function judgeAnswers(candidate: LiveAnswer, baseline: LiveAnswer | null): LiveCheck {
  const answers = { candidate, ...(baseline && { baseline: judgedOnly(baseline) }) };
  if (candidate.kind === 'result' && candidate.validation)
    return { outcome: 'unconfirmed', note: 'the candidate answered without an error, but its text reads as input validation', ...answers };
  if (candidate.kind === 'result') return { outcome: 'refuted', ...answers };
  if (candidate.kind === 'failed') return { outcome: 'unconfirmed', note: 'the candidate gave no answer', ...answers };
  // The same network failure on both sides (a host not found): the call got as far as reaching out,
  // so the candidate took the arguments its schema says it refuses, as the baseline did. A missing
  // browser or key may be checked before the arguments are, so it shows nothing (docs/verdicts.md).
  // The baseline may write the same failure as data, without isError, as servers did before they
  // flagged their errors (@mrfentmen/opensearch-mcp 1.0.1's "Health error: fetch failed").
  if (
    !candidate.validation &&
    candidate.kind === 'error' &&
    baseline &&
    baseline.kind !== 'failed' &&
    !baseline.validation &&
    baseline.text === candidate.text &&
    REACHED_OUT.test(candidate.text ?? '')
  )
    return {
      outcome: 'same-failure',
      note: 'both sides failed on their way to another host with the same error, past the input',
      ...answers,
    };
  if (!candidate.validation) return { outcome: 'unconfirmed', note: "the candidate's error does not read as input validation", ...answers };
  if (!baseline) return { outcome: 'unconfirmed', note: 'no live baseline to show it accepted the same call', ...answers };
  if (baseline.kind !== 'result' || baseline.validation)
    return {
      outcome: 'unconfirmed',
      note:
        baseline.kind === 'failed'
          ? 'the baseline gave no answer to the same call'
          : baseline.validation
            ? 'the baseline refused the same call too'
            : 'the baseline answered the same call with an error too, so it shows no call that worked',
      ...answers,
    };
  return { outcome: 'confirmed', ...answers };
}

/**
 * What the judgement needs of the baseline's answer: accepted or refused, and its error. The call was
 * chosen by the candidate's schema, so a baseline's result is data the candidate asked for, which the
 * report must not carry (docs/security.md).
 */
const judgedOnly = ({ text, ...answer }: LiveAnswer): LiveAnswer => (answer.kind === 'result' ? answer : { ...answer, text });

/** The text blocks of a result, joined; without any, its structuredContent as JSON. */
function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.flatMap((block) =>
    isObject(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  if (texts.length) return texts.join('\n');
  return result.structuredContent === undefined ? '' : (JSON.stringify(result.structuredContent) ?? '');
}
