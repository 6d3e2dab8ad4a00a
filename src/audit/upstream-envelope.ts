import { isObject } from '../base/json-object.js';
import { resultData } from '../base/result-data.js';
import type { Observation } from '../cases/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';

/**
 * A result that is the upstream REST answer passed through: an envelope inside an envelope,
 * `{"data": {"data": [...], "meta": ...}}`, as the write-ups' handler returned `{ data, resultCount }`
 * around the API's own `{data, meta}`. "An MCP server is a context translator, not a protocol
 * translator": the model reads the API's paging fields instead of the items and the way on.
 */
export function upstreamEnvelope(o: Observation, side: Side): Finding[] {
  if (o.kind === 'resource' || !isObject(o.result) || o.result.isError === true) return [];
  const data = resultData(o.result);
  if (!isObject(data) || !isObject(data.data) || !Array.isArray(data.data.data)) return [];
  const beside = Object.keys(data.data).filter((k) => k !== 'data');
  return [finding('result-upstream-envelope', { beside }, { side, subject: onTool(o.tool), caseId: o.caseId, path: '/data/data' })];
}
