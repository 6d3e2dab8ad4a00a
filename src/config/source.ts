import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { type Problem } from './problems.js';

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
  const lines = new LineCounter();
  // logLevel silent: the yaml library would print its warnings itself; here they are problems.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'silent' });
  // Warnings (an unknown !tag or %directive) are errors here: a gate config means exactly what it says.
  const faults = [...doc.errors, ...doc.warnings];
  if (faults.length) {
    return {
      ok: false,
      problems: faults.map((e) => ({
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
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}
