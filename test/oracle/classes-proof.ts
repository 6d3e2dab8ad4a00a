import type { Schema } from './ajv.js';
import type { MutationClass, NodeCtx } from './classes.js';
import { isObject } from './generate.js';

/**
 * Classes added with docs/verdicts.md's "Calm needs a proof": changes a search that finds nothing
 * would let go in silence (a break under a map, a declared name a new `propertyNames` refuses, an
 * output format or step swapped for one that is neither wider nor narrower), and changes equal by
 * construction that only a proof can let go (an implied `not`, `contains`, `dependentSchemas`, an
 * `if` no instance satisfies, branches reordered, `null` spelled another way). Kept apart from
 * classes.ts, which is past the size a file should be; CLASSES takes these at its end.
 */
const t = (n: Schema): unknown => n.type;
const has = (n: Schema, ...keys: string[]) => keys.some((k) => k in n);
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref'];
const plain = (n: Schema) => !has(n, ...COMBINATORS);
const props = (n: Schema): Schema | null => (isObject(n.properties) ? n.properties : null);
const req = (n: Schema): string[] => (Array.isArray(n.required) ? n.required.filter((r): r is string => typeof r === 'string') : []);
const isObjectNode = (n: Schema) => t(n) === 'object' && props(n) !== null && plain(n);
const isArray = (n: Schema) => t(n) === 'array' && plain(n);
const leaf = (n: Schema, c: NodeCtx) => !c.isRoot && typeof t(n) === 'string' && t(n) !== 'object' && t(n) !== 'array' && plain(n);
const freeString = (n: Schema, c: NodeCtx) => leaf(n, c) && t(n) === 'string' && !has(n, 'enum', 'const', 'format', 'pattern');
const optional = (n: Schema) => {
  const p = props(n);
  return p ? Object.keys(p).filter((k) => !req(n).includes(k) && p[k] !== false) : [];
};
const replace = (n: Schema, next: Schema) => {
  for (const k of Object.keys(n)) delete n[k];
  Object.assign(n, next);
};

export const PROOF_CLASSES: MutationClass[] = [
  // Breaks a search that draws few names or keys can miss.
  {
    name: 'propertyNames-refuses-declared',
    named: '`propertyNames` added that refuses a declared name',
    keywords: ['propertyNames', 'pattern'],
    at: (n) => isObjectNode(n) && !has(n, 'propertyNames', 'patternProperties'),
    prepare: (n) => {
      props(n)!.page_token = { type: 'string' };
    },
    apply: (n) => {
      n.propertyNames = { pattern: '^[a-z]+$' };
    },
    truth: 'narrower',
  },
  {
    name: 'patternProperties-add-matching-declared',
    named: '`patternProperties` added whose pattern governs a declared name',
    keywords: ['patternProperties', 'maximum'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties', 'additionalProperties', 'unevaluatedProperties'),
    prepare: (n) => {
      props(n)!.retry_count = { type: 'integer', minimum: 0, maximum: 100 };
    },
    apply: (n) => {
      n.patternProperties = { _count$: { maximum: 10 } };
    },
    truth: 'narrower',
  },
  {
    name: 'additionalProperties-schema-on-map',
    named: '`additionalProperties` given a schema on a map',
    keywords: ['additionalProperties'],
    at: (n) => isObjectNode(n),
    prepare: (n) => {
      props(n)!.labels = { type: 'object' };
    },
    apply: (n) => {
      (props(n)!.labels as Schema).additionalProperties = { type: 'string' };
    },
    truth: 'narrower',
  },
  {
    name: 'format-change-ipv4-to-hostname',
    named: '`format` changed to one neither wider nor narrower as the walk knows them',
    keywords: ['format'],
    at: (n, c) => freeString(n, c),
    prepare: (n) => {
      n.format = 'ipv4';
    },
    apply: (n) => {
      n.format = 'hostname';
    },
    truth: 'wider',
  },
  {
    name: 'multipleOf-coprime',
    named: '`multipleOf` changed to a coprime value',
    keywords: ['multipleOf'],
    at: (n, c) => leaf(n, c) && (t(n) === 'integer' || t(n) === 'number') && !has(n, 'enum', 'const', 'multipleOf'),
    prepare: (n) => {
      n.multipleOf = 2;
    },
    apply: (n) => {
      n.multipleOf = 3;
    },
    truth: (n) => (has(n, 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum') ? undefined : 'incomparable'),
  },
  {
    name: 'oneOf-branches-come-to-overlap',
    named: '`oneOf` branches that come to overlap',
    keywords: ['oneOf', 'minLength', 'maxLength'],
    at: (n, c) => freeString(n, c) && !has(n, 'minLength', 'maxLength'),
    prepare: (n) => {
      replace(n, {
        oneOf: [
          { type: 'string', maxLength: 3 },
          { type: 'string', minLength: 5 },
        ],
      });
    },
    apply: (n) => {
      n.oneOf = [
        { type: 'string', maxLength: 3 },
        { type: 'string', minLength: 3 },
      ];
    },
    truth: 'incomparable',
  },
  {
    name: 'null-added-as-enum',
    named: '`null` allowed, spelled as an enum',
    keywords: ['anyOf', 'enum', 'null'],
    at: (n, c) => leaf(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    apply: (n) => {
      replace(n, { anyOf: [{ ...n }, { enum: [null] }] });
    },
    truth: 'wider',
  },

  // Equal by construction: only a proof lets these go.
  {
    name: 'null-spelled-as-const',
    named: '`null` spelled another way',
    keywords: ['anyOf', 'const', 'type', 'null'],
    at: (n, c) => leaf(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      n.type = [n.type, 'null'];
    },
    apply: (n) => {
      const [first] = n.type as string[];
      replace(n, { anyOf: [{ ...n, type: first }, { const: null }] });
    },
    truth: 'same',
  },
  {
    name: 'oneOf-reorder-disjoint',
    named: '`oneOf` branches reordered',
    keywords: ['oneOf'],
    at: (n, c) => leaf(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { oneOf: [{ ...n }, { type: 'null' }] });
    },
    apply: (n) => {
      n.oneOf = [...(n.oneOf as unknown[])].reverse();
    },
    truth: 'same',
  },
  {
    // @modelcontextprotocol/server-pdf 2.0.4 (docs/judgements.md, FI31).
    name: 'types-spelled-as-anyOf',
    named: 'a type list spelled as an `anyOf` of bare types',
    keywords: ['anyOf', 'type'],
    at: (n, c) => leaf(n, c) && Object.keys(n).every((k) => k === 'type' || k === 'description' || k === 'title'),
    prepare: (n) => {
      n.type = [n.type as string, n.type === 'boolean' ? 'string' : 'boolean'];
    },
    apply: (n) => {
      const { type, ...text } = n;
      replace(n, { ...text, anyOf: (type as string[]).map((one) => ({ type: one })) });
    },
    truth: 'same',
  },
  {
    name: 'if-then-unsatisfiable-if',
    named: '`if`/`then` added with an `if` no instance satisfies',
    keywords: ['if', 'then', 'type'],
    at: (n) => isObjectNode(n) && !has(n, 'if') && Object.entries(props(n)!).some(([, p]) => isObject(p) && p.type === 'string'),
    apply: (n) => {
      const k = Object.entries(props(n)!).find(([, p]) => isObject(p) && p.type === 'string')![0];
      n.if = { properties: { [k]: { type: 'integer' } }, required: [k] };
      n.then = { required: ['zz_never'] };
    },
    truth: 'same',
  },
  {
    name: 'dependentSchemas-implied',
    named: '`dependentSchemas` added that asks what is already asked',
    keywords: ['dependentSchemas', 'required'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && optional(n).length >= 1 && req(n).length >= 1 && !has(n, 'dependentSchemas'),
    apply: (n) => {
      n.dependentSchemas = { [optional(n)[0]!]: { required: [req(n)[0]] } };
    },
    truth: 'same',
  },
  {
    name: 'not-add-disjoint-type',
    named: '`not` added that excludes nothing the node accepts',
    keywords: ['not', 'type'],
    at: (n, c) => leaf(n, c) && t(n) === 'string' && !has(n, 'not'),
    apply: (n) => {
      n.not = { type: 'integer' };
    },
    truth: 'same',
  },
  {
    name: 'items-true',
    named: '`items` set to `true`',
    keywords: ['items', 'boolean schema'],
    at: (n) => isArray(n) && !has(n, 'prefixItems'),
    prepare: (n) => {
      delete n.items;
    },
    apply: (n) => {
      n.items = true;
    },
    truth: 'same',
  },
  // unstructured-client 0.29.1 (docs/judgements.md, FR2): zod restates an enum beside a plain string.
  {
    name: 'enum-beside-string-as-consts',
    named: 'an enum beside a plain string restated as one `const` per value',
    keywords: ['anyOf', 'enum', 'const'],
    at: (n, c) => freeString(n, c) && Object.keys(n).every((k) => k === 'type' || k === 'description' || k === 'title'),
    prepare: (n) => {
      replace(n, { anyOf: [{ type: 'string', enum: ['fast', 'hi_res', 'auto'] }, { ...n }] });
    },
    apply: (n) => {
      const [, rest] = n.anyOf as Schema[];
      n.anyOf = [...['fast', 'hi_res', 'auto'].map((v) => ({ type: 'string', const: v })), rest];
    },
    truth: 'same',
  },
  {
    name: 'enum-beside-string-dropped',
    named: 'an enum beside a plain string dropped for the plain string',
    keywords: ['anyOf', 'enum'],
    at: (n, c) => freeString(n, c) && Object.keys(n).every((k) => k === 'type' || k === 'description' || k === 'title'),
    prepare: (n) => {
      replace(n, { anyOf: [{ type: 'string', enum: ['gpt-4o', 'claude'] }, { ...n }] });
    },
    apply: (n) => {
      replace(n, (n.anyOf as Schema[])[1]!);
    },
    truth: 'same',
  },
  {
    name: 'contains-implied',
    named: '`contains` added that every item of a non-empty list satisfies',
    keywords: ['contains', 'minItems', 'items'],
    at: (n) => isArray(n) && isObject(n.items) && !has(n, 'contains', 'prefixItems'),
    prepare: (n) => {
      if (typeof n.minItems !== 'number' || n.minItems < 1) n.minItems = 1;
    },
    apply: (n) => {
      n.contains = structuredClone(n.items);
    },
    truth: 'same',
  },
];
