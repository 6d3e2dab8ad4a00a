import type { Dialect, Schema } from './ajv.js';
import type { SchemaSide } from './bases.js';
import { isObject, keyOf } from './generate.js';
import { PROOF_CLASSES } from './classes-proof.js';

/**
 * Mutation classes: each edits one node of a base schema. A class may first `prepare` the base (put
 * the node in the state the class starts from, e.g. `maxItems: 1` before `uniqueItems` is added),
 * and says, where it can know, how the candidate's instances relate to the baseline's (`truth`):
 * 'same' holds on any base; the others are claimed on generated bases only, where every node is
 * reachable. Every class is applied forwards (baseline → candidate) and backwards (candidate →
 * baseline), on each side it is meant for, so each keyword is added and removed, tightened and
 * loosened, on inputs and on outputs.
 */
export type Relation = 'same' | 'narrower' | 'wider' | 'incomparable';

export interface NodeCtx {
  root: Schema;
  side: SchemaSide;
  dialect: Dialect;
  isRoot: boolean;
  /** Which subschema of the base this is, as JSON pointer steps. */
  pointer: string[];
}

export interface MutationClass {
  name: string;
  /** The JSON Schema keywords the class exercises (the coverage table reads this). */
  keywords: string[];
  /** The wording, for classes the issue names. */
  named?: string;
  sides?: SchemaSide[];
  dialect?: Dialect;
  at(n: Schema, ctx: NodeCtx): boolean;
  prepare?(n: Schema, ctx: NodeCtx): void;
  apply(n: Schema, ctx: NodeCtx): void;
  truth?: Relation | ((n: Schema, ctx: NodeCtx) => Relation | undefined);
}

const SAFE = Number.MAX_SAFE_INTEGER;
const STRING_KEYS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref'];

const t = (n: Schema): unknown => n.type;
const has = (n: Schema, ...keys: string[]) => keys.some((k) => k in n);
const plain = (n: Schema) => !has(n, ...COMBINATORS);
const props = (n: Schema): Schema | null => (isObject(n.properties) ? n.properties : null);
const req = (n: Schema): string[] => (Array.isArray(n.required) ? n.required.filter((r): r is string => typeof r === 'string') : []);
const isString = (n: Schema) => t(n) === 'string' && plain(n) && !has(n, 'enum', 'const');
const isFreeString = (n: Schema) => isString(n) && !has(n, 'format', 'pattern');
const isNumeric = (n: Schema) => (t(n) === 'integer' || t(n) === 'number') && plain(n) && !has(n, 'enum', 'const');
const isArray = (n: Schema) => t(n) === 'array' && plain(n);
const isObjectNode = (n: Schema) => t(n) === 'object' && props(n) !== null;
const isOpen = (n: Schema) => !has(n, 'additionalProperties', 'patternProperties', 'unevaluatedProperties');
const isClosed = (n: Schema) => n.additionalProperties === false && !has(n, 'patternProperties');
/** A leaf that is not the root, of one type, with no combinator: where a leaf class can act. */
const leafNode = (n: Schema, ctx: NodeCtx) => !ctx.isRoot && typeof t(n) === 'string' && t(n) !== 'object' && t(n) !== 'array' && plain(n);
const optional = (n: Schema) => {
  const p = props(n);
  return p ? Object.keys(p).filter((k) => !req(n).includes(k) && p[k] !== false) : [];
};
const constraining = (s: unknown) => s === false || (isObject(s) && Object.keys(s).some((k) => !['description', 'title'].includes(k)));
const clear = (n: Schema, keys: string[]) => keys.forEach((k) => delete n[k]);
const replace = (n: Schema, next: Schema) => {
  for (const k of Object.keys(n)) delete n[k];
  Object.assign(n, next);
};
const defsKey = (ctx: NodeCtx) => (ctx.dialect === 'draft-07' || ctx.dialect === 'draft-04' ? 'definitions' : '$defs');
const closedTruth = (closed: Relation, open: Relation) => (n: Schema) => (isClosed(n) ? closed : isOpen(n) ? open : undefined);

/** A value a node surely accepts, when a class needs one (for `not`, `default`, `const`). */
const sample = (n: Schema): unknown =>
  Array.isArray(n.enum) ? n.enum[0] : t(n) === 'integer' || t(n) === 'number' ? (typeof n.minimum === 'number' ? n.minimum : 5) : 'abc';

const formatAdd = (format: string): MutationClass => ({
  name: `format-add-${format}`,
  keywords: ['format'],
  at: (n, c) => isFreeString(n) && !c.isRoot,
  apply: (n) => {
    n.format = format;
  },
  truth: 'narrower',
});

export const CLASSES: MutationClass[] = [
  // type
  {
    name: 'type-change',
    keywords: ['type'],
    at: (n, c) => leafNode(n, c) && ['string', 'integer', 'boolean'].includes(t(n) as string) && !has(n, 'enum', 'const'),
    apply: (n) => {
      const next = t(n) === 'string' ? 'integer' : 'string';
      clear(n, [...STRING_KEYS, ...NUMBER_KEYS, 'default']);
      n.type = next;
    },
    truth: 'incomparable',
  },
  {
    name: 'type-add-null',
    keywords: ['type', 'null'],
    at: (n, c) => leafNode(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    apply: (n) => {
      n.type = [n.type, 'null'];
    },
    truth: 'wider',
  },
  {
    name: 'type-add-second',
    keywords: ['type'],
    at: (n, c) => leafNode(n, c) && t(n) === 'string' && !has(n, 'enum', 'const'),
    apply: (n) => {
      n.type = ['string', 'integer'];
    },
    truth: 'wider',
  },
  {
    name: 'type-drop',
    keywords: ['type'],
    at: (n, c) => leafNode(n, c) && !has(n, 'enum', 'const'),
    apply: (n) => {
      delete n.type;
    },
    truth: 'wider',
  },
  {
    name: 'type-integer-to-number',
    keywords: ['type', 'integer', 'number'],
    at: (n) => isNumeric(n) && t(n) === 'integer' && !has(n, 'multipleOf'),
    apply: (n) => {
      n.type = 'number';
    },
    truth: 'wider',
  },
  {
    name: 'type-list-reorder',
    keywords: ['type'],
    at: (n, c) => leafNode(n, c) && !has(n, 'enum', 'const'),
    prepare: (n) => {
      n.type = [n.type, 'null'];
    },
    apply: (n) => {
      n.type = [...(n.type as string[])].reverse();
    },
    truth: 'same',
  },
  {
    name: 'implied-integer-multipleOf-1',
    named: '`integer` with `multipleOf: 1` added',
    keywords: ['multipleOf', 'integer'],
    at: (n) => isNumeric(n) && t(n) === 'integer' && !has(n, 'multipleOf'),
    apply: (n) => {
      n.multipleOf = 1;
    },
    truth: 'same',
  },
  {
    name: 'implied-integer-to-number-multipleOf-1',
    named: '`integer` → `number` with `multipleOf: 1`',
    keywords: ['multipleOf', 'integer', 'number'],
    at: (n) => isNumeric(n) && t(n) === 'integer' && !has(n, 'multipleOf'),
    apply: (n) => {
      n.type = 'number';
      n.multipleOf = 1;
    },
    truth: 'same',
  },

  // enum, const
  {
    name: 'enum-narrow',
    keywords: ['enum'],
    at: (n) => Array.isArray(n.enum) && n.enum.length >= 2,
    apply: (n) => {
      n.enum = (n.enum as unknown[]).slice(0, -1);
    },
    truth: 'narrower',
  },
  {
    name: 'enum-widen',
    keywords: ['enum'],
    at: (n) => Array.isArray(n.enum) && n.enum.length >= 1 && (t(n) === 'string' || t(n) === 'integer'),
    apply: (n) => {
      n.enum = [...(n.enum as unknown[]), t(n) === 'string' ? 'zzz' : 999];
    },
    truth: 'wider',
  },
  {
    name: 'enum-add',
    keywords: ['enum'],
    at: (n, c) => isFreeString(n) && !c.isRoot,
    apply: (n) => {
      n.enum = ['a', 'abc'];
    },
    truth: 'narrower',
  },
  {
    name: 'enum-reorder',
    keywords: ['enum'],
    at: (n) => Array.isArray(n.enum) && n.enum.length >= 2,
    apply: (n) => {
      n.enum = [...(n.enum as unknown[])].reverse();
    },
    truth: 'same',
  },
  {
    name: 'enum-to-anyOf-const',
    named: '`enum` → `anyOf` of `const`s (and back)',
    keywords: ['enum', 'const', 'anyOf'],
    at: (n, c) => !c.isRoot && Array.isArray(n.enum) && n.enum.length >= 2 && plain(n),
    apply: (n) => {
      n.anyOf = (n.enum as unknown[]).map((v) => ({ const: v }));
      delete n.enum;
    },
    truth: 'same',
  },
  {
    name: 'const-add',
    keywords: ['const'],
    at: (n, c) => isFreeString(n) && !c.isRoot,
    apply: (n) => {
      n.const = 'abc';
    },
    truth: 'narrower',
  },
  {
    name: 'const-change',
    keywords: ['const'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.const = 'abc';
    },
    apply: (n) => {
      n.const = 'abd';
    },
    truth: 'incomparable',
  },
  {
    name: 'const-to-enum-of-one',
    keywords: ['const', 'enum'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.const = 'abc';
    },
    apply: (n) => {
      delete n.const;
      n.enum = ['abc'];
    },
    truth: 'same',
  },

  // numbers
  {
    name: 'multipleOf-add',
    keywords: ['multipleOf'],
    at: (n) => isNumeric(n) && !has(n, 'multipleOf'),
    apply: (n) => {
      n.multipleOf = 3;
    },
    truth: 'narrower',
  },
  {
    name: 'multipleOf-refine',
    keywords: ['multipleOf'],
    at: (n) => isNumeric(n),
    prepare: (n) => {
      n.multipleOf = 2;
    },
    apply: (n) => {
      n.multipleOf = 4;
    },
    truth: 'narrower',
  },
  {
    name: 'multipleOf-swap-4-6',
    named: 'output constraint swapped for a different one (`multipleOf: 4` → `6`)',
    keywords: ['multipleOf'],
    at: (n) => isNumeric(n),
    prepare: (n) => {
      n.multipleOf = 4;
      clear(n, ['maximum', 'exclusiveMaximum']);
    },
    apply: (n) => {
      n.multipleOf = 6;
    },
    truth: 'incomparable',
  },
  {
    name: 'multipleOf-fraction',
    keywords: ['multipleOf', 'number'],
    at: (n) => isNumeric(n) && t(n) === 'number' && !has(n, 'multipleOf'),
    apply: (n) => {
      n.multipleOf = 0.5;
    },
    truth: 'narrower',
  },
  {
    name: 'maximum-add',
    keywords: ['maximum'],
    at: (n) => isNumeric(n) && !has(n, 'maximum', 'exclusiveMaximum'),
    apply: (n) => {
      n.maximum = (typeof n.minimum === 'number' ? n.minimum : 0) + 7;
    },
    truth: 'narrower',
  },
  {
    name: 'maximum-tighten',
    keywords: ['maximum'],
    at: (n) => isNumeric(n) && !(typeof n.multipleOf === 'number' && n.multipleOf > 5),
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum']);
      n.maximum = 50;
      if (typeof n.minimum === 'number' && n.minimum > 30) n.minimum = 0;
    },
    apply: (n) => {
      n.maximum = 40;
    },
    truth: 'narrower',
  },
  {
    name: 'maximum-to-exclusive',
    keywords: ['maximum', 'exclusiveMaximum'],
    at: (n) => isNumeric(n) && !(typeof n.multipleOf === 'number' && 50 % n.multipleOf !== 0),
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum']);
      n.maximum = 50;
      if (typeof n.minimum === 'number' && n.minimum > 30) n.minimum = 0;
    },
    apply: (n) => {
      delete n.maximum;
      n.exclusiveMaximum = 50;
    },
    truth: 'narrower',
  },
  {
    name: 'exclusiveMaximum-add',
    keywords: ['exclusiveMaximum'],
    at: (n) => isNumeric(n) && !has(n, 'maximum', 'exclusiveMaximum'),
    apply: (n) => {
      n.exclusiveMaximum = (typeof n.minimum === 'number' ? n.minimum : 0) + 7;
    },
    truth: 'narrower',
  },
  {
    name: 'exclusiveMaximum-integer-equivalent',
    keywords: ['exclusiveMaximum', 'maximum', 'integer'],
    at: (n) => isNumeric(n) && t(n) === 'integer',
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum', 'multipleOf']);
      n.maximum = 9;
      if (typeof n.minimum === 'number' && n.minimum > 9) n.minimum = 0;
    },
    apply: (n) => {
      delete n.maximum;
      n.exclusiveMaximum = 10;
    },
    truth: 'same',
  },
  {
    name: 'minimum-add',
    keywords: ['minimum'],
    at: (n) => isNumeric(n) && !has(n, 'minimum', 'exclusiveMinimum'),
    apply: (n) => {
      n.minimum = typeof n.maximum === 'number' ? n.maximum - 3 : 3;
    },
    truth: 'narrower',
  },
  {
    name: 'minimum-tighten',
    keywords: ['minimum'],
    at: (n) => isNumeric(n) && !(typeof n.multipleOf === 'number' && n.multipleOf > 5),
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum']);
      n.minimum = 0;
      if (typeof n.maximum === 'number' && n.maximum < 20) n.maximum = 50;
    },
    apply: (n) => {
      n.minimum = 10;
    },
    truth: 'narrower',
  },
  {
    name: 'minimum-to-exclusive',
    keywords: ['minimum', 'exclusiveMinimum'],
    at: (n) => isNumeric(n),
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum']);
      n.minimum = 0;
      if (typeof n.maximum === 'number' && n.maximum < 20) n.maximum = 50;
    },
    apply: (n) => {
      delete n.minimum;
      n.exclusiveMinimum = 0;
    },
    truth: 'narrower',
  },
  {
    name: 'exclusiveMinimum-add',
    keywords: ['exclusiveMinimum'],
    at: (n) => isNumeric(n) && !has(n, 'minimum', 'exclusiveMinimum'),
    apply: (n) => {
      n.exclusiveMinimum = typeof n.maximum === 'number' ? n.maximum - 3 : 2;
    },
    truth: 'narrower',
  },
  {
    name: 'exclusiveMinimum-integer-equivalent',
    keywords: ['exclusiveMinimum', 'minimum', 'integer'],
    at: (n) => isNumeric(n) && t(n) === 'integer',
    prepare: (n) => {
      clear(n, ['exclusiveMaximum', 'exclusiveMinimum', 'multipleOf']);
      n.minimum = 1;
      if (typeof n.maximum === 'number' && n.maximum < 1) n.maximum = 50;
    },
    apply: (n) => {
      delete n.minimum;
      n.exclusiveMinimum = 0;
    },
    truth: 'same',
  },
  {
    name: 'implied-bound-redundant',
    keywords: ['minimum', 'exclusiveMinimum'],
    at: (n) => isNumeric(n),
    prepare: (n) => {
      clear(n, ['exclusiveMinimum']);
      n.minimum = 2;
      if (typeof n.maximum === 'number' && n.maximum < 2) n.maximum = 50;
    },
    apply: (n) => {
      n.exclusiveMinimum = 1;
    },
    truth: 'same',
  },
  {
    name: 'safe-integer-bounds',
    keywords: ['minimum', 'maximum', 'integer'],
    at: (n) => isNumeric(n) && t(n) === 'integer' && !has(n, 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'),
    apply: (n) => {
      n.minimum = -SAFE;
      n.maximum = SAFE;
    },
    truth: 'narrower',
  },

  // strings
  {
    name: 'maxLength-add',
    keywords: ['maxLength'],
    at: (n, c) => isString(n) && !has(n, 'maxLength') && !c.isRoot,
    apply: (n) => {
      n.maxLength = 2;
    },
    truth: 'narrower',
  },
  {
    name: 'maxLength-tighten',
    keywords: ['maxLength'],
    at: (n, c) => isFreeString(n) && !c.isRoot,
    prepare: (n) => {
      n.maxLength = 20;
      if (typeof n.minLength === 'number' && n.minLength > 5) n.minLength = 1;
    },
    apply: (n) => {
      n.maxLength = 10;
    },
    truth: 'narrower',
  },
  {
    name: 'minLength-add',
    keywords: ['minLength'],
    at: (n, c) => isString(n) && !has(n, 'format', 'minLength') && !c.isRoot,
    apply: (n) => {
      n.minLength = 3;
    },
    truth: 'narrower',
  },
  {
    name: 'minLength-tighten',
    keywords: ['minLength'],
    at: (n, c) => isString(n) && !has(n, 'format') && !c.isRoot,
    prepare: (n) => {
      n.minLength = 1;
    },
    apply: (n) => {
      n.minLength = 5;
    },
    truth: 'narrower',
  },
  {
    name: 'implied-minLength-0',
    keywords: ['minLength'],
    at: (n, c) => isString(n) && !has(n, 'minLength') && !c.isRoot,
    apply: (n) => {
      n.minLength = 0;
    },
    truth: 'same',
  },
  {
    name: 'pattern-add',
    keywords: ['pattern'],
    at: (n, c) => isFreeString(n) && !c.isRoot,
    apply: (n) => {
      n.pattern = '^[a-z]+$';
    },
    truth: 'narrower',
  },
  {
    name: 'pattern-widen',
    keywords: ['pattern'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.pattern = '^[a-z]+$';
    },
    apply: (n) => {
      n.pattern = '^[a-z0-9]+$';
    },
    truth: 'wider',
  },
  {
    name: 'pattern-swap',
    keywords: ['pattern'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.pattern = '^[a-z]+$';
    },
    apply: (n) => {
      n.pattern = '^[0-9]+$';
    },
    truth: 'incomparable',
  },
  {
    name: 'pattern-anchor',
    keywords: ['pattern'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.pattern = 'abc';
    },
    apply: (n) => {
      n.pattern = '^abc$';
    },
    truth: 'narrower',
  },
  ...['uri', 'email', 'date-time', 'uuid', 'date', 'ipv4', 'hostname', 'time', 'ipv6', 'uri-reference', 'duration'].map(formatAdd),
  {
    name: 'format-swap-uri-email',
    named: 'output constraint swapped for a different one (`format: uri` → `email`)',
    keywords: ['format'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.format = 'uri';
    },
    apply: (n) => {
      n.format = 'email';
    },
    truth: 'incomparable',
  },
  {
    name: 'format-widen-uri-reference',
    keywords: ['format'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.format = 'uri';
    },
    apply: (n) => {
      n.format = 'uri-reference';
    },
    truth: 'wider',
  },
  {
    name: 'format-date-to-date-time',
    keywords: ['format'],
    at: (n, c) => isString(n) && !c.isRoot,
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.format = 'date';
    },
    apply: (n) => {
      n.format = 'date-time';
    },
    truth: 'incomparable',
  },
  {
    name: 'format-unknown-add',
    keywords: ['format'],
    at: (n, c) => isFreeString(n) && !c.isRoot,
    apply: (n) => {
      n.format = 'x-custom-id';
    },
    truth: 'same',
  },

  // arrays
  {
    name: 'maxItems-add',
    keywords: ['maxItems'],
    at: (n) => isArray(n) && !has(n, 'maxItems', 'prefixItems'),
    apply: (n) => {
      n.maxItems = 1;
    },
    truth: 'narrower',
  },
  {
    name: 'maxItems-tighten',
    keywords: ['maxItems'],
    at: (n) => isArray(n) && !has(n, 'prefixItems', 'uniqueItems'),
    prepare: (n) => {
      n.maxItems = 5;
      if (typeof n.minItems === 'number' && n.minItems > 2) n.minItems = 1;
    },
    apply: (n) => {
      n.maxItems = 2;
    },
    truth: 'narrower',
  },
  {
    name: 'minItems-add',
    keywords: ['minItems'],
    at: (n) => isArray(n) && !has(n, 'minItems', 'prefixItems'),
    apply: (n) => {
      n.minItems = 2;
    },
    truth: 'narrower',
  },
  {
    name: 'minItems-tighten',
    keywords: ['minItems'],
    at: (n) => isArray(n) && !has(n, 'prefixItems'),
    prepare: (n) => {
      n.minItems = 1;
    },
    apply: (n) => {
      n.minItems = 3;
    },
    truth: 'narrower',
  },
  {
    name: 'uniqueItems-add',
    keywords: ['uniqueItems'],
    at: (n) => isArray(n) && !n.uniqueItems && !(typeof n.maxItems === 'number' && n.maxItems < 2),
    apply: (n) => {
      n.uniqueItems = true;
    },
    truth: 'narrower',
  },
  {
    name: 'uniqueItems-under-maxItems-1',
    named: '`uniqueItems` under `maxItems: 1`',
    keywords: ['uniqueItems', 'maxItems'],
    at: (n) => isArray(n) && !n.uniqueItems && !has(n, 'prefixItems'),
    prepare: (n) => {
      n.maxItems = 1;
      if (typeof n.minItems === 'number' && n.minItems > 1) n.minItems = 1;
    },
    apply: (n) => {
      n.uniqueItems = true;
    },
    truth: 'same',
  },
  {
    name: 'items-add',
    keywords: ['items'],
    at: (n) => isArray(n) && !has(n, 'prefixItems') && !Array.isArray(n.items),
    prepare: (n) => {
      delete n.items;
    },
    apply: (n) => {
      n.items = { type: 'string' };
    },
    truth: 'narrower',
  },
  {
    name: 'items-false',
    keywords: ['items', 'boolean schema'],
    at: (n) => isArray(n) && !has(n, 'prefixItems', 'minItems') && !Array.isArray(n.items),
    apply: (n) => {
      n.items = false;
    },
    truth: 'narrower',
  },
  {
    name: 'items-widen-anyOf',
    keywords: ['items', 'anyOf'],
    at: (n) => isArray(n) && isObject(n.items) && (n.items as Schema).type !== 'integer' && (n.items as Schema).type !== 'number',
    apply: (n) => {
      n.items = { anyOf: [n.items, { type: 'integer' }] };
    },
    truth: 'wider',
  },
  {
    // Found in review after the nineteenth set: an alternative whose `additionalProperties: true`
    // marks every name evaluated for the node's `unevaluatedProperties: false`, then dropped.
    name: 'unevaluated-marking-alternative-dropped',
    keywords: ['unevaluatedProperties', 'anyOf', 'additionalProperties'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && isOpen(n) && plain(n),
    prepare: (n) => {
      n.unevaluatedProperties = false;
      n.anyOf = [{}, { minProperties: 2, additionalProperties: true }];
    },
    apply: (n) => {
      n.anyOf = [{}];
    },
    truth: 'narrower',
  },
  {
    name: 'prefixItems-add',
    keywords: ['prefixItems'],
    dialect: '2020-12',
    at: (n) => isArray(n) && !has(n, 'prefixItems'),
    apply: (n) => {
      n.prefixItems = [{ const: 'p' }];
    },
  },
  {
    name: 'prefixItems-tighten',
    keywords: ['prefixItems'],
    dialect: '2020-12',
    at: (n) => isArray(n),
    prepare: (n) => {
      n.prefixItems = [{ type: 'string' }];
      clear(n, ['minItems', 'maxItems', 'uniqueItems']);
    },
    apply: (n) => {
      n.prefixItems = [{ type: 'string', maxLength: 1 }];
    },
    truth: 'narrower',
  },
  {
    name: 'prefixItems-extend-closed',
    keywords: ['prefixItems', 'items', 'boolean schema'],
    dialect: '2020-12',
    at: (n) => isArray(n),
    prepare: (n) => {
      n.prefixItems = [{ type: 'string' }];
      n.items = false;
      clear(n, ['minItems', 'maxItems', 'uniqueItems', 'contains']);
    },
    apply: (n) => {
      n.prefixItems = [{ type: 'string' }, { type: 'integer' }];
    },
    truth: 'wider',
  },
  {
    name: 'items-array-form-draft07',
    keywords: ['items', 'additionalItems'],
    dialect: 'draft-07',
    at: (n) => isArray(n) && isObject(n.items),
    apply: (n) => {
      n.additionalItems = n.items;
      n.items = [n.items];
    },
    truth: 'same',
  },
  {
    name: 'additionalItems-false-draft07',
    keywords: ['items', 'additionalItems'],
    dialect: 'draft-07',
    at: (n) => isArray(n) && isObject(n.items),
    prepare: (n) => {
      n.items = [n.items];
      clear(n, ['minItems', 'maxItems', 'uniqueItems']);
    },
    apply: (n) => {
      n.additionalItems = false;
    },
    truth: 'narrower',
  },
  {
    name: 'additionalItems-schema-draft07',
    keywords: ['items', 'additionalItems'],
    dialect: 'draft-07',
    at: (n) => isArray(n) && isObject(n.items),
    prepare: (n) => {
      n.items = [n.items];
      clear(n, ['minItems', 'maxItems', 'uniqueItems']);
    },
    apply: (n) => {
      n.additionalItems = { type: 'boolean' };
    },
    truth: 'narrower',
  },
  {
    name: 'contains-add',
    keywords: ['contains'],
    at: (n) => isArray(n) && !has(n, 'contains'),
    apply: (n) => {
      n.contains = isObject(n.items) ? n.items : {};
    },
    truth: 'narrower',
  },
  {
    name: 'contains-tighten',
    keywords: ['contains'],
    at: (n) => isArray(n) && !has(n, 'contains') && !has(n, 'prefixItems') && isObject(n.items) && (n.items as Schema).type === 'string',
    prepare: (n) => {
      n.contains = { type: 'string' };
    },
    apply: (n) => {
      n.contains = { type: 'string', const: 'abc' };
    },
  },
  {
    name: 'minContains-add',
    keywords: ['minContains', 'contains'],
    dialect: '2020-12',
    at: (n) => isArray(n) && !has(n, 'contains', 'prefixItems', 'uniqueItems'),
    prepare: (n) => {
      n.contains = {};
      if (typeof n.maxItems === 'number' && n.maxItems < 3) n.maxItems = 5;
    },
    apply: (n) => {
      n.minContains = 2;
    },
    truth: 'narrower',
  },
  {
    name: 'maxContains-add',
    keywords: ['maxContains', 'contains'],
    dialect: '2020-12',
    at: (n) => isArray(n) && !has(n, 'contains', 'prefixItems', 'uniqueItems'),
    prepare: (n) => {
      n.contains = {};
      if (typeof n.maxItems === 'number' && n.maxItems < 3) n.maxItems = 5;
    },
    apply: (n) => {
      n.maxContains = 1;
    },
    truth: 'narrower',
  },
  {
    name: 'minContains-zero',
    keywords: ['minContains', 'contains'],
    dialect: '2020-12',
    at: (n) => isArray(n) && !has(n, 'contains', 'prefixItems', 'minItems'),
    prepare: (n) => {
      n.contains = {};
    },
    apply: (n) => {
      n.minContains = 0;
    },
    truth: 'wider',
  },
  {
    name: 'unevaluatedItems-false',
    keywords: ['unevaluatedItems', 'prefixItems'],
    dialect: '2020-12',
    at: (n) => isArray(n) && isObject(n.items) && !has(n, 'prefixItems', 'contains'),
    prepare: (n) => {
      n.prefixItems = [n.items];
      delete n.items;
      clear(n, ['minItems', 'maxItems', 'uniqueItems']);
    },
    apply: (n) => {
      n.unevaluatedItems = false;
    },
    truth: 'narrower',
  },

  // objects
  {
    name: 'maxProperties-add',
    keywords: ['maxProperties'],
    at: (n) => isObjectNode(n) && Object.keys(props(n)!).length >= 2 && req(n).length <= 1 && !has(n, 'maxProperties'),
    apply: (n) => {
      n.maxProperties = 1;
    },
    truth: 'narrower',
  },
  {
    name: 'minProperties-add',
    keywords: ['minProperties'],
    at: (n) => isObjectNode(n) && !has(n, 'minProperties', 'anyOf', 'oneOf'),
    apply: (n) => {
      n.minProperties = req(n).length + 1;
    },
    truth: 'narrower',
  },
  {
    name: 'required-add',
    keywords: ['required'],
    at: (n) => isObjectNode(n) && optional(n).length > 0,
    apply: (n) => {
      n.required = [...req(n), optional(n)[0]!];
    },
    truth: 'narrower',
  },
  {
    name: 'required-drop',
    keywords: ['required'],
    at: (n) => isObjectNode(n) && req(n).length > 0,
    apply: (n) => {
      n.required = req(n).slice(1);
    },
    truth: 'wider',
  },
  {
    name: 'required-undeclared',
    keywords: ['required'],
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.required = [...req(n), 'zz_undeclared'];
    },
    truth: 'narrower',
  },
  {
    name: 'property-add-optional',
    keywords: ['properties'],
    at: (n) => isObjectNode(n) && (isOpen(n) || isClosed(n)),
    apply: (n) => {
      props(n)!.extra_opt = { type: 'string' };
    },
    truth: closedTruth('wider', 'narrower'),
  },
  {
    name: 'closed-output-gains-property',
    named: 'a closed output object gaining a field',
    keywords: ['properties', 'additionalProperties'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties', 'unevaluatedProperties'),
    prepare: (n) => {
      n.additionalProperties = false;
    },
    apply: (n) => {
      props(n)!.extra_field = { type: 'string' };
    },
    truth: 'wider',
  },
  {
    name: 'property-add-required',
    keywords: ['properties', 'required'],
    at: (n) => isObjectNode(n),
    apply: (n) => {
      props(n)!.extra_req = { type: 'string' };
      n.required = [...req(n), 'extra_req'];
    },
    // A closed object refused the name before: now it must be there.
    truth: closedTruth('incomparable', 'narrower'),
  },
  {
    name: 'optional-argument-removed-closed-input',
    named: 'an optional argument removed from a closed input',
    keywords: ['properties', 'additionalProperties'],
    sides: ['input'],
    at: (n) => isObjectNode(n) && optional(n).length > 0 && !has(n, 'patternProperties', 'unevaluatedProperties'),
    prepare: (n) => {
      n.additionalProperties = false;
    },
    apply: (n) => {
      delete props(n)![optional(n)[0]!];
    },
    truth: 'narrower',
  },
  {
    name: 'optional-property-removed-closed-output',
    named: 'an optional property removed from a closed output object',
    keywords: ['properties', 'additionalProperties'],
    sides: ['output'],
    at: (n) => isObjectNode(n) && optional(n).length > 0 && !has(n, 'patternProperties', 'unevaluatedProperties'),
    prepare: (n) => {
      n.additionalProperties = false;
    },
    apply: (n) => {
      delete props(n)![optional(n)[0]!];
    },
    truth: 'narrower',
  },
  {
    name: 'property-remove-open',
    keywords: ['properties'],
    at: (n) => isObjectNode(n) && optional(n).some((k) => constraining(props(n)![k])),
    prepare: (n) => {
      clear(n, ['additionalProperties', 'unevaluatedProperties', 'patternProperties']);
    },
    apply: (n) => {
      delete props(n)![optional(n).find((k) => constraining(props(n)![k]))!];
    },
    truth: 'wider',
  },
  {
    name: 'property-false',
    keywords: ['properties', 'boolean schema'],
    at: (n) => isObjectNode(n) && optional(n).length > 0,
    apply: (n) => {
      props(n)![optional(n)[0]!] = false;
    },
    truth: 'narrower',
  },
  {
    name: 'property-true',
    keywords: ['properties', 'boolean schema'],
    at: (n) => isObjectNode(n) && Object.values(props(n)!).some((s) => constraining(s) && s !== false),
    apply: (n) => {
      const p = props(n)!;
      p[Object.keys(p).find((k) => constraining(p[k]) && p[k] !== false)!] = true;
    },
    truth: 'wider',
  },
  {
    name: 'property-empty-to-true',
    keywords: ['properties', 'boolean schema'],
    at: (n) => isObjectNode(n),
    prepare: (n) => {
      props(n)!.anything = {};
    },
    apply: (n) => {
      props(n)!.anything = true;
    },
    truth: 'same',
  },
  {
    name: 'additionalProperties-false',
    keywords: ['additionalProperties'],
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.additionalProperties = false;
    },
    truth: 'narrower',
  },
  {
    name: 'additionalProperties-schema',
    keywords: ['additionalProperties'],
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.additionalProperties = { type: 'string' };
    },
    truth: 'narrower',
  },
  {
    name: 'additionalProperties-true-explicit',
    keywords: ['additionalProperties', 'boolean schema'],
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.additionalProperties = true;
    },
    truth: 'same',
  },
  {
    name: 'patternProperties-add-open-input',
    named: '`patternProperties` added to an open input',
    keywords: ['patternProperties'],
    sides: ['input'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties'),
    prepare: (n) => {
      clear(n, ['additionalProperties', 'unevaluatedProperties']);
    },
    apply: (n) => {
      n.patternProperties = { '^x-': { type: 'integer' } };
    },
    truth: 'narrower',
  },
  {
    name: 'patternProperties-add-open',
    keywords: ['patternProperties'],
    sides: ['output'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties'),
    prepare: (n) => {
      clear(n, ['additionalProperties', 'unevaluatedProperties']);
    },
    apply: (n) => {
      n.patternProperties = { '^x-': { type: 'integer' } };
    },
    truth: 'narrower',
  },
  {
    name: 'patternProperties-add-closed',
    keywords: ['patternProperties', 'additionalProperties'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties', 'unevaluatedProperties'),
    prepare: (n) => {
      n.additionalProperties = false;
    },
    apply: (n) => {
      n.patternProperties = { '^x-': { type: 'integer' } };
    },
    truth: 'wider',
  },
  {
    name: 'patternProperties-tighten',
    keywords: ['patternProperties'],
    at: (n) => isObjectNode(n) && !has(n, 'patternProperties'),
    prepare: (n) => {
      clear(n, ['additionalProperties', 'unevaluatedProperties']);
      n.patternProperties = { '^x-': { type: 'integer' } };
    },
    apply: (n) => {
      n.patternProperties = { '^x-': { type: 'integer', maximum: 5 } };
    },
    truth: 'narrower',
  },
  {
    name: 'propertyNames-add',
    keywords: ['propertyNames'],
    at: (n) => isObjectNode(n) && !has(n, 'propertyNames'),
    apply: (n) => {
      n.propertyNames = { maxLength: 20 };
    },
    truth: (n) => (isOpen(n) ? 'narrower' : isClosed(n) && Object.keys(props(n)!).every((k) => k.length <= 20) ? 'same' : undefined),
  },
  {
    name: 'propertyNames-pattern-add',
    keywords: ['propertyNames', 'pattern'],
    at: (n) => isObjectNode(n) && !has(n, 'propertyNames') && Object.keys(props(n)!).every((k) => /^[a-zA-Z_]+$/.test(k)),
    apply: (n) => {
      n.propertyNames = { pattern: '^[a-zA-Z_]+$' };
    },
    truth: closedTruth('same', 'narrower'),
  },
  {
    name: 'dependentRequired-add',
    keywords: ['dependentRequired'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && optional(n).length >= 2 && !has(n, 'dependentRequired'),
    apply: (n) => {
      const [a, b] = optional(n);
      n.dependentRequired = { [a!]: [b] };
    },
    truth: 'narrower',
  },
  {
    name: 'implied-dependentRequired-already-required',
    keywords: ['dependentRequired', 'required'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && optional(n).length >= 1 && req(n).length >= 1 && !has(n, 'dependentRequired'),
    apply: (n) => {
      n.dependentRequired = { [optional(n)[0]!]: [req(n)[0]] };
    },
    truth: 'same',
  },
  {
    name: 'dependentSchemas-add',
    keywords: ['dependentSchemas'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && optional(n).length >= 2 && !has(n, 'dependentSchemas'),
    apply: (n) => {
      const [a, b] = optional(n);
      n.dependentSchemas = { [a!]: { required: [b] } };
    },
    truth: 'narrower',
  },
  {
    name: 'dependencies-array-draft07',
    keywords: ['dependencies'],
    dialect: 'draft-07',
    at: (n) => isObjectNode(n) && optional(n).length >= 2 && !has(n, 'dependencies'),
    apply: (n) => {
      const [a, b] = optional(n);
      n.dependencies = { [a!]: [b] };
    },
    truth: 'narrower',
  },
  {
    name: 'dependencies-schema-draft07',
    keywords: ['dependencies'],
    dialect: 'draft-07',
    at: (n) => isObjectNode(n) && optional(n).length >= 2 && !has(n, 'dependencies'),
    apply: (n) => {
      const [a, b] = optional(n);
      n.dependencies = { [a!]: { required: [b] } };
    },
    truth: 'narrower',
  },
  {
    // A list whose items are all read by `unevaluatedItems` (nothing else evaluates them) is the same
    // list with `items` (schema-implied.ts, unevaluatedAsItems).
    name: 'unevaluatedItems-for-items',
    keywords: ['unevaluatedItems', 'items'],
    dialect: '2020-12',
    at: (n) => isArray(n) && isObject(n.items) && !has(n, 'prefixItems', 'contains', 'unevaluatedItems'),
    apply: (n) => {
      n.unevaluatedItems = n.items;
      delete n.items;
    },
    truth: 'same',
  },
  {
    // An `allOf` member whose `items` takes anything marks every item evaluated for the node's
    // `unevaluatedItems: false`: the list takes any items past its tuple (found in review).
    name: 'allOf-open-items-under-unevaluatedItems',
    keywords: ['unevaluatedItems', 'allOf', 'items'],
    dialect: '2020-12',
    at: (n) => isArray(n) && isObject(n.items) && !has(n, 'prefixItems', 'contains', 'unevaluatedItems'),
    prepare: (n) => {
      n.prefixItems = [n.items];
      delete n.items;
      n.unevaluatedItems = false;
      clear(n, ['minItems', 'maxItems', 'uniqueItems']);
    },
    apply: (n) => {
      n.allOf = [{ items: {} }];
    },
    truth: 'wider',
  },
  {
    // draft-07 has no `unevaluatedProperties`: ajv's draft-07 class, as the SDK runs it, ignores it.
    name: 'unevaluatedProperties-under-draft07',
    keywords: ['unevaluatedProperties'],
    dialect: 'draft-07',
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.unevaluatedProperties = false;
    },
    truth: 'same',
  },
  {
    name: 'unevaluatedProperties-false',
    keywords: ['unevaluatedProperties'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && isOpen(n),
    apply: (n) => {
      n.unevaluatedProperties = false;
    },
    truth: 'narrower',
  },
  {
    name: 'unevaluatedProperties-for-additional',
    keywords: ['unevaluatedProperties', 'additionalProperties'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && plain(n) && !has(n, 'patternProperties', 'dependentSchemas', 'unevaluatedProperties'),
    prepare: (n) => {
      n.additionalProperties = false;
    },
    apply: (n) => {
      delete n.additionalProperties;
      n.unevaluatedProperties = false;
    },
    truth: 'same',
  },
  {
    name: 'unevaluatedProperties-through-allOf',
    keywords: ['unevaluatedProperties', 'allOf'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && plain(n) && Object.keys(props(n)!).length >= 2 && !has(n, 'patternProperties', 'dependentSchemas'),
    prepare: (n) => {
      delete n.additionalProperties;
      n.unevaluatedProperties = false;
    },
    apply: (n) => {
      const p = props(n)!;
      const k = Object.keys(p).pop()!;
      n.allOf = [{ properties: { [k]: p[k] } }];
      delete p[k];
    },
    truth: 'same',
  },

  // combinators
  {
    name: 'allOf-wrap',
    keywords: ['allOf'],
    at: (n) => isObjectNode(n),
    apply: (n, c) => {
      const copy = { ...n };
      if (c.isRoot) {
        for (const k of ['$schema', '$defs', 'definitions', 'type']) delete copy[k];
        for (const k of Object.keys(n)) if (!['$schema', '$defs', 'definitions', 'type'].includes(k)) delete n[k];
        n.allOf = [copy];
      } else replace(n, { allOf: [copy] });
    },
    truth: 'same',
  },
  {
    name: 'allOf-split-open',
    keywords: ['allOf', 'properties'],
    at: (n) => isObjectNode(n) && isOpen(n) && Object.keys(props(n)!).length >= 2 && !has(n, 'allOf'),
    apply: (n) => {
      const p = props(n)!;
      const keys = Object.keys(p);
      const half = keys.slice(Math.ceil(keys.length / 2));
      n.allOf = [{ properties: Object.fromEntries(half.map((k) => [k, p[k]])) }];
      half.forEach((k) => delete p[k]);
    },
    truth: 'same',
  },
  {
    name: 'allOf-required',
    keywords: ['allOf', 'required'],
    at: (n) => isObjectNode(n) && optional(n).length > 0 && !has(n, 'allOf'),
    apply: (n) => {
      n.allOf = [{ required: [optional(n).pop()] }];
    },
    truth: 'narrower',
  },
  {
    name: 'allOf-type-conflict',
    keywords: ['allOf', 'type'],
    at: (n) => isObjectNode(n) && optional(n).some((k) => (props(n)![k] as Schema).type === 'string') && !has(n, 'allOf'),
    apply: (n) => {
      n.allOf = [{ properties: { [optional(n).find((k) => (props(n)![k] as Schema).type === 'string')!]: { type: 'integer' } } }];
    },
    truth: 'narrower',
  },
  {
    name: 'anyOf-reorder',
    named: '`anyOf` branches reordered',
    keywords: ['anyOf'],
    at: (n, c) => (Array.isArray(n.anyOf) && n.anyOf.length >= 2) || (leafNode(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const')),
    prepare: (n) => {
      if (!Array.isArray(n.anyOf)) replace(n, { anyOf: [{ ...n }, { type: 'null' }] });
    },
    apply: (n) => {
      n.anyOf = [...(n.anyOf as unknown[])].reverse();
    },
    truth: 'same',
  },
  {
    name: 'anyOf-add-branch',
    keywords: ['anyOf'],
    at: (n, c) => leafNode(n, c) && t(n) !== 'boolean' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { anyOf: [{ ...n }] });
    },
    apply: (n) => {
      n.anyOf = [...(n.anyOf as unknown[]), { type: 'boolean' }];
    },
    truth: 'wider',
  },
  {
    name: 'anyOf-drop-branch',
    keywords: ['anyOf'],
    at: (n, c) => leafNode(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { anyOf: [{ ...n }, { type: 'null' }] });
    },
    apply: (n) => {
      n.anyOf = (n.anyOf as unknown[]).slice(0, 1);
    },
    truth: 'narrower',
  },
  {
    name: 'anyOf-to-oneOf-overlapping',
    keywords: ['anyOf', 'oneOf'],
    at: (n, c) => leafNode(n, c) && isFreeString(n),
    prepare: (n) => {
      replace(n, { anyOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] });
    },
    apply: (n) => {
      n.oneOf = n.anyOf;
      delete n.anyOf;
    },
    truth: 'narrower',
  },
  {
    name: 'anyOf-to-oneOf-disjoint',
    keywords: ['anyOf', 'oneOf'],
    at: (n, c) => leafNode(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { anyOf: [{ ...n }, { type: 'null' }] });
    },
    apply: (n) => {
      n.oneOf = n.anyOf;
      delete n.anyOf;
    },
    truth: 'same',
  },
  {
    name: 'oneOf-drop-overlapping-branch',
    named: 'output `oneOf` losing a branch that overlapped another',
    keywords: ['oneOf'],
    at: (n, c) => leafNode(n, c) && isFreeString(n),
    prepare: (n) => {
      replace(n, { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] });
    },
    apply: (n) => {
      n.oneOf = (n.oneOf as unknown[]).slice(0, 1);
    },
    truth: 'wider',
  },
  {
    name: 'oneOf-add-disjoint-branch',
    keywords: ['oneOf'],
    at: (n, c) => leafNode(n, c) && t(n) === 'string' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { oneOf: [{ ...n }] });
    },
    apply: (n) => {
      n.oneOf = [...(n.oneOf as unknown[]), { type: 'integer' }];
    },
    truth: 'wider',
  },
  {
    name: 'oneOf-add-overlapping-branch',
    keywords: ['oneOf'],
    at: (n, c) => leafNode(n, c) && isFreeString(n),
    prepare: (n) => {
      replace(n, { oneOf: [{ type: 'string', maxLength: 5 }] });
    },
    apply: (n) => {
      n.oneOf = [...(n.oneOf as unknown[]), { type: 'string', minLength: 3 }];
    },
    truth: 'incomparable',
  },
  {
    name: 'nullable-fold',
    keywords: ['anyOf', 'type', 'null'],
    at: (n, c) => leafNode(n, c) && t(n) !== 'null' && !has(n, 'enum', 'const'),
    prepare: (n) => {
      replace(n, { anyOf: [{ ...n }, { type: 'null' }] });
    },
    apply: (n) => {
      const [first] = n.anyOf as Schema[];
      replace(n, { ...first, type: [first!.type, 'null'] });
    },
    truth: 'same',
  },
  {
    name: 'not-add',
    keywords: ['not'],
    at: (n, c) => leafNode(n, c) && (t(n) === 'string' || t(n) === 'integer') && !has(n, 'not'),
    apply: (n) => {
      n.not = { const: sample(n) };
    },
    truth: (n) => (isFreeString(n) && !has(n, 'minLength', 'maxLength') ? 'narrower' : undefined),
  },
  {
    name: 'not-widen',
    keywords: ['not'],
    at: (n, c) => leafNode(n, c) && isFreeString(n),
    prepare: (n) => {
      clear(n, STRING_KEYS);
      n.not = { const: 'abc' };
    },
    apply: (n) => {
      n.not = { enum: ['abc', 'abd'] };
    },
    truth: 'narrower',
  },
  {
    name: 'if-then-add',
    keywords: ['if', 'then'],
    at: (n) => isObjectNode(n) && optional(n).length >= 2 && !has(n, 'if'),
    apply: (n) => {
      const [a, b] = optional(n);
      n.if = { required: [a] };
      n.then = { required: [b] };
    },
    truth: 'narrower',
  },
  {
    name: 'if-then-else-add',
    keywords: ['if', 'then', 'else'],
    at: (n) => isObjectNode(n) && optional(n).length >= 3 && !has(n, 'if'),
    apply: (n) => {
      const [a, b, c] = optional(n);
      n.if = { required: [a] };
      n.then = { required: [b] };
      n.else = { required: [c] };
    },
    truth: 'narrower',
  },
  {
    name: 'else-add',
    keywords: ['if', 'else'],
    at: (n) => isObjectNode(n) && optional(n).length >= 3 && !has(n, 'if'),
    prepare: (n) => {
      const [a, b] = optional(n);
      n.if = { required: [a] };
      n.then = { required: [b] };
    },
    apply: (n) => {
      n.else = { required: [optional(n)[2]] };
    },
    truth: 'narrower',
  },
  {
    name: 'if-change',
    keywords: ['if'],
    at: (n) => isObjectNode(n) && optional(n).length >= 3 && !has(n, 'if'),
    prepare: (n) => {
      const [a, b] = optional(n);
      n.if = { required: [a] };
      n.then = { required: [b] };
    },
    apply: (n) => {
      n.if = { required: [optional(n)[2]] };
    },
  },
  {
    name: 'if-cannot-fire',
    named: 'conditionals that cannot fire',
    keywords: ['if', 'then'],
    at: (n) => isObjectNode(n) && Object.keys(props(n)!).some((k) => isString(props(n)![k] as Schema)) && !has(n, 'if'),
    apply: (n) => {
      const k = Object.keys(props(n)!).find((k) => isString(props(n)![k] as Schema))!;
      n.if = { properties: { [k]: { type: 'integer' } }, required: [k] };
      n.then = false;
    },
    truth: 'same',
  },
  {
    name: 'if-false-cannot-fire',
    named: 'conditionals that cannot fire',
    keywords: ['if', 'then', 'boolean schema'],
    at: (n) => isObjectNode(n) && !has(n, 'if'),
    apply: (n) => {
      n.if = false;
      n.then = { required: ['zz_never'] };
    },
    truth: 'same',
  },
  {
    name: 'if-requires-already-required',
    named: 'conditionals that require what is already required',
    keywords: ['if', 'then', 'required'],
    at: (n) => isObjectNode(n) && optional(n).length >= 1 && req(n).length >= 1 && !has(n, 'if'),
    apply: (n) => {
      n.if = { required: [optional(n)[0]] };
      n.then = { required: [req(n)[0]] };
    },
    truth: 'same',
  },

  // $ref, $defs, definitions
  {
    name: 'ref-extract',
    keywords: ['$ref', '$defs', 'definitions'],
    at: (n) => isObjectNode(n) && Object.keys(props(n)!).length > 0,
    apply: (n, c) => {
      const p = props(n)!;
      const k = Object.keys(p)[0]!;
      const key = defsKey(c);
      const name = `X_${k}`;
      c.root[key] = { ...(isObject(c.root[key]) ? c.root[key] : {}), [name]: p[k] };
      p[k] = { $ref: `#/${key}/${name}` };
    },
    truth: 'same',
  },
  {
    name: 'ref-sibling-keyword',
    keywords: ['$ref'],
    dialect: '2020-12',
    at: (n) => isObjectNode(n) && Object.keys(props(n)!).some((k) => isFreeString(props(n)![k] as Schema)),
    prepare: (n, c) => {
      const p = props(n)!;
      const k = Object.keys(p).find((k) => isFreeString(p[k] as Schema))!;
      c.root.$defs = { ...(isObject(c.root.$defs) ? c.root.$defs : {}), S: { type: 'string' } };
      p[k] = { $ref: '#/$defs/S' };
    },
    apply: (n) => {
      const p = props(n)!;
      const k = Object.keys(p).find((k) => (p[k] as Schema).$ref === '#/$defs/S')!;
      p[k] = { $ref: '#/$defs/S', maxLength: 2 };
    },
    truth: 'narrower',
  },
  {
    name: 'ref-recursive-tighten',
    keywords: ['$ref', '$defs', 'definitions', 'recursion'],
    at: (n, c) => c.isRoot && isObjectNode(n),
    prepare: (n, c) => {
      const key = defsKey(c);
      c.root[key] = {
        ...(isObject(c.root[key]) ? c.root[key] : {}),
        Node: {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: `#/${key}/Node` } } },
          required: ['label'],
        },
      };
      props(n)!.node = { $ref: `#/${key}/Node` };
    },
    apply: (_n, c) => {
      const node = (c.root[defsKey(c)] as Schema).Node as Schema;
      ((node.properties as Schema).label as Schema).maxLength = 2;
    },
    truth: 'narrower',
  },
  {
    name: 'ref-root-recursive',
    keywords: ['$ref', 'recursion'],
    at: (n, c) => c.isRoot && isObjectNode(n) && Object.keys(props(n)!).some((k) => isFreeString(props(n)![k] as Schema)),
    prepare: (n) => {
      props(n)!.parent = { $ref: '#' };
    },
    apply: (n) => {
      const p = props(n)!;
      (p[Object.keys(p).find((k) => isFreeString(p[k] as Schema))!] as Schema).maxLength = 2;
    },
    truth: 'narrower',
  },
  {
    // Found in review after the nineteenth set: two chains of `$ref`s, one through an alias, that
    // lead back as many refs to different definitions (`y` returns to B, then to C1).
    name: 'ref-recursive-alias-return',
    keywords: ['$ref', '$defs', 'definitions', 'recursion'],
    at: (n, c) => c.isRoot && isObjectNode(n),
    prepare: (n, c) => {
      const key = defsKey(c);
      const to = (name: string) => ({ $ref: `#/${key}/${name}` });
      c.root[key] = {
        ...(isObject(c.root[key]) ? c.root[key] : {}),
        B: { type: 'object', properties: { y: to('C') }, additionalProperties: false },
        C: { type: 'object', properties: { z: to('B') }, additionalProperties: false },
      };
      props(n)!.chain = to('B');
    },
    apply: (_n, c) => {
      const key = defsKey(c);
      const defs = c.root[key] as Schema;
      const to = (name: string) => ({ $ref: `#/${key}/${name}` });
      delete defs.C;
      defs.B = { type: 'object', properties: { y: to('C1') }, additionalProperties: false };
      defs.C1 = to('C2');
      defs.C2 = { type: 'object', properties: { z: to('C1') }, additionalProperties: false };
    },
    truth: 'incomparable',
  },
  {
    name: 'defs-unreferenced-change',
    keywords: ['$defs', 'definitions'],
    at: (_n, c) => c.isRoot,
    prepare: (_n, c) => {
      const key = defsKey(c);
      c.root[key] = { ...(isObject(c.root[key]) ? c.root[key] : {}), Unused: { type: 'string' } };
    },
    apply: (_n, c) => {
      ((c.root[defsKey(c)] as Schema).Unused as Schema).maxLength = 2;
    },
    truth: 'same',
  },

  // annotations
  {
    name: 'default-change',
    keywords: ['default'],
    at: (n, c) => leafNode(n, c) && (t(n) === 'string' || t(n) === 'integer'),
    apply: (n) => {
      n.default = sample(n);
    },
    truth: 'same',
  },
  {
    name: 'annotations-change',
    keywords: ['description', 'title', 'examples', 'deprecated', 'readOnly', '$comment', 'x-*'],
    at: (n, c) => !c.isRoot,
    apply: (n) => {
      n.description = 'Reworded for the model.';
      n.title = 'A title';
      n.examples = ['abc'];
      n.deprecated = true;
      n.readOnly = true;
      n.$comment = 'internal';
      n['x-vendor'] = { hint: 1 };
    },
    truth: 'same',
  },
  {
    name: 'dialect-draft07-to-2020',
    keywords: ['$schema'],
    dialect: 'draft-07',
    at: (_n, c) => c.isRoot && !/"(additionalItems|dependencies)"|"items":\[/.test(keyOf(c.root)),
    apply: (n) => {
      n.$schema = 'https://json-schema.org/draft/2020-12/schema';
    },
    truth: 'same',
  },
  ...PROOF_CLASSES,
];

/** Every subschema a class may edit, by pointer: properties, items, branches, definitions; not inside `not`, `if` or `propertyNames`. */
export function nodesOf(root: Schema): { pointer: string[]; node: Schema }[] {
  const out: { pointer: string[]; node: Schema }[] = [];
  const visit = (n: unknown, pointer: string[], depth: number) => {
    if (!isObject(n) || depth > 10 || out.length > 400) return;
    out.push({ pointer, node: n });
    for (const k of ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])
      if (isObject(n[k])) for (const [name, c] of Object.entries(n[k])) visit(c, [...pointer, k, name], depth + 1);
    for (const k of [
      'items',
      'additionalProperties',
      'additionalItems',
      'contains',
      'then',
      'else',
      'unevaluatedItems',
      'unevaluatedProperties',
    ])
      if (isObject(n[k])) visit(n[k], [...pointer, k], depth + 1);
    for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'])
      if (Array.isArray(n[k])) (n[k] as unknown[]).forEach((c, i) => visit(c, [...pointer, k, String(i)], depth + 1));
  };
  visit(root, [], 0);
  return out;
}

export function nodeAt(root: Schema, pointer: string[]): Schema {
  let n: unknown = root;
  for (const k of pointer) n = Array.isArray(n) ? n[Number(k)] : (n as Schema)[k];
  return n as Schema;
}
