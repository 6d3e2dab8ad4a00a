import { describe, expect, it } from 'vitest';
import { sdkRefusals } from '../../src/audit/sdk-refusal.js';

const schema = {
  type: 'object',
  properties: {
    tag_id: { type: 'object' },
    posts: { type: 'array', items: { type: 'object', properties: { eta: { type: 'string' }, state: { enum: ['open', 'done'] } } } },
    title: { type: 'string', maxLength: 10 },
  },
  required: ['tag_id', 'owner'],
};
const said = (reasons: string) => `MCP error -32602: Output validation error: Invalid structured content for tool get_tag: ${reasons}`;
const read = (text: string) => sdkRefusals(text, schema).map((r) => [r.path, r.keyword, r.expected]);

describe("the SDK's Output validation error, read back into a path and a keyword", () => {
  it('zod 4 sentences, one per line, with the dot path turned into a JSON pointer and the declared value beside the keyword', () => {
    expect(
      read(
        said(
          [
            'Invalid input: expected object, received number at tag_id',
            'Invalid input: expected string, received null at posts[3].eta',
            'Invalid option: expected one of "open"|"done" at posts[0].state',
            'Too big: expected string to have <=10 characters at title',
            'Invalid input: expected string, received undefined at owner',
          ].join('\n'),
        ),
      ),
    ).toEqual([
      ['/structuredContent/tag_id', 'type', 'object'],
      ['/structuredContent/posts/3/eta', 'type', 'string'],
      ['/structuredContent/posts/0/state', 'enum', ['open', 'done']],
      ['/structuredContent/title', 'maxLength', 10],
      ['/structuredContent/owner', 'required', ['tag_id', 'owner']],
    ]);
  });

  it('zod 3 sentences, the root, and no structuredContent at all', () => {
    expect(read(said('Required at owner\nNumber must be greater than or equal to 1 at count'))).toEqual([
      ['/structuredContent/owner', 'required', ['tag_id', 'owner']],
      ['/structuredContent/count', 'minimum', undefined],
    ]);
    expect(read(said('Unrecognized key: "extra"'))).toEqual([['/structuredContent', 'additionalProperties', undefined]]);
    expect(read('Output validation error: Tool get_tag has an output schema but no structured content was provided')).toEqual([
      ['/structuredContent', 'required', undefined],
    ]);
  });
});
