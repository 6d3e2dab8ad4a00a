/**
 * `MCPGATE_` environment overrides. `__` separates levels; each segment is SCREAMING_SNAKE and maps
 * to the camelCase key, except under `promotion.rules` (kebab-case codes) and `profiles` (matched to
 * an existing profile name). Values are read as YAML scalars, so `1` is a number and `true` a boolean.
 */
import { parseSource } from '../input/source.js';

const TOP_LEVEL = new Set([
  'profiles',
  'baseline',
  'candidate',
  'datasets',
  'reports',
  'timeouts',
  'limits',
  'cases',
  'audit',
  'promotion',
  'bundle',
]);
const PREFIX = 'MCPGATE_';

const camel = (segment: string) => segment.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const kebab = (segment: string) => segment.toLowerCase().replace(/_/g, '-');
const loose = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

export interface Override {
  variable: string;
  path: string[];
  value: unknown;
}

export function envOverrides(env: NodeJS.ProcessEnv, config: Record<string, unknown>): Override[] {
  const overrides: Override[] = [];
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(PREFIX)) continue;
    const raw = variable.slice(PREFIX.length).split('__');
    const first = camel(raw[0] ?? '');
    if (!TOP_LEVEL.has(first)) continue; // other MCPGATE_ variables are the user's own, e.g. for ${VAR} in env
    const path = [first];
    for (const segment of raw.slice(1)) {
      const parent = path.join('.');
      if (parent === 'promotion.rules') path.push(kebab(segment));
      else if (parent === 'profiles') {
        const profiles = (config.profiles ?? {}) as Record<string, unknown>;
        path.push(Object.keys(profiles).find((name) => loose(name) === loose(segment)) ?? camel(segment));
      } else path.push(camel(segment));
    }
    overrides.push({ variable, path, value: parseValue(env[variable] ?? '') });
  }
  return overrides;
}

/** Read as the config file's values are (one reader, the same limits); text that is not a value stays text. */
function parseValue(text: string): unknown {
  const parsed = parseSource(text, 'environment');
  return parsed.ok && parsed.source.value !== null ? parsed.source.value : text;
}

export function applyOverride(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
