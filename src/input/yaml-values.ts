import {
  constructFromEvents,
  defineMappingTag,
  defineScalarTag,
  EVENT_ID,
  NOT_RESOLVED,
  parseEvents,
  SCALAR_STYLE,
  Schema,
  seqTag,
  type Event,
} from 'js-yaml';

/**
 * A fast first reading of a YAML file's value, for files the yaml package would read the same.
 *
 * The yaml package (`source.ts`) is the reader of record: it gives every problem, every line and
 * every limit. It is also slow cold: about 700 ms for a 415 KB dataset, most of it its lexer.
 * js-yaml reads the same file in about 100 ms. This module asks js-yaml first, with a schema that
 * resolves plain scalars exactly as the yaml package's YAML 1.2 core schema does and turns keys
 * into strings exactly as its `toJS` does. It gives up (returns undefined) on anything outside the
 * plain subset the two read alike:
 * - text they read apart (OUTSIDE_THE_PLAIN_SUBSET: directives, tabs, `...`, and a few more);
 * - directives, tags, anchors, aliases, empty keys and very long keys (`isPlain`);
 * - keys that are collections, and repeated keys, also ones that are only the same string (`1`
 *   and `"1"`);
 * - more than one document, nesting deeper than 100, and anything else js-yaml refuses.
 *
 * The yaml package then reads the file as before, so a problem is always its problem, worded and
 * placed as before. test/unit/yaml-values.test.ts holds both readers to the same value over the
 * repository's YAML files, a table of edge cases, and generated and edited documents.
 */
export function plainYamlValue(text: string): { value: unknown; events: Event[] } | undefined {
  if (OUTSIDE_THE_PLAIN_SUBSET.test(text)) return undefined;
  try {
    const events = parseEvents(text, {});
    if (!isPlain(events)) return undefined;
    // maxAliases 0: an alias is refused here, so the yaml package applies its own limits to it.
    const documents = constructFromEvents(events, { source: text, schema: CORE_AS_THE_YAML_PACKAGE_READS_IT, maxAliases: 0, json: false });
    // The events stay with the value: where each value starts, for lines (source-lines.ts).
    return documents.length === 1 ? { value: documents[0], events } : undefined;
  } catch {
    return undefined; // js-yaml throws on what it refuses, and on keys or tags handed back
  }
}

/**
 * The yaml package refuses an implicit key that ends more than 1,024 characters after it starts,
 * as YAML 1.2 says; js-yaml does not. A key of 1,000 characters or more is handed back.
 */
const LONG_KEY = 1000;

/**
 * No directive, tag, anchor or alias, no empty key (`: a: b` reads as two mappings to js-yaml and as
 * an error to the yaml package), and no key of LONG_KEY characters or more.
 */
function isPlain(events: Event[]): boolean {
  // For each open node, how many nodes it holds so far, or null for a sequence or a document.
  // In a mapping, an even count means the next node is a key.
  const open: (number | null)[] = [];
  const counted = () => {
    const count = open.at(-1);
    if (count !== undefined && count !== null) open[open.length - 1] = count + 1;
  };
  for (const event of events) {
    const count = open.at(-1);
    if (event.type === EVENT_ID.POP) {
      open.pop();
      counted();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      if (event.directives.length) return false;
      open.push(null);
      continue;
    }
    if (event.type === EVENT_ID.ALIAS || event.tagStart !== -1 || event.anchorStart !== -1) return false;
    if (event.type === EVENT_ID.MAPPING) open.push(0);
    else if (event.type === EVENT_ID.SEQUENCE) open.push(null);
    else {
      const isKey = typeof count === 'number' && count % 2 === 0;
      const length = event.valueEnd - event.valueStart;
      if (isKey && (length >= LONG_KEY || (length === 0 && event.style === SCALAR_STYLE.PLAIN))) return false;
      counted();
    }
  }
  return true;
}

/** What sends a file to the yaml package before js-yaml reads it: text the two readers read apart. */
const OUTSIDE_THE_PLAIN_SUBSET = new RegExp(
  [
    /^%/, // a directive: `%YAML 1.1` changes the schema, and js-yaml passes over one it does not know
    /\t/, // a tab: they differ on where one may indent
    /\\\r?\n/, // a backslash that ends a line: an escaped line break before a blank line reads differently
    /^(?:\.\.\.| +(?:---|\.\.\.))(?:[ \r\n]|$)/, // `...`, or an indented marker: they differ on what follows
    /(?:^| )[|>][-+]?[1-9]/, // a block scalar's indentation indicator: they indent its text differently at the top
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/, // a byte-order mark, a line separator, a character YAML does not print
  ]
    .map((part) => part.source)
    .join('|'),
  'm',
);

/** js-yaml's composer treats a returned message as a refusal and throws; the caller falls back. */
const HANDED_BACK = 'read by the yaml package instead';

/**
 * Each plain scalar form of the yaml package's core schema (node_modules/yaml/dist/schema/core and
 * common/null.js), resolved the way it resolves it. An explicit tag (`!!int 1`) is handed back.
 */
function coreScalar<T>(tagName: string, firstChars: string[], resolve: (source: string) => T | typeof NOT_RESOLVED) {
  return defineScalarTag<T>(tagName, {
    implicit: true,
    implicitFirstChars: firstChars,
    resolve: (source, isExplicit) => (isExplicit ? NOT_RESOLVED : resolve(source)),
    identify: () => false,
  });
}

const DIGITS = '0123456789'.split('');
const SIGNED = ['-', '+', '.', ...DIGITS];

const nullTag = coreScalar('tag:yaml.org,2002:null', ['', '~', 'n', 'N'], (s) => (/^(?:~|[Nn]ull|NULL)?$/.test(s) ? null : NOT_RESOLVED));

const boolTag = coreScalar('tag:yaml.org,2002:bool', ['t', 'T', 'f', 'F'], (s) =>
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s) ? s[0] === 't' || s[0] === 'T' : NOT_RESOLVED,
);

const intTag = coreScalar('tag:yaml.org,2002:int', SIGNED, (s) => {
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  return NOT_RESOLVED;
});

const floatTag = coreScalar('tag:yaml.org,2002:float', SIGNED, (s) => {
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s))
    return parseFloat(s);
  return NOT_RESOLVED;
});

const strTag = defineScalarTag<string>('tag:yaml.org,2002:str', {
  resolve: (source, isExplicit) => (isExplicit ? NOT_RESOLVED : source),
  identify: () => false,
});

/**
 * A mapping as the yaml package's `toJS` builds it: a plain object, a scalar key as `String(key)`,
 * a null key as ''. A collection key is handed back (the package writes it as YAML text). Two keys
 * that become the same string count as repeated here even where the package tells them apart.
 */
const mapTag = defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => ({}),
  addPair(map, key, value) {
    if (key !== null && typeof key === 'object') return HANDED_BACK;
    const name = keyName(key);
    if (name in map) Object.defineProperty(map, name, { value, writable: true, enumerable: true, configurable: true });
    else map[name] = value;
    return '';
  },
  has: (map, key) => (key !== null && typeof key === 'object' ? false : Object.hasOwn(map, keyName(key))),
  keys: (map) => Object.keys(map),
  get: (map, key) => map[keyName(key)],
  identify: () => false,
});

function keyName(key: unknown): string {
  return key === null ? '' : String(key);
}

const CORE_AS_THE_YAML_PACKAGE_READS_IT = new Schema([strTag, seqTag, mapTag, nullTag, boolTag, intTag, floatTag]);
