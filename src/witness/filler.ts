import type { Rng } from './prng.js';
import type { Chooser, SchemaNode, SchemaReader } from './reader.js';

/** What a value could not be made as (out of fuel, or nothing valid to make). */
export const NOTHING: unique symbol = Symbol('nothing');

/**
 * What objects and arrays need to fill their children (ValueMaker implements it): a separate
 * interface, so that containers.ts and values.ts do not import each other.
 */
export interface Filler {
  readonly reader: SchemaReader;
  readonly rng: Rng;
  /** Whether the value being made now fills in everything it may. */
  readonly richHere: boolean;
  /** Values for a location (all candidates when `wide`, else the likeliest one). */
  values(nodes: SchemaNode[], choose: Chooser, wide: boolean): unknown[];
  /** The likeliest valid value, or NOTHING. */
  one(nodes: SchemaNode[], choose: Chooser): unknown;
  /** A child's likeliest valid value, one level deeper, or NOTHING. */
  child(nodes: SchemaNode[], choose: Chooser): unknown;
  /** A value for the location that differs from every one in `used`, or NOTHING. */
  distinct(nodes: SchemaNode[], choose: Chooser, used: Set<string>): unknown;
}
