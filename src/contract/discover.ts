import type { Limits } from '../config/types.js';
import type { Session } from '../connect/session.js';
import { SideUnavailableError } from '../connect/errors.js';
import { buildContract } from './normalize.js';
import type { Contract, DiscoveryProblem } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads every `tools/list` page. The SDK's listTools() neither follows cursors nor tolerates real
 * servers' schemas, so this sends the raw request, follows `nextCursor` itself with a page limit and
 * a loop guard, and turns every deviation into a problem. A page that cannot be read at all makes
 * the side unavailable: an unreadable surface is never "zero tools".
 */
export async function discover(session: Session, limits: Limits): Promise<Contract> {
  const started = performance.now();
  const problems: DiscoveryProblem[] = [];
  const rawTools: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;

  for (;;) {
    if (pages >= limits.maxPages) {
      problems.push({ tool: null, message: `tools/list still had more pages after limits.maxPages (${limits.maxPages}); the rest were not read.` });
      break;
    }
    const { result } = await session.request('tools/list', 'tools/list', cursor === undefined ? {} : { cursor });
    pages += 1;
    if (!isObject(result) || !Array.isArray(result.tools)) {
      throw new SideUnavailableError(session.side, 'tools/list', `tools/list page ${pages} has no "tools" array`, session.stderrTail);
    }
    const room = limits.maxTools - rawTools.length;
    if (result.tools.length > room) {
      rawTools.push(...result.tools.slice(0, room));
      problems.push({ tool: null, message: `the server lists more than limits.maxTools (${limits.maxTools}) tools; the rest were not read.` });
      break;
    }
    rawTools.push(...result.tools);
    const next = result.nextCursor;
    if (next === undefined || next === null) break;
    if (typeof next !== 'string') {
      problems.push({ tool: null, message: `tools/list page ${pages}: nextCursor is ${typeof next}, expected a string; stopped paging.` });
      break;
    }
    if (cursors.has(next)) {
      problems.push({ tool: null, message: `tools/list page ${pages} repeats cursor ${JSON.stringify(next.slice(0, 80))}: a cursor loop; stopped paging.` });
      break;
    }
    cursors.add(next);
    cursor = next;
  }

  const noise = session.stdoutNoise;
  if (noise.lines > 0) {
    problems.push({ tool: null, message: `the server wrote ${noise.lines} non-JSON-RPC line(s) to stdout, e.g. ${JSON.stringify(noise.samples[0])}` });
  }
  return buildContract(session.identity(), rawTools, {
    pages,
    durationMs: Math.round(performance.now() - started),
    errors: problems,
  });
}
