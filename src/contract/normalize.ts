import { createHash } from 'node:crypto';
import { effectiveAnnotations } from './annotations.js';
import { canonicalHash, canonicalJsonWithin, hashOfCanonical } from './canonical.js';
import type { Contract, ContractTool, DiscoveryProblem, Discovery, JsonSchema, ServerIdentity } from './types.js';
import { isObject, setMember } from '../base/json-object.js';
import { lookalikeGroups } from './lookalike.js';

const KNOWN_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Raw `tools/list` entries -> a Contract. Lenient by design: a malformed tool is kept where it
 * can be named, and every deviation from the spec is returned as a problem, never thrown.
 */
export function buildContract(server: ServerIdentity, rawTools: unknown[], discovery: Discovery): Contract {
  const builder = contractBuilder();
  builder.add(rawTools);
  return builder.finish(server, discovery);
}

/**
 * The same, a page at a time: discovery normalises one page while the server prepares the next.
 * The result does not depend on how the tools were split into pages.
 */
export function contractBuilder(): { add(rawTools: unknown[]): void; finish(server: ServerIdentity, discovery: Discovery): Contract } {
  const problems: DiscoveryProblem[] = [];
  const tools: ContractTool[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  let index = 0;
  const add = (raw: unknown) => {
    const at = index++;
    if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') {
      problems.push({ tool: null, message: `tools[${at}] has no string "name"; it was left out of the contract.` });
      return;
    }
    if (seen.has(raw.name)) {
      duplicates.push(raw.name);
      problems.push({ tool: raw.name, message: `tool "${raw.name}" is listed more than once; the first definition is used.` });
      return;
    }
    seen.add(raw.name);
    // One walk measures the definition and makes its canonical text; past the bound, a stand-in.
    const text = canonicalJsonWithin(raw, MAX_DEFINITION_DEPTH);
    tools.push(text === null ? normalizeTool(standIn(raw, problems), problems) : normalizeTool(raw, problems, text));
  };
  return {
    add: (rawTools) => rawTools.forEach(add),
    finish: (server, discovery) => {
      tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // Not a protocol violation (names are case-sensitive), but no call can tell the twins apart.
      const lookalikes = lookalikeGroups(tools.map((t) => t.name));
      return {
        server,
        tools,
        hash: canonicalHash(tools.map((t) => [t.name, t.hash])),
        discovery: {
          ...discovery,
          errors: [...discovery.errors, ...problems],
          duplicates: [...new Set(duplicates)].sort(),
          ...(lookalikes.length && { lookalikes }),
        },
      };
    },
  };
}

/**
 * How deep a tool definition may nest before the gate stops walking it. Every later stage (hash,
 * diff, audit, report) recurses, and a schema nested thousands of levels would overflow the stack:
 * a candidate could then force "could not decide". A definition past the bound is measured and
 * hashed without recursion, and kept as a stand-in carrying that digest: a protocol violation is
 * reported, and a changed digest is a schema change for a person to look at (never silence).
 */
export const MAX_DEFINITION_DEPTH = 256;

/** What stands in for a definition nested past MAX_DEFINITION_DEPTH: its shallow fields and a digest of the rest. */
function standIn(raw: Record<string, unknown>, problems: DiscoveryProblem[]): Record<string, unknown> {
  const name = raw.name as string;
  problems.push({
    tool: name,
    message: `tool "${name}" nests more than ${MAX_DEFINITION_DEPTH} levels deep; it is compared by its digest only.`,
  });
  const digest = iterativeDigest(raw);
  // What is shallow is kept as it is (title, annotations), so only the deep part reads as changed.
  const shallow = Object.fromEntries(
    Object.entries(raw).filter(([key, value]) => key !== 'inputSchema' && key !== 'outputSchema' && depthOf(value, 9) <= 8),
  );
  return { ...shallow, name, inputSchema: { type: 'object', $mcpGateTooDeep: digest } };
}

/**
 * The nesting depth of a JSON value, up to `limit`. It recurses, but never deeper than `limit`
 * frames, whatever the value's own depth (a walk with a stack of its own allocated a pair per node,
 * and this runs on every tool definition and every result).
 */
export function depthOf(value: unknown, limit: number): number {
  return value !== null && typeof value === 'object' ? deepest(value, 1, limit) : 0;
}

function deepest(node: object, depth: number, limit: number): number {
  if (depth >= limit) return depth;
  let max = depth;
  for (const child of Array.isArray(node) ? node : Object.values(node)) {
    if (child === null || typeof child !== 'object') continue;
    const d = deepest(child as object, depth + 1, limit);
    if (d > max) {
      max = d;
      if (max >= limit) return max;
    }
  }
  return max;
}

/** Punctuation pushed on the digest's stack, told apart from the value's own strings by its class. */
class Token {
  constructor(readonly text: string) {}
}

/** A SHA-256 of a JSON value with sorted keys, without recursion (for values too deep to serialise). */
function iterativeDigest(value: unknown): string {
  const digest = createHash('sha256');
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node instanceof Token) digest.update(node.text);
    else if (Array.isArray(node)) stack.push(new Token(']'), ...[...node].reverse().flatMap((v) => [v, new Token(',')]), new Token('['));
    else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node).sort().reverse();
      stack.push(
        new Token('}'),
        ...keys.flatMap((k) => [(node as Record<string, unknown>)[k], new Token(`${JSON.stringify(k)}:`), new Token(',')]),
        new Token('{'),
      );
    } else digest.update(JSON.stringify(node) ?? 'null');
  }
  return `sha256:${digest.digest('hex')}`;
}

/** A definition as the contract holds it; `canonical` is its canonical JSON, when already made. */
function normalizeTool(raw: Record<string, unknown>, problems: DiscoveryProblem[], canonical?: string): ContractTool {
  const name = raw.name as string;
  const inputSchema = schemaField(raw, 'inputSchema', problems);
  const outputSchema = schemaField(raw, 'outputSchema', problems);
  if (raw.inputSchema === undefined) problems.push({ tool: name, message: `tool "${name}" has no inputSchema.` });
  if (inputSchema && inputSchema.type !== 'object') {
    const found = inputSchema.type === undefined ? 'missing' : JSON.stringify(inputSchema.type);
    problems.push({ tool: name, message: `tool "${name}": inputSchema.type is ${found}; the spec requires "object".` });
  }
  const annotations = isObject(raw.annotations) ? raw.annotations : null;
  const { effective, defaulted } = effectiveAnnotations(annotations);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!KNOWN_FIELDS.has(key)) setMember(extra, key, value);
  return {
    name,
    title: stringOrNull(raw.title) ?? stringOrNull(annotations?.title),
    description: stringOrNull(raw.description),
    inputSchema,
    outputSchema,
    annotations,
    effectiveAnnotations: effective,
    defaultedHints: defaulted,
    requiredArguments: requiredOf(inputSchema),
    extra,
    hash: canonical === undefined ? canonicalHash(raw) : hashOfCanonical(canonical),
  };
}

function schemaField(raw: Record<string, unknown>, field: 'inputSchema' | 'outputSchema', problems: DiscoveryProblem[]): JsonSchema | null {
  const value = raw[field];
  if (value === undefined || value === null) return null;
  if (isObject(value)) return value;
  problems.push({ tool: raw.name as string, message: `tool "${String(raw.name)}": ${field} is ${typeof value}, expected an object.` });
  return null;
}

function requiredOf(schema: JsonSchema | null): string[] {
  const required = schema?.required;
  return Array.isArray(required) ? [...new Set(required.filter((r): r is string => typeof r === 'string'))].sort() : [];
}
