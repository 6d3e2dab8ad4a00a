import { readFileSync } from 'node:fs';
import type { Event } from 'js-yaml';
import { LineCounter, parseDocument, isNode, visit, type Document } from 'yaml';
import { type Problem } from '../base/problems.js';
import { fastLines, jsonTree, yamlTree } from './source-lines.js';
import { plainYamlValue } from './yaml-values.js';

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
    const why =
      code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : String((error as Error).message);
    return { ok: false, problems: [{ file: displayName, line: null, path: '', message: why }] };
  }
  return parseSource(text, displayName, options);
}

/**
 * Aliases one file may expand (the yaml package's `maxAliasCount`): enough for a config that
 * shares its profiles' env, far below a "billion laughs" file.
 */
const MAX_ALIAS_COUNT = 100;

/**
 * Values as the yaml package reads them (YAML 1.2 core schema, duplicate keys refused, warnings such
 * as an unknown tag or directive refused): from js-yaml first when the file is in the plain subset
 * both read alike (yaml-values.ts), from JSON.parse for JSON that mcp-gate wrote (`jsonFastPath`),
 * and from the yaml package itself otherwise, which also words every problem. On the two fast ways
 * the Document that maps a path to its line is built only when a line is asked for.
 */
export function parseSource(text: string, displayName: string, options: ReadOptions = {}): Parsed {
  const fast: { value: unknown; events?: Event[] } | undefined =
    options.jsonFastPath && /^\s*[[{]/.test(text) ? tryJson(text) : plainYamlValue(text);
  if (fast !== undefined) {
    let events = fast.events ?? null;
    const tree = () => {
      const built = events ? yamlTree(text, events, LINES_DEPTH) : jsonTree(text, LINES_DEPTH);
      events = null; // the tree holds what lines need; the events can go
      return built;
    };
    const quick = fastLines(text, tree);
    let located: Located | null = null;
    const lineOf = (path: (string | number)[]) => quick(path) ?? lineIn((located ??= locate(text)), path);
    return { ok: true, source: { file: displayName, value: fast.value, lineOf } };
  }
  return parseWithYamlPackage(text, displayName);
}

/**
 * How deep the starts of values are kept for lines: a snapshot's `features.prompts[i].name`, a
 * dataset's `cases[i].id`. A line deeper (only a problem asks for one) comes from the yaml package.
 */
const LINES_DEPTH = 4;

/** The reader of record: every value plainYamlValue gives up on, and every problem. */
export function parseWithYamlPackage(text: string, displayName: string): Parsed {
  const located = locate(text);
  const { doc, lines } = located;
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
  // Every alias is written `*name`: a text without a `*` has none, and the walk over every node is skipped.
  const loop = text.includes('*') ? selfContainingAlias(doc) : null;
  if (loop !== null) {
    return {
      ok: false,
      problems: [
        {
          file: displayName,
          line: lines.linePos(loop).line,
          path: '',
          message: 'an alias refers to the anchor it sits in; aliases must not make a value contain itself',
        },
      ],
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The only thing toJS refuses after a clean parse is an alias bomb.
    return {
      ok: false,
      problems: [
        {
          file: displayName,
          line: null,
          path: '',
          message: `${(error as Error).message}; write the repeated parts out, or use fewer aliases`,
        },
      ],
    };
  }
  return { ok: true, source: { file: displayName, value, lineOf: (path) => lineIn(located, path) } };
}

function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined; // flow-style YAML, or broken JSON: the YAML reader words the problem
  }
}

/** The offset of an alias that sits inside the node it refers to (which would make a circular value), or null. */
function selfContainingAlias(doc: Document): number | null {
  let found: number | null = null;
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc);
      const at = alias.range?.[0];
      if (at !== undefined && target?.range && target.range[0] <= at && at < target.range[2]) {
        found = at;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

interface Located {
  doc: Document;
  lines: LineCounter;
}

function locate(text: string): Located {
  const lines = new LineCounter();
  // logLevel silent: the yaml library would print its warnings itself.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'silent' });
  return { doc, lines };
}

function lineIn({ doc, lines }: Located, path: (string | number)[]): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}
