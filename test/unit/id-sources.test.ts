import { describe, expect, it } from 'vitest';
import { unsourcedIds } from '../../src/audit/id-sources.js';
import { buildContract } from '../../src/contract/normalize.js';
import { obj, tool } from '../helpers/contracts.js';

// The write-ups' "IDs are opaque and must come from a prior tool call" (docs/writeups-lessons.md,
// row 7): an id argument whose source tool nothing names.
const id = (description?: string) => ({ type: 'string', ...(description && { description }) });
const server = (tools: Record<string, unknown>[], instructions: string | null = null) =>
  buildContract({ name: 's', version: '1', protocolVersion: null, instructions }, tools, { pages: 1, durationMs: 0, errors: [] });
const LISTED = [tool('list_boards'), tool('list_posts')];
const check = (post: Record<string, unknown>, instructions: string | null = null, description?: string) =>
  unsourcedIds(server([tool('get_post', obj(post), description ? { description } : {}), ...LISTED], instructions), 'baseline');
const pairs = (findings: { code: string; severity: string }[]) => findings.map((f) => [f.code, f.severity]);

describe('an id argument whose source is named nowhere', () => {
  it('no description, or one that names no listed tool: one finding for the tool, naming its arguments', () => {
    const found = check({
      post_id: id(),
      boardId: { type: 'integer', description: 'The board.' },
      tag_ids: { type: 'array', items: id() },
    });
    expect(pairs(found)).toEqual([['id-source-missing', 'dangerous']]);
    expect(found[0]!.tool).toBe('get_post');
    expect(found[0]!.message).toBe(
      `"post_id", "boardId", "tag_ids" of "get_post" take an id, and nothing says which tool returns it: the model must take ids from a prior call, and without a name it guesses the tool or makes the id up. Name the tool in the argument's description ("Post id, from list_posts") or in the instructions' id map.`,
    );
    // A tool the server does not list is no source (that is tool-reference-missing's), nor a sentence of the instructions that names another argument.
    expect(pairs(check({ post_id: id('Post id, from list_buckets.') }))).toEqual([['id-source-missing', 'dangerous']]);
    expect(pairs(check({ post_id: id() }, 'Board ids come from list_boards.'))).toEqual([['id-source-missing', 'dangerous']]);
    // A one-word tool name is a source only in quotes: in prose it is a word.
    const oneWord = (description: string) =>
      unsourcedIds(server([tool('get_post', obj({ post_id: id(description) })), tool('search')]), 'baseline');
    expect(pairs(oneWord('A post id; search for it first.'))).toEqual([['id-source-missing', 'dangerous']]);
    expect(oneWord('A post id, from `search`.')).toEqual([]);
    // The tool's own name in its description is not where the id comes from.
    expect(pairs(check({ post_id: id() }, null, 'get_post returns one post by its id.'))).toEqual([['id-source-missing', 'dangerous']]);
  });

  it('many arguments: the first eight named, the rest counted', () => {
    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`a${i}_id`, id()]));
    expect(check(many)[0]!.message).toMatch(/^"a0_id", .*"a7_id" and 2 more of "get_post" take an id/);
  });

  it('a listed tool named, in any identifier form, by the argument, the tool or a sentence of the instructions that names the argument: nothing', () => {
    expect(check({ post_id: id('Post id, from list_posts or search_posts.') })).toEqual([]);
    expect(check({ post_id: id('Which post, from listPosts.') })).toEqual([]);
    expect(check({ post_id: id() }, null, 'One post in full. Post ids come from `list-posts`.')).toEqual([]);
    expect(check({ post_id: id() }, 'IDs are opaque:\n  board_id <- list_boards\n  post_id  <- list_posts')).toEqual([]);
    expect(check({ postId: id() }, 'Post IDs come from list_posts. Never invent them.')).toEqual([]);
    // An id the tool handed back on an earlier call (a thread, a session) names the tool itself.
    expect(check({ thread_id: id('The thread_id an earlier get_post returned.') })).toEqual([]);
  });

  it('no id argument, an id from a closed list, or a value that is not an id: nothing', () => {
    expect(check({ query: id(), valid: { type: 'boolean' }, uuid: id() })).toEqual([]);
    expect(check({ project_id: { type: 'string', enum: ['proj_web', 'proj_ios'] } })).toEqual([]);
    expect(check({ filter_id: { type: 'object' } })).toEqual([]);
  });
});
