/**
 * Tool variants that get what the model sees wrong, one way each, and a release that fixes them.
 * They keep the baseline's names, descriptions and annotations, so the contract diff stays quiet
 * and only the model-seat audit can tell the releases apart.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { desk } from './desk.js';
import type { ToolRegistration } from './tools.js';

const text = (value: string) => ({ type: 'text' as const, text: value });
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const searchDescription = 'Search support tickets by keyword, optionally filtered by status. Returns ticket ids with subjects.';
const searchInput = {
  query: z.string().min(1).describe('Keywords matched against ticket subjects and service names.'),
  status: z.enum(['open', 'pending', 'closed']).optional().describe('Only tickets in this status.'),
  limit: z.number().int().min(1).max(50).default(10).describe('Most tickets to return.'),
  cursor: z.string().optional().describe('Where to continue, from a previous page.'),
};
const page = (query: string, status: 'open' | 'pending' | 'closed' | undefined, limit: number, cursor?: string) => {
  const all = desk.searchTickets(query, status);
  const start = Number(cursor ?? 0);
  const tickets = all.slice(start, start + limit).map((t) => ({ id: t.id, status: t.status, subject: t.subject }));
  return { tickets, nextCursor: start + limit < all.length ? String(start + limit) : undefined };
};
const pageOutput = {
  tickets: z.array(z.object({ id: z.string(), status: z.string(), subject: z.string() })),
  nextCursor: z.string().optional(),
};

/** The next-page signal lives only in structuredContent; the text the model reads ends the list. */
export const ticketsSearchHiddenPage: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Search',
    {
      title: 'Search support tickets',
      description: searchDescription,
      inputSchema: searchInput,
      outputSchema: pageOutput,
      annotations: readOnly,
    },
    ({ query, status, limit, cursor }) => {
      const result = page(query, status, limit, cursor);
      return { content: [text(result.tickets.map((t) => `${t.id} [${t.status}] ${t.subject}`).join('\n'))], structuredContent: result };
    },
  );

/** Fixed: the text says how to get the next page, and carries the structured copy. */
export const ticketsSearchPaged: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Search',
    {
      title: 'Search support tickets',
      description: searchDescription,
      inputSchema: searchInput,
      outputSchema: pageOutput,
      annotations: readOnly,
    },
    ({ query, status, limit, cursor }) => {
      const result = page(query, status, limit, cursor);
      const lines = result.tickets.map((t) => `${t.id} [${t.status}] ${t.subject}`);
      if (result.nextCursor) lines.push(`More results: call Tickets.Search again with cursor "${result.nextCursor}".`);
      return { content: [text(lines.join('\n')), text(JSON.stringify(result))], structuredContent: result };
    },
  );

/** 60 KB of pretty-printed JSON for three records: every field, every history entry. */
export const ticketsSearchBloated: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Search',
    { title: 'Search support tickets', description: searchDescription, inputSchema: searchInput, annotations: readOnly },
    ({ query, status }) => {
      const records = desk
        .searchTickets(query, status)
        .concat(desk.searchTickets('', 'closed'))
        .slice(0, 3)
        .map((t) => ({
          ...t,
          history: Array.from({ length: 76 }, (_, i) => ({
            at: `2026-11-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
            actor: 'automation@support.example.com',
            event: 'sla_check',
            detail: `SLA timer evaluated for ${t.id}, no breach, next evaluation scheduled`,
          })),
        }));
      return { content: [text(JSON.stringify({ records, total: records.length }, null, 2))] };
    },
  );

/** A failure returned as ordinary content: the model reads "Error" as the customer's data. */
export const customersLookupUnflagged: ToolRegistration = (server) =>
  server.registerTool(
    'Customers.Lookup',
    {
      title: 'Look up a customer',
      description: 'Find a customer account by email address, with plan and open ticket count.',
      inputSchema: { email: z.string().email().describe('The customer account email.') },
      annotations: readOnly,
    },
    () => ({ content: [text('Error: customer directory timed out (upstream status 504)')] }),
  );

const ticketOutput = { id: z.string(), status: z.string(), subject: z.string(), customer: z.string(), messageCount: z.number().int() };
const ticketResult = (ticketId: string) => {
  const t = desk.ticket(ticketId);
  if (!t) return { isError: true, content: [text(`Ticket ${ticketId} does not exist.`)] };
  const ticket = { id: t.id, status: t.status, subject: t.subject, customer: t.customer, messageCount: 3 };
  return {
    content: [text(`${t.id} [${t.status}] ${t.subject}\ncustomer: ${t.customer}`), text(JSON.stringify(ticket))],
    structuredContent: ticket,
  };
};
const getConfig = {
  title: 'Get one ticket',
  description: 'Fetch one support ticket with its customer, status and full conversation.',
  inputSchema: {
    ticketId: z
      .string()
      .regex(/^TCK-\d+$/)
      .describe('Ticket id such as TCK-1001.'),
  },
  outputSchema: ticketOutput,
  annotations: readOnly,
};

/** Fixed: an outputSchema that matches what the tool returns. */
export const ticketsGetTyped: ToolRegistration = (server) =>
  server.registerTool('Tickets.Get', getConfig, ({ ticketId }) => ticketResult(ticketId));

/**
 * The advertised outputSchema types the integer `messageCount` as an object, so every success
 * fails validation on the client. The server validates against its own (correct) zod schema, as
 * real servers whose listed schema drifted from their code do.
 */
export const ticketsGetMistyped: ToolRegistration = (server) => {
  ticketsGetTyped(server);
  advertise(server, (tool) => {
    if (tool.name !== 'Tickets.Get') return tool;
    const schema = tool.outputSchema as { properties: Record<string, unknown> };
    return { ...tool, outputSchema: { ...schema, properties: { ...schema.properties, messageCount: { type: 'object' } } } };
  });
};

type ListedTool = { name: string; outputSchema?: unknown };

/** Rewrites tools as listed, after McpServer builds the list. Reaches into the SDK's handler map: example code only. */
function advertise(server: McpServer, rewrite: (tool: ListedTool) => ListedTool): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, (...args: unknown[]) => Promise<{ tools: ListedTool[] }>> })
    ._requestHandlers;
  const wrapped = handlers.get('tools/list');
  if (!wrapped) return;
  handlers.set('tools/list', async (...args) => {
    const result = await wrapped(...args);
    return { ...result, tools: result.tools.map(rewrite) };
  });
}
