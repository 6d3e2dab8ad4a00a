/** Which tools each profile serves. A profile is one release of the Support Ops server. */
import * as tools from './tools.js';
import type { ToolRegistration } from './tools.js';
import * as audit from './audit-tools.js';

const swap = (from: ToolRegistration, to: ToolRegistration) => baseline.map((t) => (t === from ? to : t));

const baseline: ToolRegistration[] = [
  tools.ticketsSearch,
  tools.ticketsGet,
  tools.ticketsReply,
  tools.customersLookup,
  tools.incidentDeclare,
];

/** A release: its tools, and (when it changes it) the URI template of its ticket resource (surface.ts). */
export const profiles: Record<string, { version: string; tools: ToolRegistration[]; ticketTemplate?: string }> = {
  /** The release in production: five tools with honest annotations. */
  baseline: { version: '1.4.0', tools: baseline },
  /** Drops `severity` from Incident.Declare and adds a destructive Deployments.Rollback. Must Rollback. */
  candidate: {
    version: '1.5.0',
    tools: [...baseline.filter((t) => t !== tools.incidentDeclare), tools.incidentDeclareAutoTriage, tools.deploymentsRollback],
  },
  /** Renames the ticket template's variable ({ticketId} -> {id}), and changes nothing else. Must Rollback. */
  'candidate-template': { version: '1.4.2', tools: baseline, ticketTemplate: 'support-ops://tickets/{id}' },
  /** Adds one read-only tool and changes nothing else. Must Promote. */
  'candidate-safe': { version: '1.4.1', tools: [...baseline, tools.runbooksSearch] },

  // Releases for the model-seat audit (examples/support-ops/audit.config.yaml): one fault each.
  'audit-hidden-pagination': { version: '1.6.0-a', tools: swap(tools.ticketsSearch, audit.ticketsSearchHiddenPage) },
  'audit-unflagged-error': { version: '1.6.0-b', tools: swap(tools.customersLookup, audit.customersLookupUnflagged) },
  'audit-mistyped-output': { version: '1.6.0-c', tools: swap(tools.ticketsGet, audit.ticketsGetMistyped) },
  'audit-bloated-result': { version: '1.6.0-d', tools: swap(tools.ticketsSearch, audit.ticketsSearchBloated) },
  /** Fixes all four: the next-page hint in text, errors flagged, a matching schema, a compact projection. */
  'audit-fixed': {
    version: '1.6.1',
    tools: swap(tools.ticketsSearch, audit.ticketsSearchPaged).map((t) => (t === tools.ticketsGet ? audit.ticketsGetTyped : t)),
  },
};
