/**
 * What the Support Ops server offers beside its tools: a prompt the help desk client offers its
 * users, and a resource template for reading one ticket. The `candidate-template` release renames
 * the template's variable, which breaks every client that fills it in.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { desk } from './desk.js';

export const TICKET_TEMPLATE = 'support-ops://tickets/{ticketId}';

export function registerSurface(server: McpServer, ticketTemplate: string = TICKET_TEMPLATE): void {
  server.registerPrompt(
    'Incident.Triage',
    {
      title: 'Triage an incident',
      description: 'Draft a first response to an incident: who is affected, how badly, and what to check first.',
      argsSchema: {
        summary: z.string().describe('What is going wrong, in a sentence.'),
        service: z.string().optional().describe('The affected service, when known.'),
      },
    },
    ({ summary, service }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Triage this incident${service ? ` on ${service}` : ''}: ${summary}. Search open tickets first.` },
        },
      ],
    }),
  );
  server.registerResource(
    'ticket',
    new ResourceTemplate(ticketTemplate, { list: undefined }),
    { title: 'One support ticket', description: 'A ticket with its status and conversation, as JSON.', mimeType: 'application/json' },
    (uri, variables) => {
      const id = String(Object.values(variables)[0] ?? '');
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(desk.ticket(id) ?? null) }] };
    },
  );
}
