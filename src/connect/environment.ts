import type { ServerLaunch, StdioProfile } from '../config/types.js';
import { expandReferences } from '../base/references.js';
import type { SideDirs } from './side-dirs.js';

/**
 * The environment a server sees is explicit: a small safe set from the gate's own environment,
 * the side's own TMPDIR (and HOME, when isolated), plus the profile's `env`. Nothing else leaks
 * through, so a candidate from a pull request never sees CI tokens it was not given.
 */
const SAFE_KEYS = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'SYSTEMROOT', 'WINDIR'];

export function serverEnvironment(
  profileEnv: Record<string, string>,
  source: NodeJS.ProcessEnv,
  dirs: SideDirs | null = null,
): { env: NodeJS.ProcessEnv; missing: string[] } {
  const env: NodeJS.ProcessEnv = {};
  for (const key of SAFE_KEYS) if (source[key] !== undefined) env[key] = source[key];
  // The side's own folders, unless the profile sets these variables itself.
  Object.assign(env, dirs?.env());
  const missing: string[] = [];
  for (const [key, raw] of Object.entries(profileEnv)) {
    const expanded = expandReferences(raw, source);
    env[key] = expanded.value;
    missing.push(...expanded.missing);
  }
  return { env, missing };
}

/** What a server is spawned with: command and args with `${VAR}` expanded, and its environment. */
export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The gate's own environment, which the launch was expanded from: it decides how the server is contained (containment.ts). */
  gateEnv: NodeJS.ProcessEnv;
}

/**
 * A stdio profile's (or a started HTTP server's) launch, expanded; `missing` names the variables it
 * refers to that are unset (the config loader has already said where, in `unresolved`).
 */
export function launchSpecOf(
  launch: StdioProfile | ServerLaunch,
  source: NodeJS.ProcessEnv,
  dirs: SideDirs | null,
): { spec: LaunchSpec; missing: string[] } {
  const { env, missing } = serverEnvironment(launch.env, source, dirs);
  const [command, ...args] = [launch.command, ...launch.args].map((text) => {
    const expanded = expandReferences(text, source);
    missing.push(...expanded.missing);
    return expanded.value;
  });
  return { spec: { command: command!, args, cwd: launch.cwd, env, gateEnv: source }, missing: [...new Set(missing)] };
}
