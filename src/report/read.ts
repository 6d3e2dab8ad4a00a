import { relative, resolve } from 'node:path';
import { readRegularFile, UnreadableFile } from '../base/bounded-read.js';
import { InputError } from '../base/problems.js';
import { validator } from '../base/validators.js';
import { onTool, SERVER, type Subject } from '../findings/subject.js';
import type { Change } from '../findings/types.js';
import { REPORT_SCHEMA_VERSION, type Report } from './types.js';
import { unescapeSegment } from '../base/json-pointer.js';
import { MAX_REPORT_BYTES } from './trim.js';

/**
 * The most a saved report is read at: four times the bound a run writes (report/trim.ts), since a
 * diff alone past that bound is still written whole. A file in `reports/` may come from a pull request.
 */
export const MAX_READ_BYTES = 4 * MAX_REPORT_BYTES;

/** Validates a value against schemas/report.schema.json; returns the problems as text. */
export function reportProblems(value: unknown): string[] {
  const validate = validator('report');
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
}

/**
 * Reads a saved report: a regular file (or a link to one) of at most MAX_READ_BYTES. Anything that
 * is not a valid report (of a version this build reads), a FIFO or a device among them, is an InputError.
 */
export function readReport(file: string, cwd: string): Report {
  const display = relative(cwd, resolve(cwd, file)) || file;
  let value: unknown;
  try {
    value = JSON.parse(readRegularFile(resolve(cwd, file), MAX_READ_BYTES));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'file not found'
        : error instanceof UnreadableFile
          ? `not read: it ${error.message}`
          : error instanceof SyntaxError
            ? `not JSON: ${error.message}`
            : (error as Error).message;
    throw new InputError([{ file: display, line: null, path: '', message: why }]);
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > REPORT_SCHEMA_VERSION) {
    throw new InputError([
      {
        file: display,
        line: null,
        path: 'schemaVersion',
        message: `is ${version}; this mcp-gate reads report schemaVersion ${REPORT_SCHEMA_VERSION}. Upgrade mcp-gate to read it.`,
      },
    ]);
  }
  const problems = reportProblems(value);
  if (problems.length) {
    throw new InputError(problems.map((p) => ({ file: display, line: null, path: '', message: `not a valid mcp-gate report: ${p}` })));
  }
  const report = value as Report;
  for (const change of report.diff.changes) change.subject ??= legacySubject(change);
  const findings = [...report.audit.findings, ...(report.release?.findings ?? []), ...(report.roles ?? []).flatMap((r) => r.findings)];
  for (const finding of findings) finding.subject ??= finding.tool === null ? SERVER : onTool(finding.tool);
  return report;
}

/**
 * A change of a report written before changes carried their subject (mcp-gate 0.1.0), read back from
 * its tool and path. This is the one place a pointer is read back, and only for those old files.
 */
export function legacySubject(change: Pick<Change, 'tool' | 'path'>): Subject {
  const segments = change.path.split('/').slice(1).map(unescapeSegment);
  if (change.tool !== null) return { kind: 'tool', tool: change.tool, at: segments };
  const [collection, name = '', ...rest] = segments;
  const field = rest[0] === 'mimeType' ? { field: 'mimeType' as const } : {};
  switch (collection) {
    case 'prompts':
      return { kind: 'prompt', prompt: name, ...(rest[0] === 'arguments' && rest[1] !== undefined && { argument: rest[1] }) };
    case 'resources':
      return { kind: 'resource', uri: name, ...field };
    case 'resourceTemplates':
      return { kind: 'template', uriTemplate: name, ...field };
    case 'capabilities':
      return { kind: 'capability', capability: [name, ...rest] };
    default:
      return { kind: 'server', field: collection === 'protocolVersion' ? 'protocolVersion' : 'instructions' };
  }
}
