#!/usr/bin/env node
/**
 * The Support Ops example MCP server, over stdio.
 * Usage: node examples/support-ops/dist/server.js <profile>
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { profiles } from './profiles.js';

const name = process.argv[2] ?? 'baseline';
const profile = profiles[name];
if (!profile) {
  process.stderr.write(`support-ops: unknown profile "${name}"; expected one of ${Object.keys(profiles).join(', ')}\n`);
  process.exit(2);
}

const server = new McpServer(
  { name: 'support-ops', version: profile.version },
  { instructions: 'Support Ops tools for the help desk and incident response. Prefer read-only tools.' },
);
for (const register of profile.tools) register(server);

await server.connect(new StdioServerTransport());
process.stderr.write(`support-ops ${profile.version} (${name}) ready on stdio\n`);
