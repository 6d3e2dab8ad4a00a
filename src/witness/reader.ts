import type { SchemaWork } from '../contract/schema-work.js';
import type { JsonSchema } from '../contract/types.js';
import type { Dialect } from './judge.js';
import { keyMatches, patternHazard } from './regex.js';
import { isObject, memberOf } from '../base/json-object.js';
import { unescapeSegment } from '../base/json-pointer.js';

export type SchemaNode = JsonSchema | boolean;

/** Schema nodes read so far, shared by both sides of one search: the search is bounded by this work. */
export class Work {
  visited = 0;
  constructor(
    readonly limit: number,
    /** The run's count, which every search adds to (and whose clock ends a search past the run's deadline). */
    private readonly run?: SchemaWork,
  ) {}
  /** Counts one node read; false once the budget is spent. */
  visit(): boolean {
    this.run?.count();
    return ++this.visited <= this.limit;
  }
  get spent(): boolean {
    return this.visited >= this.limit;
  }
}

/** Picks one of `n` branches (anyOf, oneOf; for `if`, 0 is then and 1 is else). */
export type Chooser = (n: number) => number;

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** The keywords whose members are named by the server: a property, a definition, a dependent name. */
const NAMING_MAPS = [...SCHEMA_MAPS, 'dependentRequired'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SCHEMA_ONES = [
  ...['not', 'if', 'then', 'else', 'items', 'additionalItems', 'contains', 'unevaluatedItems'],
  ...['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'contentSchema'],
];

/** Shared by the modules of this folder that read schemas. */
export { isObject };
const asList = (v: unknown): SchemaNode[] => (Array.isArray(v) ? (v as SchemaNode[]) : []);
const asMap = (v: unknown): Record<string, SchemaNode> => (isObject(v) ? (v as Record<string, SchemaNode>) : {});

/** One schema, read under its dialect: references resolved, applicators flattened, children found. */
export class SchemaReader {
  private readonly anchors = new Map<string, SchemaNode>();
  private readonly resolved = new Map<string, SchemaNode | undefined>();
  private readonly rootId: string;

  constructor(
    readonly root: JsonSchema,
    readonly dialect: Dialect,
    readonly work: Work,
  ) {
    this.rootId = typeof root.$id === 'string' ? root.$id.replace(/#.*$/, '') : '';
  }

  /** Reads every node once, not through references: why the schema cannot be searched, or null. */
  scan(): string | null {
    const stack: unknown[] = [this.root];
    while (stack.length) {
      const node = stack.pop();
      if (!isObject(node)) continue;
      if (!this.work.visit()) return `it is larger than the node budget (${this.work.limit} nodes)`;
      const why = this.problemAt(node);
      if (why) return why;
      for (const k of SCHEMA_MAPS) stack.push(...Object.values(asMap(node[k])));
      for (const k of SCHEMA_LISTS) stack.push(...asList(node[k]));
      for (const k of SCHEMA_ONES) stack.push(node[k]);
    }
    return null;
  }

  private problemAt(node: JsonSchema): string | null {
    if (typeof node.$anchor === 'string') this.anchors.set(node.$anchor, node);
    if (typeof node.$id === 'string' && node.$id.startsWith('#')) this.anchors.set(node.$id.slice(1), node);
    for (const k of ['$ref', '$dynamicRef', '$recursiveRef']) {
      const ref = node[k];
      if (typeof ref === 'string' && this.fragmentOf(ref) === null) return `it refers to an external $ref (${ref})`;
    }
    // ajv leaves a member named `__proto__` out of what it checks: the judge would not see it.
    for (const k of NAMING_MAPS)
      if (isObject(node[k]) && Object.hasOwn(node[k], '__proto__'))
        return `its ${k} name "__proto__", which the judge (ajv) does not check`;
    const patterns = [...(typeof node.pattern === 'string' ? [node.pattern] : []), ...Object.keys(asMap(node.patternProperties))];
    for (const p of patterns) {
      const hazard = patternHazard(p);
      if (hazard) return hazard;
    }
    return null;
  }

  /** The part of a reference after '#', when it points into this document. */
  private fragmentOf(ref: string): string | null {
    if (ref.startsWith('#')) return ref.slice(1);
    if (this.rootId && ref.startsWith(this.rootId)) return ref.slice(this.rootId.length).replace(/^#/, '');
    return null;
  }

  resolve(ref: string): SchemaNode | undefined {
    if (!this.resolved.has(ref)) this.resolved.set(ref, this.lookUp(ref));
    return this.resolved.get(ref);
  }

  private lookUp(ref: string): SchemaNode | undefined {
    const fragment = this.fragmentOf(ref);
    if (fragment === null) return undefined;
    if (!fragment.startsWith('/')) return fragment ? this.anchors.get(fragment) : this.root;
    let node: unknown = this.root;
    for (const raw of fragment.slice(1).split('/')) {
      const key = unescapeSegment(decodeURIComponent(raw));
      node = node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    }
    return isObject(node) || typeof node === 'boolean' ? node : undefined;
  }

  /**
   * The conjuncts that apply at one instance location: `allOf` and references followed, one branch
   * of each `anyOf`/`oneOf` and one side of each `if` taken. `[false]` when nothing can be valid;
   * null when the node budget is spent.
   */
  flatten(nodes: SchemaNode[], choose: Chooser): SchemaNode[] | null {
    return this.collect(nodes, true, (n, push) => {
      for (const branches of [asList(n.anyOf), asList(n.oneOf)]) if (branches.length) push(branches[choose(branches.length)]);
      if (n.if !== undefined && (n.then !== undefined || n.else !== undefined)) {
        if (choose(2) === 0) push(n.if, n.then);
        else push(n.else);
      }
    });
  }

  /**
   * Every subschema that may apply at the location, through every branch: where values come from.
   * A `false` among them (a closed branch's answer for a name it does not declare) rules out that
   * branch only, never the others beside it.
   */
  spread(nodes: SchemaNode[]): SchemaNode[] {
    const all = this.collect(nodes, false, (n, push) => {
      // `not` too: what it describes is what a `not` added refuses.
      push(...asList(n.anyOf), ...asList(n.oneOf), n.if, n.then, n.else, n.not);
      push(...Object.values(asMap(n.dependentSchemas)), ...Object.values(asMap(n.dependencies)).filter((d) => !Array.isArray(d)));
    });
    return (all ?? []).filter((n) => n !== false);
  }

  /** Subschemas reached from `nodes`; with `conjoined`, a `false` reached makes the whole `[false]`. */
  private collect(
    nodes: SchemaNode[],
    conjoined: boolean,
    branch: (n: JsonSchema, push: (...more: unknown[]) => void) => void,
  ): SchemaNode[] | null {
    const out: SchemaNode[] = [];
    const seen = new Set<SchemaNode>();
    const stack: unknown[] = [...nodes];
    const push = (...more: unknown[]) => stack.push(...more);
    while (stack.length) {
      const n = stack.pop();
      if ((!isObject(n) && typeof n !== 'boolean') || seen.has(n)) continue;
      seen.add(n);
      if (!this.work.visit()) return null;
      if (n === false && conjoined) return [false];
      if (typeof n === 'boolean') continue;
      out.push(n);
      for (const k of ['$ref', '$dynamicRef', '$recursiveRef']) if (typeof n[k] === 'string') push(this.resolve(n[k]));
      push(...asList(n.allOf));
      branch(n, push);
    }
    return out;
  }

  /** The subschemas that apply to property `key` of an object the nodes describe. */
  propertySchemas(nodes: SchemaNode[], key: string): SchemaNode[] {
    const out: SchemaNode[] = [];
    for (const n of nodes) {
      if (!isObject(n)) continue;
      const own = memberOf(asMap(n.properties), key) as SchemaNode | undefined;
      const matched = Object.entries(asMap(n.patternProperties)).filter(([p]) => keyMatches(p, key));
      if (own !== undefined) out.push(own);
      out.push(...matched.map(([, s]) => s));
      if (own === undefined && !matched.length) {
        if (n.additionalProperties !== undefined) out.push(n.additionalProperties as SchemaNode);
        else if (isObject(n.unevaluatedProperties)) out.push(n.unevaluatedProperties);
      }
    }
    return out;
  }

  /** The subschemas that apply to item `index` of an array the nodes describe, under this dialect. */
  itemSchemas(nodes: SchemaNode[], index: number): SchemaNode[] {
    const out: SchemaNode[] = [];
    for (const n of nodes) {
      if (!isObject(n)) continue;
      const tuple = this.dialect === '2020-12' ? asList(n.prefixItems) : asList(n.items);
      const rest = this.dialect === '2020-12' ? n.items : Array.isArray(n.items) ? n.additionalItems : n.items;
      if (index < tuple.length) out.push(tuple[index]!);
      else if (isObject(rest) || typeof rest === 'boolean') out.push(rest);
      else if (isObject(n.unevaluatedItems)) out.push(n.unevaluatedItems);
    }
    return out;
  }
}
