import { describe, expect, it } from 'vitest';
import { toolChange } from '../../src/diff/change.js';
import { applyLive } from '../../src/diff/confirm-live.js';
import { withWitness } from '../../src/diff/confirm-words.js';
import type { Change } from '../../src/findings/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';

// docs/verdicts.md, "A witness shows its own change": the instance shown for a change is refused
// where that change is, for its keyword; and a live answer that contradicts the schemas' claim
// changes the sentence.

const diff = (before: Record<string, unknown>, after: Record<string, unknown>): Change[] =>
  diffContracts(contractOf(tool('t', before)), contractOf(tool('t', after)));
const witnessOf = (changes: Change[], path: string) => {
  const c = changes.find((x) => x.path === path);
  expect(c, path).toBeDefined();
  return { instance: c!.witness?.instance, refusal: c!.witness?.refusal };
};

describe('a witness exercises the change it is shown for', () => {
  it('"whole numbers only" is shown with a fraction, not with the new minimum beside it', () => {
    // `level` counts nothing by its name, so both bounds are held and shown (a `page` would be listed: degenerate-bound.ts).
    const changes = diff(obj({ level: { type: 'number' } }), obj({ level: { type: 'integer', minimum: 1 } }));
    const integer = witnessOf(changes, '/inputSchema/properties/level/type');
    expect(Number.isInteger((integer.instance as { level: number }).level)).toBe(false);
    expect(integer.refusal).toBe('/level: must be integer');
    expect(witnessOf(changes, '/inputSchema/properties/level/minimum').refusal).toBe('/level: must be >= 1');
  });

  it('an exclusive bound on a number, kept on an integer, is the same bound over the integers: only the type is told', () => {
    const changes = diff(
      obj({ revision: { type: 'number', exclusiveMinimum: 0 } }),
      obj({ revision: { type: 'integer', exclusiveMinimum: 0 } }),
    );
    expect(changes.map((c) => [c.code, c.path])).toEqual([['input-constraint-declared', '/inputSchema/properties/revision/type']]);
  });

  it('an argument removed from a closed input is shown with that argument, another change with its own', () => {
    const before = obj({ reasoning_effort: { type: 'string' }, strip_thinking: { type: 'boolean' } }, [], { additionalProperties: false });
    const after = obj({ strip_thinking: { type: 'boolean', const: true } }, [], { additionalProperties: false });
    const changes = diff(before, after);
    const removed = witnessOf(changes, '/inputSchema/properties/reasoning_effort');
    expect(Object.keys(removed.instance as object)).toContain('reasoning_effort');
    expect(removed.refusal).toContain("('reasoning_effort')");
    // Two held changes on one side, neither a break: each is shown with a call of its own.
    const open = obj({ strip_thinking: { type: 'boolean' }, limit: { type: 'string', maxLength: 100 } });
    const held = diff(
      open,
      obj({ strip_thinking: { type: 'boolean', const: true }, limit: { type: 'string', maxLength: 100, pattern: '^[a-z]+$' } }),
    );
    expect(witnessOf(held, '/inputSchema/properties/strip_thinking/enum').instance).toMatchObject({ strip_thinking: false });
    expect(Object.keys(witnessOf(held, '/inputSchema/properties/limit/pattern').instance as object)).toContain('limit');
  });
});

describe('a live answer that contradicts the claim changes the sentence', () => {
  it('refuted: the message no longer says the call is now refused, only that the schema refuses it', () => {
    const found = {
      kind: 'found',
      instance: {},
      refusal: "must have required property 'scope'",
      at: '',
      keyword: 'required',
      tried: 2,
    } as const;
    const c = withWitness(
      toolChange('required-argument-added', 'Notes.Count', ['inputSchema', 'properties', 'scope'], 'optional', 'required'),
      'input',
      found,
    );
    expect(c.message).toContain('`{}` was accepted and is now refused');
    const [live] = applyLive([c], new Map([[0, { outcome: 'refuted', candidate: { kind: 'result', text: '0 notes (mine)' } }]]));
    expect(live!.message).not.toContain('was accepted and is now refused');
    expect(live!.message).toContain(
      "`{}` is refused by the candidate's schema (must have required property 'scope'); the baseline's accepted it.",
    );
    expect(live!.message).toMatch(
      /Refuted live: the candidate answered this call without an error \("0 notes \(mine\)"\), so it is held, not rolled back\.$/,
    );
  });
});
