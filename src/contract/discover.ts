import type { Limits } from '../config/types.js';
import type { RawCallResult, Session } from '../connect/session.js';
import { SideUnavailableError } from '../connect/errors.js';
import { contractBuilder } from './normalize.js';
import type { Contract, DiscoveryProblem } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads every `tools/list` page. The SDK's listTools() neither follows cursors nor tolerates real
 * servers' schemas, so this sends the raw request, follows `nextCursor` itself with a page limit and
 * a loop guard, and turns every deviation into a problem. A page that cannot be read at all makes
 * the side unavailable: an unreadable surface is never "zero tools".
 */
export async function discover(session: Session, limits: Limits): Promise<Contract> {
  const started = performance.now();
  const problems: DiscoveryProblem[] = [];
  const contract = contractBuilder();
  const cursors = new Set<string>();
  let listed = 0;
  let pages = 0;
  let page: Promise<RawCallResult> | null = session.request('tools/list', 'tools/list', {});

  while (page) {
    const { result } = await page;
    page = null;
    pages += 1;
    if (!isObject(result) || !Array.isArray(result.tools)) {
      throw new SideUnavailableError(session.side, 'tools/list', `tools/list page ${pages} has no "tools" array`, session.stderrTail);
    }
    const room = limits.maxTools - listed;
    if (result.tools.length > room) {
      contract.add(result.tools.slice(0, room));
      problems.push({
        tool: null,
        message: `the server lists more than limits.maxTools (${limits.maxTools}) tools; the rest were not read.`,
      });
      break;
    }
    listed += result.tools.length;
    const next = nextCursor(result.nextCursor, pages, cursors, problems);
    if (next !== null) {
      if (pages >= limits.maxPages) {
        problems.push({
          tool: null,
          message: `tools/list still had more pages after limits.maxPages (${limits.maxPages}); the rest were not read.`,
        });
      } else {
        cursors.add(next);
        // Ask for the next page first, then normalise this one while the server prepares it.
        page = session.request('tools/list', 'tools/list', { cursor: next });
      }
    }
    contract.add(result.tools);
  }

  const noise = session.stdoutNoise;
  if (noise.lines > 0) {
    problems.push({
      tool: null,
      message: `the server wrote ${noise.lines} non-JSON-RPC line(s) to stdout, e.g. ${JSON.stringify(noise.samples[0])}`,
    });
  }
  return contract.finish(session.identity(), {
    pages,
    durationMs: Math.round(performance.now() - started),
    errors: problems,
  });
}

/** The page's nextCursor when paging should go on; null at the end, or (with a problem) when it cannot. */
function nextCursor(next: unknown, pages: number, seen: Set<string>, problems: DiscoveryProblem[]): string | null {
  if (next === undefined || next === null) return null;
  if (typeof next !== 'string') {
    problems.push({ tool: null, message: `tools/list page ${pages}: nextCursor is ${typeof next}, expected a string; stopped paging.` });
    return null;
  }
  if (seen.has(next)) {
    problems.push({
      tool: null,
      message: `tools/list page ${pages} repeats cursor ${JSON.stringify(next.slice(0, 80))}: a cursor loop; stopped paging.`,
    });
    return null;
  }
  return next;
}
