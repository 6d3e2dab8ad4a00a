import type { Limits } from '../config/types.js';
import type { Phase } from '../connect/errors.js';
import type { RawCallResult, Session } from '../connect/session.js';
import { SideUnavailableError } from '../connect/errors.js';
import { contractBuilder } from './normalize.js';
import { buildFeatures, slimFeatureEntry } from './features.js';
import type { Contract, DiscoveryProblem } from './types.js';
import { isObject } from '../base/json-object.js';

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** The array each list method's result carries its items in. */
const ITEMS: Record<ListMethod, string> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

/**
 * Reads a server's whole contract: every `tools/list` page, then, for each capability it declared,
 * every page of `prompts/list`, `resources/list` and `resources/templates/list`. The SDK's list
 * helpers neither follow cursors nor tolerate real servers' payloads, so this sends the raw
 * requests, follows `nextCursor` itself with a page limit and a loop guard, and turns every
 * deviation into a problem. A tools page that cannot be read makes the side unavailable (an
 * unreadable tool list is never "zero tools"); another list that cannot be read is a problem, and
 * that list is unknown, never empty.
 */
export async function discover(session: Session, limits: Limits): Promise<Contract> {
  const started = performance.now();
  const problems: DiscoveryProblem[] = [];
  const contract = contractBuilder();
  const pages = await readList(session, 'tools/list', limits, problems, (items) => contract.add(items));

  const capabilities = session.capabilities();
  // The other lists, each with its own problems, told in a fixed order.
  const optional = async (method: ListMethod, declared: boolean): Promise<{ items: unknown[] | null; problems: DiscoveryProblem[] }> => {
    const own: DiscoveryProblem[] = [];
    if (!declared) return { items: [], problems: own };
    const items: unknown[] = [];
    try {
      // Each page slimmed as it arrives: the raw page, however fat, is not kept (docs/security.md,
      // "Memory is bounded").
      await readList(session, method, limits, own, (page) => items.push(...page.map(slimFeatureEntry)));
      return { items, problems: own };
    } catch (error) {
      // A server that died takes the whole side with it; one list that fails is that list's problem.
      if (!session.alive || !(error instanceof SideUnavailableError)) throw error;
      own.push({
        tool: null,
        message: `the server declares the ${capabilityOf(method)} capability, but ${method} failed: ${error.message}`,
        method,
        ...(error.rpcCode !== undefined && !error.timedOut && { code: error.rpcCode }),
      });
      return { items: null, problems: own };
    }
  };
  // One list after another: pages in flight at once are what a server's fat pages cost (docs/security.md).
  const prompts = await optional('prompts/list', isObject(capabilities.prompts));
  const resources = await optional('resources/list', isObject(capabilities.resources));
  const resourceTemplates = await optional('resources/templates/list', isObject(capabilities.resources));
  problems.push(...prompts.problems, ...resources.problems, ...resourceTemplates.problems);

  const noise = session.stdoutNoise;
  if (noise.lines > 0) {
    problems.push({
      tool: null,
      message: `the server wrote ${noise.lines} non-JSON-RPC line(s) to stdout, e.g. ${JSON.stringify(noise.samples[0])}`,
    });
  }
  const features = buildFeatures(
    { capabilities, prompts: prompts.items, resources: resources.items, resourceTemplates: resourceTemplates.items },
    problems,
  );
  const finished = contract.finish(session.identity(), { pages, durationMs: Math.round(performance.now() - started), errors: problems });
  return { ...finished, features };
}

const capabilityOf = (method: ListMethod): string => method.split('/')[0]!;

/**
 * Reads every page of one list, handing each page's items to `onPage`, and returns the number of
 * pages. At most `limits.maxPages` pages and `limits.maxTools` items are read; past either, a problem
 * says what was not read. A page without its items array is thrown as SideUnavailableError.
 */
async function readList(
  session: Session,
  method: ListMethod,
  limits: Limits,
  problems: DiscoveryProblem[],
  onPage: (items: unknown[]) => void,
): Promise<number> {
  const key = ITEMS[method];
  const phase: Phase = method;
  const cursors = new Set<string>();
  let listed = 0;
  let pages = 0;
  let page: Promise<RawCallResult> | null = session.request(phase, method, {});

  while (page) {
    const { result } = await page;
    page = null;
    pages += 1;
    const items = isObject(result) ? result[key] : undefined;
    if (!Array.isArray(items)) {
      throw new SideUnavailableError(session.side, phase, `${method} page ${pages} has no "${key}" array`, session.stderrTail);
    }
    const room = limits.maxTools - listed;
    if (items.length > room) {
      onPage(items.slice(0, room));
      const what = method === 'tools/list' ? 'the server lists' : `${method} lists`;
      problems.push({ tool: null, message: `${what} more than limits.maxTools (${limits.maxTools}) ${key}; the rest were not read.` });
      break;
    }
    listed += items.length;
    const next = nextCursor(method, (result as Record<string, unknown>).nextCursor, pages, cursors, problems);
    if (next !== null) {
      if (pages >= limits.maxPages) {
        problems.push({
          tool: null,
          message: `${method} still had more pages after limits.maxPages (${limits.maxPages}); the rest were not read.`,
        });
      } else {
        cursors.add(next);
        // Ask for the next page first, then normalise this one while the server prepares it.
        page = session.request(phase, method, { cursor: next });
      }
    }
    onPage(items);
  }
  return pages;
}

/** The page's nextCursor when paging should go on; null at the end, or (with a problem) when it cannot. */
function nextCursor(method: ListMethod, next: unknown, pages: number, seen: Set<string>, problems: DiscoveryProblem[]): string | null {
  if (next === undefined || next === null) return null;
  if (typeof next !== 'string') {
    problems.push({ tool: null, message: `${method} page ${pages}: nextCursor is ${typeof next}, expected a string; stopped paging.` });
    return null;
  }
  if (seen.has(next)) {
    problems.push({
      tool: null,
      message: `${method} page ${pages} repeats cursor ${JSON.stringify(next.slice(0, 80))}: a cursor loop; stopped paging.`,
    });
    return null;
  }
  return next;
}
