/**
 * The Support Ops tools, as plain registrations. Each profile in profiles.ts picks from these,
 * so the drift between profiles is exactly what the profile says and nothing else.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { desk } from './desk.js';

export type ToolRegistration = (server: McpServer) => void;

const text = (value: string) => ({ type: 'text' as const, text: value });

export const ticketsSearch: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Search',
    {
      title: 'Search support tickets',
      description: 'Search support tickets by keyword, optionally filtered by status. Returns ticket ids with subjects.',
      inputSchema: {
        query: z.string().min(1).describe('Keywords matched against ticket subjects and service names.'),
        status: z.enum(['open', 'pending', 'closed']).optional().describe('Only tickets in this status.'),
        limit: z.number().int().min(1).max(50).default(10).describe('Most tickets to return.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ query, status, limit }) => {
      const found = desk.searchTickets(query, status).slice(0, limit);
      const lines = found.map((t) => `${t.id} [${t.status}] ${t.subject}`);
      return { content: [text(lines.length ? lines.join('\n') : `No tickets match "${query}".`)] };
    },
  );

export const ticketsGet: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Get',
    {
      title: 'Get one ticket',
      description: 'Fetch one support ticket with its customer, status and full conversation.',
      inputSchema: {
        ticketId: z
          .string()
          .regex(/^TCK-\d+$/)
          .describe('Ticket id such as TCK-1001.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ ticketId }) => {
      const ticket = desk.ticket(ticketId);
      if (!ticket) return { isError: true, content: [text(`Ticket ${ticketId} does not exist.`)] };
      return { content: [text(`${ticket.id} [${ticket.status}] ${ticket.subject}\ncustomer: ${ticket.customer}`)] };
    },
  );

export const ticketsReply: ToolRegistration = (server) =>
  server.registerTool(
    'Tickets.Reply',
    {
      title: 'Reply to a ticket',
      description: 'Post a public reply on a ticket. The customer is emailed the reply.',
      inputSchema: {
        ticketId: z
          .string()
          .regex(/^TCK-\d+$/)
          .describe('Ticket id such as TCK-1001.'),
        body: z.string().min(1).max(4000).describe('Reply text, sent to the customer as written.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ ticketId, body }) => {
      const ticket = desk.ticket(ticketId);
      if (!ticket) return { isError: true, content: [text(`Ticket ${ticketId} does not exist.`)] };
      return { content: [text(`Reply queued on ${ticket.id} for ${ticket.customer} (${body.length} characters).`)] };
    },
  );

export const customersLookup: ToolRegistration = (server) =>
  server.registerTool(
    'Customers.Lookup',
    {
      title: 'Look up a customer',
      description: 'Find a customer account by email address, with plan and open ticket count.',
      inputSchema: { email: z.string().email().describe('The customer account email.') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ email }) => {
      const customer = desk.customer(email);
      if (!customer) return { isError: true, content: [text(`No customer with email ${email}.`)] };
      return { content: [text(`${customer.email}: plan ${customer.plan}, ${customer.openTickets} open tickets`)] };
    },
  );

const incidentOutput = {
  incidentId: z.string(),
  serviceName: z.string(),
  severity: z.enum(['P1', 'P2', 'P3', 'P4']),
  status: z.literal('declared'),
};

const incidentArgs = {
  serviceName: z.string().min(1).describe('The affected service, such as checkout-api.'),
  summary: z.string().min(1).describe('One line on what is going wrong.'),
};
/** Everything but the input schema stays the same between the releases of Incident.Declare. */
const incidentConfig = {
  title: 'Declare an incident',
  description: 'Declare a production incident for a service. Pages the on-call engineer for P1 and P2.',
  outputSchema: incidentOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
};

export const incidentDeclare: ToolRegistration = (server) =>
  server.registerTool(
    'Incident.Declare',
    {
      ...incidentConfig,
      inputSchema: {
        serviceName: incidentArgs.serviceName,
        severity: z.enum(['P1', 'P2', 'P3', 'P4']).describe('Incident severity; P1 is the most severe.'),
        summary: incidentArgs.summary,
      },
    },
    ({ serviceName, severity, summary }) => {
      const incident = desk.declare(serviceName, severity);
      return {
        content: [
          text(`Declared ${incident.incidentId} for ${serviceName} with severity ${severity}: ${summary}`),
          text(JSON.stringify(incident)),
        ],
        structuredContent: incident,
      };
    },
  );

/** The candidate's drift: severity is no longer accepted, the server triages it itself. */
export const incidentDeclareAutoTriage: ToolRegistration = (server) =>
  server.registerTool('Incident.Declare', { ...incidentConfig, inputSchema: incidentArgs }, ({ serviceName, summary }) => {
    const incident = desk.declare(serviceName, 'P3');
    return {
      content: [
        text(`Declared ${incident.incidentId} for ${serviceName} with severity P3 (auto-triaged): ${summary}`),
        text(JSON.stringify(incident)),
      ],
      structuredContent: incident,
    };
  });

export const deploymentsRollback: ToolRegistration = (server) =>
  server.registerTool(
    'Deployments.Rollback',
    {
      title: 'Roll back a deployment',
      description: 'Roll a service in an environment back to an earlier release. Running traffic shifts at once.',
      inputSchema: {
        serviceName: z.string().min(1).describe('The service to roll back.'),
        environment: z.enum(['staging', 'production']).describe('Where to roll back.'),
        releaseId: z.string().min(1).describe('The release to return to.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    ({ serviceName, environment, releaseId }) => ({
      content: [text(`Rolled ${serviceName} in ${environment} back to ${releaseId}.`)],
    }),
  );

export const runbooksSearch: ToolRegistration = (server) =>
  server.registerTool(
    'Runbooks.Search',
    {
      title: 'Search runbooks',
      description: 'Search the operations runbooks by keyword and return matching titles with links.',
      inputSchema: { query: z.string().min(1).describe('Keywords matched against runbook titles.') },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ query }) => {
      const hits = desk.runbooks(query);
      return { content: [text(hits.length ? hits.join('\n') : `No runbooks match "${query}".`)] };
    },
  );
