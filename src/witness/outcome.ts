import type { SchemaWork } from '../contract/schema-work.js';

/** What a witness search is asked, within what budget, and what it answers (src/witness/search.ts). */
export interface WitnessBudget {
  /** Instances judged at most for this search. */
  instances: number;
  /** Schema nodes visited at most while reading the schemas. */
  nodes: number;
}

export type WitnessOutcome =
  /**
   * `at`: where in the instance the refusing schema's first error is, as a JSON Pointer; `keyword`:
   * its keyword; `name`: the member it names (a required one missing, an additional one sent).
   */
  | { kind: 'found'; instance: unknown; refusal: string; at: string; keyword: string; name?: string; tried: number }
  /**
   * `barren`: the search built no instance that the accepting schema takes, or none that reached a
   * focus location, so finding nothing proves nothing.
   */
  | { kind: 'none'; tried: number; strategies: string[]; barren?: true }
  | { kind: 'unsearchable'; reason: string; tried: number };

export interface WitnessOptions {
  seed: number;
  budget: WitnessBudget;
  /** Instance paths where the structural diff saw a difference: searched first. */
  focus?: string[][];
  /** The run's count of schema nodes, which this search adds to. */
  work?: SchemaWork;
  /**
   * Instances the asker does not count as witnesses, though one schema accepts them and the other
   * refuses them, told by the instance and where it is refused (diff/confirm.ts spares a refusal of
   * a value a command line reads as an option). They still seed mutations, so a witness without
   * them can be found from them.
   */
  spare?: (instance: unknown, at: string, keyword: string, name: string | undefined) => boolean;
  /**
   * Values to try first at an instance path, before the search's own (diff/confirm-hints.ts: words
   * that tell two patterns apart, found by comparing them as languages).
   */
  hints?: { path: string[]; values: unknown[] }[];
}
