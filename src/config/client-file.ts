import { readFileSync } from 'node:fs';
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isObject } from '../base/json-object.js';

// An MCP client config file (.mcp.json, .vscode/mcp.json), read as JSON with comments (client-config.ts).

const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/** One client config file, read once per load, with the problems of reading it. */
export type ClientFile = { ok: true; servers: Record<string, unknown>; key: string; text: string } | { ok: false; message: string };

/** The servers of a client config, or none when it cannot be read (a profile naming it is told why, by the config loader). */
export function clientServers(path: string): Record<string, unknown> {
  const file = readClientFile(path);
  return file.ok ? file.servers : {};
}

/** One client config, read whole: its servers and the key that holds them, or why it cannot be used. */
export function readClientFile(path: string): ClientFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})` };
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const first = errors[0]!;
    const what = printParseErrorCode(first.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    return { ok: false, message: `is not valid JSON (line ${lineAt(text, first.offset)}: ${what})` };
  }
  if (!isObject(value)) return { ok: false, message: 'must be a JSON object with "mcpServers" or "servers"' };
  for (const key of ['mcpServers', 'servers']) {
    if (isObject(value[key])) return { ok: true, servers: value[key], key, text };
  }
  return { ok: false, message: 'has no "mcpServers" (Claude, Cursor) or "servers" (VS Code) object' };
}

/** Lines of paths inside one entry of a client config; a path it does not have gets its nearest parent's line. */
export function clientLines(text: string, entry: string[]): (path: (string | number)[]) => number | null {
  let tree: ReturnType<typeof parseTree> | null = null;
  return (path) => {
    tree ??= parseTree(text, [], { allowTrailingComma: true, disallowComments: false }) ?? null;
    if (!tree) return null;
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(tree, [...entry, ...path.slice(0, depth)]);
      if (node) return lineAt(text, node.offset);
    }
    return null;
  };
}
