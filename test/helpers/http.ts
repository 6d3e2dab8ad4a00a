import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT, scratchProject } from './cli.js';

/**
 * A TCP port nobody listens on right now, picked by the kernel. A config cannot say "port 0" (the
 * gate must know the url before the server starts), so tests pick one and write it into the config.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const EXAMPLE_SERVER = join(ROOT, 'examples/support-ops/dist/server.js');

/** A profile that starts the example server on `port` and reaches it over streamable HTTP or SSE. */
function exampleHttpProfile(name: string, release: string, kind: 'http' | 'sse', port: number, tag: string, extra = ''): string {
  const path = kind === 'http' ? 'mcp' : 'sse';
  return [
    `  ${name}:`,
    `    transport: ${kind}`,
    `    url: http://127.0.0.1:${port}/${path}`,
    `    command: node`,
    `    args: [${EXAMPLE_SERVER}, ${release}, --${kind}, "${port}", --tag=${tag}]`,
    `    allowSideEffects: true`,
    `    readyTimeoutMs: 10000`,
    extra,
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The scratch project of the stdio tests (baseline, candidate, candidate-safe over stdio), plus
 * the same releases over HTTP and SSE on free ports: `<release>-http`, `<release>-sse`.
 */
export async function httpProject(): Promise<string> {
  const dir = scratchProject();
  const profiles: string[] = [];
  for (const release of ['baseline', 'candidate']) {
    for (const kind of ['http', 'sse'] as const)
      profiles.push(exampleHttpProfile(`${release}-${kind}`, release, kind, await freePort(), dir));
  }
  addProfiles(dir, profiles);
  return dir;
}

/** Inserts profiles (YAML lines, two-space indented) at the top of the scratch config's `profiles:` map. */
export function addProfiles(dir: string, profiles: string[]): void {
  const file = join(dir, 'gate.config.yaml');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('profiles:\n') + 'profiles:\n'.length;
  writeFileSync(file, `${text.slice(0, at)}${profiles.join('\n')}\n${text.slice(at)}`);
}
