import { describe, expect, it } from 'vitest';
import { idFromEdges } from '../../src/connect/stdio-transport.js';

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
