/**
 * The example server over HTTP, with node:http and the SDK's server transports: streamable HTTP
 * (stateful sessions, one McpServer each) or the legacy HTTP+SSE transport. Listens on 127.0.0.1 only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export type HttpMode = 'http' | 'sse';
type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

const reply = (res: ServerResponse, status: number, message: string) => {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
};

/** Starts listening; resolves with the endpoint a client connects to. */
export async function serveHttp(mode: HttpMode, port: number, buildServer: () => McpServer, token: string | undefined): Promise<string> {
  const handle = mode === 'http' ? streamableHandler(buildServer) : sseHandler(buildServer);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (token !== undefined && req.method !== 'OPTIONS' && req.headers.authorization !== `Bearer ${token}`) {
      reply(res, 401, 'Unauthorized: send Authorization: Bearer <SUPPORT_OPS_TOKEN>');
      return;
    }
    handle(req, res, path).catch((error: unknown) => {
      process.stderr.write(`support-ops: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) reply(res, 500, 'Internal server error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return `http://127.0.0.1:${bound}${mode === 'http' ? '/mcp' : '/sse'}`;
}

function streamableHandler(buildServer: () => McpServer): Handler {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req, res, path) => {
    if (path !== '/mcp') return reply(res, 404, `Not found: the endpoint is /mcp`);
    if (req.method === 'OPTIONS') return void res.writeHead(204, { allow: 'GET, POST, DELETE' }).end();
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const transport = sessions.get(id);
      if (!transport) return reply(res, 404, `Unknown session ${id}`);
      return transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'Bad Request: no session; start one with an initialize POST');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer().connect(transport);
    await transport.handleRequest(req, res);
  };
}

function sseHandler(buildServer: () => McpServer): Handler {
  const sessions = new Map<string, SSEServerTransport>();
  return async (req, res, path) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, { allow: 'GET, POST' }).end();
    if (path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => void sessions.delete(transport.sessionId);
      await buildServer().connect(transport);
      return;
    }
    if (path === '/messages' && req.method === 'POST') {
      const id = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('sessionId') ?? '';
      const transport = sessions.get(id);
      if (!transport) return reply(res, 404, `Unknown session ${id}`);
      return transport.handlePostMessage(req, res);
    }
    reply(res, 404, 'Not found: GET /sse opens a session, POST /messages?sessionId=... sends to it');
  };
}
