import type { ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { closest } from '../base/closest.js';
import { packageFile } from '../base/package-root.js';
import { schemaValidator } from '../base/validators.js';
import { dotted, type Problem } from '../base/problems.js';
import type { SourceFile } from './source.js';
import { unescapeSegment } from '../base/json-pointer.js';

/** Validates a source against one of our schemas; every error becomes a problem with its line. */
export function validateAgainst(schemaName: string, source: SourceFile): Problem[] {
  const validate = schemaValidator(schemaName);
  if (validate(source.value)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of errors) {
    const segments = pathSegments(error);
    // A header value may be a literal secret: never echo it.
    const secret = segments.includes('headers');
    const found =
      !secret &&
      ['type', 'enum', 'const', 'pattern', 'minimum', 'maximum', 'minLength', 'minItems', 'minProperties'].includes(error.keyword)
        ? `, found ${describeValue(valueAt(source.value, segments))}`
        : '';
    const hint = error.keyword === 'additionalProperties' ? keyHint(schemaName, error) : '';
    const problem = { file: source.file, line: source.lineOf(segments), path: dotted(segments), message: explain(error) + found + hint };
    const key = `${problem.path}|${problem.message}`;
    if (!seen.has(key)) problems.push(problem);
    seen.add(key);
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function pathSegments(error: ErrorObject): (string | number)[] {
  const segments: (string | number)[] = error.instancePath
    .split('/')
    .slice(1)
    .map(unescapeSegment)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return segments;
}

function explain(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return 'unknown key; remove it or check its spelling';
    case 'required':
      return 'is required but missing';
    case 'type':
      return `must be ${p.type}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return `must match ${p.pattern}`;
    case 'propertyNames':
      return `has a key ${JSON.stringify(p.propertyName)} that ${error.message}`;
    default:
      return error.message ?? error.keyword;
  }
}

function valueAt(root: unknown, segments: (string | number)[]): unknown {
  let value = root;
  for (const s of segments) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[s] : undefined;
  return value;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

const schemas = new Map<string, Record<string, unknown>>();

/**
 * For an unknown key, the known key it most likely meant (` (did you mean "startupMs"?)`), read
 * from the schema object the error points at; empty when none is close.
 */
function keyHint(schemaName: string, error: ErrorObject): string {
  let schema = schemas.get(schemaName);
  if (!schema) {
    schema = JSON.parse(readFileSync(packageFile(`schemas/${schemaName}`), 'utf8')) as Record<string, unknown>;
    schemas.set(schemaName, schema);
  }
  // "#/definitions/profile/additionalProperties": the object schema is everything before the keyword.
  const at = error.schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  let node: unknown = schema;
  for (const part of at) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[unescapeSegment(part)] : undefined;
  const properties = node && typeof node === 'object' ? (node as { properties?: unknown }).properties : undefined;
  if (!properties || typeof properties !== 'object') return '';
  const hint = closest(String(error.params.additionalProperty), Object.keys(properties));
  return hint ? ` (did you mean "${hint}"?)` : '';
}
