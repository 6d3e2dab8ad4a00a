import { readFileSync } from 'node:fs';
import { load, YAMLException } from 'js-yaml';
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

export interface ReadOptions {
  /**
   * Read JSON with JSON.parse: for files mcp-gate writes itself (contract snapshots, thousands of
   * tools), where speed matters and a repeated key cannot come from a person. Elsewhere JSON goes
   * through the YAML reader, which refuses a repeated key instead of keeping the last.
   */
  jsonFastPath?: boolean;
}

export function readSource(file: string, displayName: string, options: ReadOptions = {}): Parsed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : String((error as Error).message);
    return { ok: false, problems: [{ file: displayName, line: null, path: '', message: why }] };
  }
  return parseSource(text, displayName, options);
}

/** Values an alias-heavy file may expand to before it is refused (a "billion laughs" file). */
const MAX_EXPANDED_VALUES = 1_000_000;

/**
 * Values come from js-yaml (YAML 1.2 core schema, duplicate keys refused), or from JSON.parse for
 * JSON that mcp-gate wrote (`jsonFastPath`). Both are several times faster than building the
 * `yaml` package's Document, which takes half a second for a 1,000-case dataset (bench/README.md).
 * The Document is still what maps a path to its line, so it is built only when a line is asked
 * for: for a problem, or for an annotation.
 */
export function parseSource(text: string, displayName: string, options: ReadOptions = {}): Parsed {
  // A %directive (%YAML 1.1, %TAG) changes how the rest of the file reads; the yaml package says how, or refuses.
  if (/^%/m.test(text)) return parseWithDocument(text, displayName);
  let value: unknown;
  const json = options.jsonFastPath && /^\s*[[{]/.test(text) ? tryJson(text) : undefined;
  if (json !== undefined) value = json.value;
  else {
    try {
      value = load(text, { filename: displayName });
    } catch (error) {
      // js-yaml's own advice: catch everything it throws, not only YAMLException.
      const line = error instanceof YAMLException ? error.mark?.line : undefined;
      const why = error instanceof YAMLException ? error.reason : (error as Error).message;
      return { ok: false, problems: [{ file: displayName, line: line === undefined ? null : line + 1, path: '', message: `syntax: ${why}` }] };
    }
    // Only an anchor (`&name`) can be aliased: a file without one cannot expand.
    const expansion = text.includes('&') ? aliasExpansionProblem(value) : null;
    if (expansion) return { ok: false, problems: [{ file: displayName, line: null, path: '', message: expansion }] };
  }
  let located: ReturnType<typeof locate> | null = null;
  const lineOf = (path: (string | number)[]) => lineIn((located ??= locate(text)), path);
  return { ok: true, source: { file: displayName, value, lineOf } };
}

function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined; // flow-style YAML, or broken JSON: the YAML reader words the problem
  }
}

/**
 * js-yaml shares one value among all the aliases of an anchor, so reading is cheap; walking the
 * value as a tree (validation, the report) is not. Counts the values the tree would hold.
 */
function aliasExpansionProblem(root: unknown): string | null {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const size = (value: unknown): number => {
    if (value === null || typeof value !== 'object') return 1;
    const known = sizes.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) return Infinity; // an alias inside its own anchor
    open.add(value);
    let total = 1;
    for (const child of Object.values(value)) {
      total += size(child);
      if (total > MAX_EXPANDED_VALUES) break;
    }
    open.delete(value);
    sizes.set(value, total);
    return total;
  };
  const total = size(root);
  if (total === Infinity) return 'an alias refers to the anchor it sits in; aliases must not make a value contain itself';
  return total > MAX_EXPANDED_VALUES ? `its aliases expand to more than ${MAX_EXPANDED_VALUES.toLocaleString('en-US')} values; write the repeated parts out, or use fewer aliases` : null;
}

/** The slow path, kept for files with %directives: the yaml package's Document, warnings refused. */
function parseWithDocument(text: string, displayName: string): Parsed {
  const { doc, lines } = locate(text);
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
  return { ok: true, source: { file: displayName, value, lineOf: (path) => lineIn({ doc, lines }, path) } };
}

function locate(text: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  // logLevel silent: the yaml library would print its warnings itself.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'silent' });
  return { doc, lines };
}

function lineIn({ doc, lines }: { doc: Document; lines: LineCounter }, path: (string | number)[]): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}
