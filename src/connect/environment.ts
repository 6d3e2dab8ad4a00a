import { expandReferences } from '../references.js';

/**
 * The environment a server sees is explicit: a small safe set from the gate's own environment,
 * plus the profile's `env`. Nothing else leaks through, so a candidate from a pull request never
 * sees CI tokens it was not given.
 */
const SAFE_KEYS = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'SYSTEMROOT', 'WINDIR'];

export function serverEnvironment(
  profileEnv: Record<string, string>,
  source: NodeJS.ProcessEnv,
): { env: NodeJS.ProcessEnv; missing: string[] } {
  const env: NodeJS.ProcessEnv = {};
  for (const key of SAFE_KEYS) if (source[key] !== undefined) env[key] = source[key];
  const missing: string[] = [];
  for (const [key, raw] of Object.entries(profileEnv)) {
    const expanded = expandReferences(raw, source);
    env[key] = expanded.value;
    missing.push(...expanded.missing);
  }
  return { env, missing };
}
