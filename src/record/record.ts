import { resultData } from '../base/result-data.js';
import { mapLimit } from '../base/concurrency.js';
import type { ToolCallResult } from '../connect/session.js';
import { depthOf, MAX_DEFINITION_DEPTH } from '../contract/normalize.js';
import { consentGap, notReadOnlyWhy } from '../cases/consent.js';
import type { Contract, ContractTool } from '../contract/types.js';
import { describe } from '../base/error-text.js';
import { probeArguments } from './probe-args.js';
import { withoutVolatile } from '../cases/expect.js';
import { isObject } from '../base/json-object.js';
import { pointerMatcher } from '../base/json-pointer.js';
import { byShape, changesByShape, differences } from './volatile.js';

/**
 * `record`: what a server returns, frozen as expectations. Every tool that may be called (read-only,
 * or any tool when the profile allows side effects) is called twice with the same arguments, each
 * time in its own server process; what differed between the two answers (timestamps, pids,
 * per-process ids, counters) is volatile and left out, and so is what changes with every process or
 * release by its shape (the server's own version string, UUIDs, timestamps). The rest is frozen:
 * `isError`, the stable data (structuredContent, or JSON text), and a size budget with headroom. A
 * tool that cannot be recorded gets the reason, and is written commented out. A tool the gate must
 * never call (contract/callable.ts) is not called, consent or not.
 */

export interface Recording {
  tool: string;
  /** The call's arguments, and where they came from. */
  args: Record<string, unknown> | null;
  argsFrom: 'file' | 'schema' | null;
  /** Set when the tool was not recorded: why, in one sentence. */
  skipped: string | null;
  /** What the case expects, once recorded. */
  expect: { isError: boolean; structured?: Record<string, unknown>; resultBudgetBytes: number } | null;
  /** JSON pointers (with `*` for any index) that differed between the two recordings. */
  volatile: string[];
  /** What was left out of `structured` besides the volatile fields, for the case's comment. */
  notes: string[];
  /** Called on a person's word (`record --confirm-lookups`), not its hints: its case allows side effects. */
  confirmed?: boolean;
}

export interface RecordOptions {
  allowSideEffects: boolean;
  /** Tools declared safe to call on the profile (`safeTools`), though not read-only by their hints. */
  safeTools?: string[];
  /**
   * Tools a person confirmed safe to call for this recording only (`--confirm-lookups`): called as
   * those in safeTools are, and their cases say `sideEffects: allowed`, so that run calls them on
   * both sides.
   */
  confirmed?: string[];
  /** Arguments per tool name from the --args file; they win over the ones built from the schema. */
  givenArgs: Record<string, Record<string, unknown>>;
  concurrency: number;
  log: (line: string) => void;
}

export type Call = (name: string, args: Record<string, unknown>) => Promise<ToolCallResult>;
/** The call of each pass: the second in a server process of its own, started when it is asked for. */
export type CallFor = (pass: 0 | 1) => Promise<Call>;

/** Frozen data bigger than this is thinned: a case is read by people, and a list of records changes with the data. */
const MAX_FROZEN_BYTES = 2048;
const MAX_VOLATILE = 50;

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** Why a tool is not called, or null when it may be (cases/consent.ts, the rule every tools/call asks). */
function consentProblem(tool: ContractTool, contract: Contract, options: RecordOptions): string | null {
  const gap = consentGap(tool, contract, { ...options, safeTools: [...(options.safeTools ?? []), ...(options.confirmed ?? [])] });
  if (!gap) return null;
  // Before consent: allowSideEffects is consent to what a tool says it does, and these do not say.
  if (gap.kind === 'never') return `not recorded: ${gap.reason}`;
  return `not recorded: ${tool.name} is not read-only (${notReadOnlyWhy(tool)}), so recording would change something. List it in the profile's safeTools if it is safe to call, or set allowSideEffects: true on the profile, to record it`;
}

type Answer = { ok: true; isError: boolean; data: unknown; bytes: number; text: string } | { ok: false; reason: string };

async function callOnce(call: Call, tool: string, args: Record<string, unknown>): Promise<Answer> {
  let response: ToolCallResult;
  try {
    response = await call(tool, args);
  } catch (error) {
    return { ok: false, reason: `the call failed: ${clip(describe(error))}` };
  }
  if (response.droppedBytes !== undefined)
    return { ok: false, reason: `the result (${response.droppedBytes} bytes) was over the byte cap` };
  // Everything below walks the result: one nested past the bound is refused, as replay refuses it.
  if (depthOf(response.result, MAX_DEFINITION_DEPTH + 1) > MAX_DEFINITION_DEPTH) {
    return { ok: false, reason: `the result nests more than ${MAX_DEFINITION_DEPTH} levels deep` };
  }
  const result = isObject(response.result) ? response.result : {};
  const text = (Array.isArray(result.content) ? result.content : [])
    .map((block: unknown) => (isObject(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
  return { ok: true, isError: result.isError === true, data: resultData(result), bytes: bytesOf(response.result), text };
}

export async function recordTools(contract: Contract, callFor: CallFor, options: RecordOptions): Promise<Recording[]> {
  const tools = [...contract.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plans = tools.map((tool) => plan(tool, contract, options));
  const callable = plans.filter((p) => p.skipped === null);
  // Two passes over every tool, not two calls in a row: a clock or a counter has moved by the second.
  const answers: Answer[][] = [[], []];
  for (const pass of callable.length ? ([0, 1] as const) : []) {
    options.log(
      `mcp-gate: record: ${pass === 0 ? 'calling' : 'calling again, in a new server process (to find what changes between processes)'} ${callable.length} tool(s)`,
    );
    const call = await callFor(pass);
    answers[pass] = await mapLimit(callable, options.concurrency, (p) => callOnce(call, p.tool, p.args!));
  }
  const shapes = changesByShape(contract.server.version);
  callable.forEach((p, i) => settle(p, answers[0]![i]!, answers[1]![i]!, shapes));
  return plans;
}

function plan(tool: ContractTool, contract: Contract, options: RecordOptions): Recording {
  const confirmed = options.confirmed?.includes(tool.name) ?? false;
  const base: Recording = {
    tool: tool.name,
    args: null,
    argsFrom: null,
    skipped: null,
    expect: null,
    volatile: [],
    notes: [],
    ...(confirmed ? { confirmed } : {}),
  };
  const given = options.givenArgs[tool.name];
  const built = given ? null : probeArguments(tool.inputSchema);
  // Arguments are built even for a tool that is not called: its commented-out case shows them.
  const withArgs: Recording = given
    ? { ...base, args: given, argsFrom: 'file' }
    : built?.ok
      ? { ...base, args: built.value as Record<string, unknown>, argsFrom: 'schema' }
      : base;
  const consent = consentProblem(tool, contract, options);
  if (consent) return { ...withArgs, skipped: consent };
  if (built && !built.ok) {
    return {
      ...base,
      skipped: `not recorded: no arguments could be built from the input schema (${built.reason}); give them in the --args file`,
    };
  }
  return withArgs;
}

function settle(recording: Recording, first: Answer, second: Answer, shapes: (value: unknown, key: string) => boolean): void {
  const failed = [first, second].find((a): a is { ok: false; reason: string } => !a.ok);
  if (failed || !first.ok || !second.ok) {
    const machine = failed ? machineReason(failed.reason) : null;
    recording.skipped = `not recorded: ${failed?.reason ?? 'no answer'}${machine ? `; ${machine}` : ''}`;
    return;
  }
  if (first.isError || second.isError) {
    const text = clip((first.isError ? first.text : second.text).replace(/\s+/g, ' ').trim()) || 'no text';
    const machine = machineReason(first.isError ? first.text : second.text);
    recording.skipped = machine
      ? `not recorded: the server answered isError (${text}); ${machine}`
      : `not recorded: the server answered isError (${text}); give working arguments in the --args file`;
    return;
  }
  // A short answer that says this machine has no network or no browser is that failure written as
  // data, not the tool's behaviour: frozen, it would pass only where the call fails.
  const unflagged = [first.text, second.text].map(unflaggedFailure);
  if (unflagged[0] && unflagged[1]) {
    recording.skipped = `not recorded: the server answered ${JSON.stringify(clip(first.text.replace(/\s+/g, ' ').trim()))} without isError; ${machineReason(first.text)}`;
    return;
  }
  const budget = Math.max(1024, Math.ceil((Math.max(first.bytes, second.bytes) * 1.5) / 256) * 256);
  recording.expect = { isError: false, resultBudgetBytes: budget };
  if (first.data === undefined || second.data === undefined) {
    if (first.data !== undefined || second.data !== undefined)
      recording.notes.push('the result was JSON in one recording only, so its data is not frozen');
    return;
  }
  const changed = new Set<string>();
  differences(first.data, second.data, '', 0, changed);
  byShape(first.data, '', 0, shapes, changed);
  if (changed.has('')) {
    recording.notes.push('the whole result changed between two recordings, so its data is not frozen');
    return;
  }
  recording.volatile = [...changed].sort().slice(0, MAX_VOLATILE);
  if (changed.size > MAX_VOLATILE) recording.notes.push(`${changed.size - MAX_VOLATILE} more volatile fields were not listed`);
  if (!isObject(first.data)) {
    recording.notes.push('the result is a list, not an object; the live comparison checks its first item');
    return;
  }
  const stable = withoutVolatile(first.data, pointerMatcher(recording.volatile)) as Record<string, unknown>;
  const frozen = thin(stable, recording.notes);
  if (frozen && Object.keys(frozen).length) recording.expect.structured = frozen;
}

/**
 * A failure that says it is this machine's, not the arguments': no network, no browser, a program
 * or a permission missing. Asking for other arguments would not help, so record says what would.
 */
const MACHINE: [RegExp, string][] = [
  [
    /ENOTFOUND|EAI_AGAIN|getaddrinfo|ECONNREFUSED|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ETIMEDOUT|fetch failed|network (?:is )?unreachable|no internet|socket hang up/i,
    'no network',
  ],
  [
    /executable doesn't exist|browserType\.launch|failed to launch (?:the )?browser|could not find (?:chrome|chromium|firefox|browser)|no usable sandbox|playwright install|chrome(?:ium)? (?:is )?not (?:found|installed)/i,
    'no browser',
  ],
  [/spawn \S+ ENOENT|command not found|not installed|no such file or directory/i, 'a program or file this machine lacks'],
  [/EACCES|EPERM|permission denied/i, 'a permission this machine does not grant'],
];

/** Longest answer read as a failure message rather than data. */
const FAILURE_MESSAGE_CHARS = 512;

/**
 * A result not flagged isError whose text is a short message of no network or no browser (the
 * first two kinds above: a tool's data rarely says so, while "no such file" or "not installed" may
 * well be what a tool found).
 */
const unflaggedFailure = (text: string): boolean =>
  text.length > 0 && text.length <= FAILURE_MESSAGE_CHARS && MACHINE.slice(0, 2).some(([re]) => re.test(text));

function machineReason(text: string): string | null {
  const found = MACHINE.find(([re]) => re.test(text));
  if (!found) return null;
  return `this looks like a reason of this machine (${found[1]}), not of the arguments: record where the server can reach what it needs (or give it in the profile's env), then record again`;
}

/**
 * The part of the stable data worth freezing: all of it when small; else without its lists (a
 * list of records changes with the data, and the live comparison checks its first item); else its
 * top-level plain values only.
 */
function thin(stable: Record<string, unknown>, notes: string[]): Record<string, unknown> | null {
  if (bytesOf(stable) <= MAX_FROZEN_BYTES) return stable;
  const noLists = dropLists(stable) as Record<string, unknown>;
  if (bytesOf(noLists) <= MAX_FROZEN_BYTES) {
    notes.push(`its lists are not frozen (the data is over ${MAX_FROZEN_BYTES} bytes); the live comparison checks their first item`);
    return noLists;
  }
  const plain = Object.fromEntries(Object.entries(stable).filter(([, v]) => v === null || typeof v !== 'object'));
  notes.push(`only its top-level values are frozen (the data is over ${MAX_FROZEN_BYTES} bytes); the live comparison checks the rest`);
  return bytesOf(plain) <= MAX_FROZEN_BYTES ? plain : null;
}

function dropLists(value: unknown): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !Array.isArray(v))
      .map(([k, v]) => [k, dropLists(v)]),
  );
}
