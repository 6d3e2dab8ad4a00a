import type { ChangeMeta } from './meta.js';
import { generic, place, toolName, typeWords } from './schema-place.js';

/** What callers get back: the output schema (diff/schema-*.ts, read in the consumer's direction). */
export const OUTPUT_CODES = {
  'output-schema-added': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output schemas added',
    message: (c) => `"${toolName(c)}" now declares an outputSchema.`,
  },
  'output-schema-removed': {
    area: 'output',
    severity: 'breaking',
    action: 'rollback',
    title: 'Output schemas removed',
    message: (c) => `"${toolName(c)}" no longer declares an outputSchema; structured results lose their contract.`,
  },
  'output-property-added': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output fields added',
    message: (c) => `"${toolName(c)}" output gains field "${place(c)}".`,
  },
  // The mirror of output-optional-property-removed: where the baseline refused undeclared fields, a
  // consumer that validates results against it refuses one that carries the new field. A widening
  // of the output, held as the others are (docs/judgements.md, GT2).
  'output-closed-property-added': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: "Output fields added where the baseline's schema refused undeclared ones",
    message: (c) =>
      `"${toolName(c)}" output gains field "${place(c)}", which the baseline's schema refused as undeclared. A client validates a result against the schema the server lists now, which declares it; only a consumer that kept the old schema refuses a result that carries it.`,
  },
  // A field the baseline's results held only as null (or never), removed: the null keys fixed
  // (diff/observed-outputs.ts reads the results).
  'output-property-removed': {
    area: 'output',
    resolves: { 'result-null-fields': 'place' },
    severity: 'breaking',
    action: 'rollback',
    title: 'Output fields removed',
    message: (c) => `"${toolName(c)}" output no longer has field "${place(c)}".`,
  },
  'output-optional-property-removed': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Optional output fields no longer returned',
    message: (c) =>
      `"${toolName(c)}" output no longer declares optional field "${place(c)}" and refuses it, so every result still satisfies the baseline's schema.`,
  },
  'output-property-optional': {
    area: 'output',
    resolves: { 'result-null-fields': 'place' },
    severity: 'breaking',
    action: 'rollback',
    title: 'Output fields no longer guaranteed',
    message: (c) => `"${toolName(c)}" output field "${place(c)}" is no longer required.`,
  },
  'output-type-changed': {
    area: 'output',
    severity: 'breaking',
    action: 'rollback',
    title: 'Output types widened or changed',
    message: typeWords('no longer returns', 'may now return'),
  },
  // A type that keeps every kind it had and gains only null: JSON's "no value", and the write-ups'
  // own fix for strict outputs (absent keys came back null and failed a non-nullable type). Noted,
  // not held: a client validates results against the schema the server lists now, which admits the
  // null, and a model reads null as absence (docs/verdicts.md, "An output that may now be null").
  // A kind of value gained (a string that may now be an array) stays output-type-changed.
  'output-type-nullable': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output values that may now be null',
    message: (c) => `${typeWords('', 'may now return')(c)} Every kind of value it returned before it may still return.`,
  },
  // A union consumers already branch on gains a member: held for a person, who knows whether
  // consumers ignore kinds they do not know (docs/judgements.md, F3).
  'output-variant-added': {
    area: 'output',
    severity: 'dangerous',
    action: 'hold',
    title: 'Output alternatives added',
    message: (c) => `${typeWords('', 'may now return')(c)} The baseline's union did not have this alternative.`,
  },
  'output-result-unpromised': {
    area: 'output',
    severity: 'breaking',
    action: 'rollback',
    title: "Results the baseline's schema refused, now allowed (found by the search)",
    message: (c) =>
      `"${toolName(c)}" may return a result its baseline's outputSchema refused, though no change the diff names explains it.`,
  },
  'output-type-narrowed': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output types narrowed',
    message: typeWords('no longer returns', 'may now return'),
  },
  'output-enum-widened': {
    area: 'output',
    severity: 'dangerous',
    action: 'hold',
    title: 'Output enums widened',
    message: generic('output-enum-widened'),
  },
  'output-enum-narrowed': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output enums narrowed',
    message: generic('output-enum-narrowed'),
  },
  'output-constraint-loosened': {
    area: 'output',
    severity: 'dangerous',
    action: 'hold',
    title: 'Output constraints loosened',
    message: generic('output-constraint-loosened'),
  },
  'output-constraint-tightened': {
    area: 'output',
    severity: 'safe',
    action: 'ignore',
    title: 'Output constraints tightened',
    message: generic('output-constraint-tightened'),
  },
} as const satisfies Record<string, ChangeMeta>;
