import { load, CORE_SCHEMA } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Document, LineCounter } from 'yaml';
import { type Problem } from './problems.js';

// `yaml` keeps every node's position, which the messages need, and is several times slower to load
// and to parse than js-yaml. So js-yaml reads the values; `yaml` is loaded only for a file with a
// syntax error, a file with aliases (its alias limit guards against expansion bombs), or a file
// whose problems need line numbers.
const yaml = () => createRequire(import.meta.url)('yaml') as typeof import('yaml');
const ALIAS = /(^|[\s,[{:-])\*[^\s,\]}]/m;

/** A parsed YAML or JSON file that remembers where each value came from. */
export interface SourceFile {
  file: string;
  value: unknown;
  /** 1-based line of the value at `path`, or of its nearest existing parent. */
  lineOf(path: (string | number)[]): number | null;
}

export type Parsed = { ok: true; source: SourceFile } | { ok: false; problems: Problem[] };

export function readSource(file: string, displayName: string): Parsed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : String((error as Error).message);
    return { ok: false, problems: [{ file: displayName, line: null, path: '', message: why }] };
  }
  return parseSource(text, displayName);
}

/** JSON is YAML, so one parser serves both and gives line numbers for both. */
export function parseSource(text: string, displayName: string): Parsed {
  if (!ALIAS.test(text)) {
    let value: unknown;
    try {
      value = load(text, { schema: CORE_SCHEMA, filename: displayName });
    } catch {
      return parseWithPositions(text, displayName); // the careful parser words the error, with its line
    }
    let positions: Parsed | null = null;
    const lineOf = (path: (string | number)[]) => {
      positions ??= parseWithPositions(text, displayName);
      return positions.ok ? positions.source.lineOf(path) : null;
    };
    return { ok: true, source: { file: displayName, value: value ?? null, lineOf } };
  }
  return parseWithPositions(text, displayName);
}

function parseWithPositions(text: string, displayName: string): Parsed {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({
        file: displayName,
        line: e.linePos?.[0]?.line ?? (e.pos ? lines.linePos(e.pos[0]).line : null),
        path: '',
        message: `syntax: ${e.message.split('\n')[0]}`,
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, problems: [{ file: displayName, line: null, path: '', message: (error as Error).message }] };
  }
  return { ok: true, source: { file: displayName, value, lineOf: (path) => lineOf(doc, lines, path) } };
}

function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number | null {
  const { isNode } = yaml();
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}
