/** Which tools each profile serves. A profile is one release of the Support Ops server. */
import * as tools from './tools.js';
import type { ToolRegistration } from './tools.js';

const baseline: ToolRegistration[] = [
  tools.ticketsSearch,
  tools.ticketsGet,
  tools.ticketsReply,
  tools.customersLookup,
  tools.incidentDeclare,
];

export const profiles: Record<string, { version: string; tools: ToolRegistration[] }> = {
  /** The release in production: five tools with honest annotations. */
  baseline: { version: '1.4.0', tools: baseline },
  /** Drops `severity` from Incident.Declare and adds a destructive Deployments.Rollback. Must Rollback. */
  candidate: {
    version: '1.5.0',
    tools: [...baseline.filter((t) => t !== tools.incidentDeclare), tools.incidentDeclareAutoTriage, tools.deploymentsRollback],
  },
  /** Adds one read-only tool and changes nothing else. Must Promote. */
  'candidate-safe': { version: '1.4.1', tools: [...baseline, tools.runbooksSearch] },
};
