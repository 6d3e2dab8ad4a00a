import { isObject } from '../base/json-object.js';
import type { Observation } from '../cases/types.js';
import { CLIENT_PROFILES, type ClientName, type ClientProfile } from '../config/clients.js';
import { schemaSize } from '../contract/schema-work.js';
import type { ContractTool } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';
import { ValidatorFailure, validationFailures, type ValidationFailure } from './schema-check.js';

/**
 * Live results a named client refuses where the gate's own checks see nothing wrong: an error
 * result (`isError: true`) whose structuredContent fails the tool's outputSchema, for clients that
 * check an error's structuredContent as they check a success's (docs/releases.md, "Client
 * profiles"). The spec asks a conforming result only of a success, so `structured-content-invalid`
 * leaves errors alone; these clients throw "Structured content does not match the tool's output
 * schema" instead, and the caller never sees the tool's own error. A success that fails the schema
 * is `structured-content-invalid` already, which every client refuses.
 */
export function clientResultFindings(
  o: Observation,
  tool: ContractTool | undefined,
  side: Side,
  clients: readonly ClientName[],
  schemaNodesPerTool: number,
): Finding[] {
  const checking = [...new Set(clients)].sort().filter((c) => (CLIENT_PROFILES[c] as ClientProfile).checksErrorResults);
  if (!checking.length || o.kind === 'resource' || !isObject(o.result) || o.result.isError !== true) return [];
  const structured = o.result.structuredContent;
  // These clients test it for truth (`if (result.structuredContent)`): null, 0, false and "" pass.
  if (!structured || !tool?.outputSchema || schemaSize(tool.outputSchema) > schemaNodesPerTool) return [];
  const failures = failuresOf(tool, structured);
  if (!failures.length) return [];
  const first = failures[0]!;
  return checking.map((client) =>
    finding(
      'client-rejects-result',
      { label: CLIENT_PROFILES[client].label, client, failures: failures.map((f) => f.message) },
      { side, subject: onTool(o.tool), caseId: o.caseId, client, path: `/structuredContent${first.path}`, keyword: first.keyword },
    ),
  );
}

/** The structuredContent's failures against the outputSchema; none when the validator cannot judge it. */
function failuresOf(tool: ContractTool, structured: unknown): ValidationFailure[] {
  try {
    return validationFailures(tool.outputSchema!, structured);
  } catch (error) {
    if (error instanceof ValidatorFailure) return [];
    throw error;
  }
}
