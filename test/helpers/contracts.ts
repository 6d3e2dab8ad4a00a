import { buildContract } from '../../src/contract/normalize.js';
import type { Contract } from '../../src/contract/types.js';
import { diffContracts } from '../../src/diff/index.js';
import type { Change } from '../../src/findings/types.js';

/** A contract from inline raw tool objects, as a server would list them. */
export const contractOf = (...tools: Record<string, unknown>[]): Contract =>
  buildContract({ name: 't', version: '1', protocolVersion: '2025-11-25', instructions: null }, tools, {
    pages: 1,
    durationMs: 0,
    errors: [],
  });

export const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool, described well enough.`,
  inputSchema,
  ...extra,
});

/**
 * What the schema diff says of a changed schema: `tool-definition-changed`, which names a definition
 * written another way when no schema change does, is left out (test/unit/diff-tools.test.ts holds it).
 */
const schemaPairs = (changes: Change[]): [string, string][] =>
  changes.filter((c) => c.code !== 'tool-definition-changed').map((c) => [c.code, c.severity]);

/** `[code, severity]` pairs of the diff of one tool's input schema. */
export function inputPairs(before: Record<string, unknown>, after: Record<string, unknown>): [string, string][] {
  return schemaPairs(diffContracts(contractOf(tool('t', before)), contractOf(tool('t', after))));
}

export function outputPairs(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): [string, string][] {
  const withOutput = (schema?: Record<string, unknown>) => tool('t', { type: 'object' }, schema ? { outputSchema: schema } : {});
  return schemaPairs(diffContracts(contractOf(withOutput(before)), contractOf(withOutput(after))));
}

export const obj = (properties: Record<string, unknown>, required: string[] = [], rest: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required,
  ...rest,
});

/** A schema bomb without a cycle: each level of definitions refers twice to the next, so 2^levels paths. */
export function fanOut(levels: number, leaf: string): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++)
    $defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } } };
  $defs[`L${levels}`] = { type: leaf };
  return { type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, $defs };
}
