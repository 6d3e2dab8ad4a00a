import type { Signal } from '../decide/signals.js';
import type { Collision } from '../report/bundle-summary.js';

export interface ServerTools {
  name: string;
  baseline: string[];
  candidate: string[];
}

/**
 * Tool names that two or more candidates expose. An agent connected to the whole bundle sees them
 * as one name, so which server answers depends on the client. As with role leaks and the audit,
 * a collision the baselines already had is reported but not judged: the bundle holds for new ones.
 */
export function collisions(servers: ServerTools[]): Collision[] {
  const owners = (side: 'baseline' | 'candidate') => {
    const map = new Map<string, string[]>();
    for (const server of servers) for (const tool of new Set(server[side])) map.set(tool, [...(map.get(tool) ?? []), server.name]);
    return map;
  };
  const before = owners('baseline');
  return [...owners('candidate')]
    .filter(([, names]) => names.length > 1)
    .map(([tool, names]) => ({
      tool,
      servers: [...names].sort(),
      regression: names.filter((n) => before.get(tool)?.includes(n)).length < 2,
    }))
    .sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

export const collisionSignals = (found: Collision[]): Signal[] =>
  found
    .filter((c) => c.regression)
    .map((c) => ({
      code: 'cross-server-name-collision',
      tool: c.tool,
      fingerprint: null,
      message: `${c.tool} is exposed by ${c.servers.join(', ')}`,
    }));
