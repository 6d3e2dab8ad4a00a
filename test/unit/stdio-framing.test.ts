import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idFromEdges, parseMessage } from '../../src/connect/stdio-transport.js';
import { property, runs } from '../helpers/property.js';

/** A dropped line keeps only its first and last 256 bytes: the id must come from one of them. */
describe('idFromEdges', () => {
  const big = 'y'.repeat(1000);
  const line = (message: object) => JSON.stringify(message);
  const edges = (text: string) => [text.slice(0, 256), text.slice(-256)] as const;

  it('finds the id at the start, as hand-written servers order it', () => {
    expect(idFromEdges(...edges(line({ jsonrpc: '2.0', id: 7, result: { text: big } })))).toBe(7);
    expect(idFromEdges(...edges(line({ id: 'req-"1"', jsonrpc: '2.0', result: { text: big } })))).toBe('req-"1"');
  });

  it('finds the id at the end, as the SDK orders it', () => {
    expect(idFromEdges(...edges(line({ result: { text: big }, jsonrpc: '2.0', id: 12 })))).toBe(12);
  });

  it('does not take an "id" inside the result for the envelope id', () => {
    expect(idFromEdges(...edges(line({ result: { items: [{ id: 3 }], text: big }, jsonrpc: '2.0' })))).toBeUndefined();
    expect(idFromEdges(...edges(line({ result: { text: big, items: [{ id: 3 }] } })))).toBeUndefined();
  });

  it('gives up on a line that is not a JSON-RPC message', () => {
    expect(idFromEdges(big, big)).toBeUndefined();
  });
});

/**
 * Every line a server writes is checked by hand (parseMessage), not by the SDK's zod schema; the
 * two must agree on what is a JSON-RPC message, or the SDK would be handed what it then drops.
 */
describe('parseMessage', () => {
  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.double(), fc.constant(null), fc.boolean());
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const objectish = fc.oneof(
    fc.dictionary(fc.constantFrom('a', 'b', 'name'), fc.jsonValue(), { maxKeys: 2 }),
    fc.constant([]),
    fc.constant('x'),
    fc.constant(null),
    fc.integer(),
  );
  const withMeta = fc.record({ _meta: fc.oneof(fc.constant({}), fc.integer()) });
  const fields = {
    jsonrpc: fc.constantFrom('2.0', '1.0', 2),
    id,
    method: fc.oneof(fc.constantFrom('tools/call', 'notifications/progress'), fc.integer()),
    params: fc.oneof(objectish, withMeta),
    result: fc.oneof(objectish, withMeta),
    error: fc.oneof(
      objectish,
      fc.record({
        code: fc.oneof(fc.integer(), fc.double(), fc.string()),
        message: fc.oneof(fc.string(), fc.integer()),
        data: maybe(fc.jsonValue()),
      }),
    ),
    extra: fc.integer(),
  };
  const some = (...keys: (keyof typeof fields)[]) => fc.record(Object.fromEntries(keys.map((k) => [k, fields[k]])), { requiredKeys: [] });
  // Near-misses of each kind of message, and anything at all.
  const message = fc.oneof(
    some('jsonrpc', 'id', 'method', 'params', 'extra'),
    some('jsonrpc', 'id', 'result', 'extra'),
    some('jsonrpc', 'id', 'error', 'extra'),
    some(...(Object.keys(fields) as (keyof typeof fields)[])),
  );

  property('agrees with the SDK JSONRPCMessageSchema on generated messages', () => {
    fc.assert(
      fc.property(message, (candidate) => {
        const line = JSON.stringify(candidate);
        const sdk = JSONRPCMessageSchema.safeParse(JSON.parse(line)).success;
        expect(parseMessage(line) !== null).toBe(sdk);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('keeps the message as sent, and calls anything else noise', () => {
    const result = { jsonrpc: '2.0', id: 4, result: { content: [], custom: { kept: true } } };
    expect(parseMessage(JSON.stringify(result))).toEqual(result);
    expect(parseMessage('Listening on stdio')).toBeNull();
    expect(parseMessage('[1, 2]')).toBeNull();
  });
});
