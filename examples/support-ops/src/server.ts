#!/usr/bin/env node
/**
 * The Support Ops example MCP server.
 * Usage: node examples/support-ops/dist/server.js <profile> [--http PORT | --sse PORT]
 *   (no flag)    stdio
 *   --http PORT  streamable HTTP at http://127.0.0.1:PORT/mcp
 *   --sse PORT   the legacy HTTP+SSE transport: GET http://127.0.0.1:PORT/sse, POST /messages
 * Over HTTP, SUPPORT_OPS_TOKEN (when set) must come as `Authorization: Bearer <token>`.
 * Other arguments (such as the tests' --tag=...) are ignored.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveHttp, type HttpMode } from './http.js';
import { profiles } from './profiles.js';
import { registerSurface } from './surface.js';

const name = process.argv[2] ?? 'baseline';
const profile = profiles[name];
if (!profile) {
  process.stderr.write(`support-ops: unknown profile "${name}"; expected one of ${Object.keys(profiles).join(', ')}\n`);
  process.exit(2);
}

/** One McpServer per session: over HTTP each client session gets its own. */
function buildServer(): McpServer {
  const server = new McpServer(
    { name: 'support-ops', version: profile!.version },
    { instructions: 'Support Ops tools for the help desk and incident response. Prefer read-only tools.' },
  );
  for (const register of profile!.tools) register(server);
  registerSurface(server, profile!.ticketTemplate);
  return server;
}

/** `--http 8808` or `--http=8808`; null when the flag is absent. */
function flag(args: string[], names: string[]): { name: string; value: string } | null {
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === `--${n}`) return { name: n, value: args[i + 1] ?? '' };
      if (args[i]!.startsWith(`--${n}=`)) return { name: n, value: args[i]!.slice(n.length + 3) };
    }
  }
  return null;
}

const http = flag(process.argv.slice(3), ['http', 'sse']);
if (http) {
  const port = Number(http.value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`support-ops: --${http.name} needs a port number, not "${http.value}"\n`);
    process.exit(2);
  }
  const url = await serveHttp(http.name as HttpMode, port, buildServer, process.env.SUPPORT_OPS_TOKEN);
  process.stderr.write(`support-ops ${profile.version} (${name}) ready on ${url}\n`);
} else {
  await buildServer().connect(new StdioServerTransport());
  process.stderr.write(`support-ops ${profile.version} (${name}) ready on stdio\n`);
}
