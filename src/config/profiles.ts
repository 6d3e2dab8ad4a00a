import { expandReferences, referencedVariables, withPlaceholders } from '../base/references.js';
import { dotted, type Problem } from '../base/problems.js';
import { DEFAULTS, type Isolation, type Profile } from './types.js';

type RawProfile = Record<string, unknown>;
type LineOf = (path: (string | number)[]) => number | null;

const REMOTE = ['http', 'sse'];
const transportOf = (raw: RawProfile): string => (typeof raw.transport === 'string' ? raw.transport : 'stdio');

/** Keys that only make sense for some transports, and which ones. */
const ONLY_FOR: Record<string, { transports: string[]; label: string }> = {
  url: { transports: REMOTE, label: 'http and sse profiles' },
  headers: { transports: REMOTE, label: 'http and sse profiles' },
  readyTimeoutMs: { transports: REMOTE, label: 'http and sse profiles that start their server with `command`' },
  path: { transports: ['snapshot'], label: 'snapshot profiles' },
  command: { transports: ['stdio', ...REMOTE], label: 'stdio profiles and http/sse profiles that start their server' },
  args: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command`' },
  cwd: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command`' },
  env: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command`' },
  tmpdir: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command`' },
  home: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command`' },
  secrets: { transports: ['stdio', ...REMOTE], label: 'live profiles' },
  git: { transports: ['stdio', ...REMOTE], label: 'profiles with a `command` (a snapshot reads a ref with path: git:REF:FILE)' },
  fallback: { transports: ['stdio', ...REMOTE], label: 'live profiles' },
};

const NEEDS: Record<string, string> = {
  url: "needs the server's endpoint, e.g. url: http://127.0.0.1:8808/mcp",
  command: 'needs the executable to start (or set `transport: http` with a `url`, or `transport: snapshot` with a `path`)',
  path: 'needs the contract snapshot file, e.g. path: contracts/baseline.contract.json',
};

/** Schema messages on a profile's transport-specific keys, told with why and what to write. */
export function explainProfileProblem(problem: Problem, profiles: Record<string, RawProfile>): Problem {
  if (/^profiles\.[^.]+\.url$/.test(problem.path) && problem.message.startsWith('must match')) {
    return {
      ...problem,
      message: `must be an http:// or https:// URL, e.g. http://127.0.0.1:8808/mcp${problem.message.slice(problem.message.indexOf(', found'))}`,
    };
  }
  const match = /^profiles\.([A-Za-z_$][\w$-]*)\.(url|command|path)$/.exec(problem.path);
  const raw = match ? profiles[match[1]!] : undefined;
  if (!match || raw === null || typeof raw !== 'object' || problem.message !== 'is required but missing') return problem;
  const transport = transportOf(raw);
  return {
    ...problem,
    message: `is required but missing: ${transport === 'http' || transport === 'sse' ? 'an' : 'a'} ${transport} profile ${NEEDS[match[2]!]}`,
  };
}

/**
 * Cross-field rules for one profile, beyond what the schema says: keys that do not apply to its
 * transport, launch keys without a `command`, and a url that does not parse.
 */
export function profileProblems(name: string, raw: RawProfile, lineOf: LineOf, file: string): Problem[] {
  const problems: Problem[] = [];
  const transport = transportOf(raw);
  const at = (key: string) => ['profiles', name, key];
  const problem = (key: string, message: string) => problems.push({ file, line: lineOf(at(key)), path: dotted(at(key)), message });
  for (const [key, rule] of Object.entries(ONLY_FOR)) {
    if (raw[key] !== undefined && !rule.transports.includes(transport)) {
      problem(
        key,
        `applies only to ${rule.label}; this profile is ${transport === 'stdio' && raw.transport === undefined ? 'stdio (the default transport)' : transport}`,
      );
    }
  }
  if (REMOTE.includes(transport) && raw.command === undefined) {
    for (const key of ['args', 'cwd', 'env', 'readyTimeoutMs', 'tmpdir', 'home', 'git']) {
      if (raw[key] !== undefined)
        problem(
          key,
          `only applies when the profile starts its own server; add \`command\` (and \`args\`) to start it, or remove \`${key}\``,
        );
    }
  }
  // A url that is not http(s) at all is the schema's problem (explainProfileProblem words it).
  if (REMOTE.includes(transport) && typeof raw.url === 'string' && /^https?:\/\//.test(raw.url)) {
    const reason = urlProblem(raw.url);
    if (reason) problem('url', reason);
  }
  return problems;
}

/** A url is checked with every `${VAR}` stood in for by a placeholder, since the value is read only at run time. */
function urlProblem(template: string): string | null {
  let url: URL;
  try {
    // "1" fits anywhere a variable may stand: a host, a port, a path segment.
    url = new URL(withPlaceholders(template, '1'));
  } catch {
    return 'is not a valid URL; expected e.g. http://127.0.0.1:8808/mcp';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http:// or https:// URL, not ${url.protocol}`;
  return null;
}

/** Where a field of a profile was written: the gate config, or the client config its `from` named. */
export type Locate = (field: (string | number)[]) => { file: string; line: number | null; path: string };

/** The fields of a profile that hold text a server is started or reached with, and so may hold `${VAR}`. */
const TEXT_FIELDS = ['command', 'args', 'cwd', 'env', 'url', 'headers'] as const;

const what = (field: (string | number)[]): string => {
  const [key, inner] = field;
  if (key === 'headers') return `header "${inner}"`;
  if (key === 'env') return `env ${inner}`;
  if (key === 'args') return `args[${inner}]`;
  return `the ${key}`;
};

/**
 * Every `${VAR}` reference in a profile's command, args, cwd, env, url and headers that `env` does
 * not set, one problem per field, at the line where the field was written.
 */
export function unresolvedReferences(name: string, raw: RawProfile, env: NodeJS.ProcessEnv, locate: Locate): Problem[] {
  const problems: Problem[] = [];
  const check = (field: (string | number)[], value: unknown) => {
    if (typeof value !== 'string') return;
    const missing = referencedVariables(value).filter((v) => env[v] === undefined);
    if (!missing.length) return;
    problems.push({
      ...locate(field),
      message: `${what(field)} of profile "${name}" refers to ${missing.map((v) => `\${${v}}`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not set in the environment; set ${missing.join(', ')} before running the gate`,
    });
  };
  for (const key of TEXT_FIELDS) {
    const value = raw[key];
    if (Array.isArray(value)) value.forEach((item, i) => check([key, i], item));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) check([key, k], v);
    else check([key], value);
  }
  return problems;
}

function isolationOf(raw: RawProfile): Isolation {
  const home = raw.home;
  return {
    tmpdir: raw.tmpdir === 'shared' ? 'shared' : 'own',
    home:
      home === 'isolated'
        ? { isolated: true, link: [], copy: [] }
        : home !== null && typeof home === 'object'
          ? { isolated: true, link: (home as { link?: string[] }).link ?? [], copy: (home as { copy?: string[] }).copy ?? [] }
          : { isolated: false },
  };
}

/** One raw profile (already valid against the schema) as the typed profile the pipeline uses. */
export function normaliseProfile(
  name: string,
  raw: RawProfile,
  at: (path: string) => string,
  env: NodeJS.ProcessEnv,
  locate: Locate,
): Profile {
  const transport = transportOf(raw);
  const unresolved = unresolvedReferences(name, raw, env, locate);
  const secrets = (raw.secrets as string[] | undefined) ?? [];
  const launch = () => ({
    command: raw.command as string,
    args: (raw.args as string[] | undefined) ?? [],
    // A folder is expanded now, so it resolves against this file like any relative cwd.
    cwd: at(expandReferences((raw.cwd as string | undefined) ?? '.', env).value || '.'),
    env: (raw.env as Record<string, string> | undefined) ?? {},
    isolation: isolationOf(raw),
  });
  if (transport === 'snapshot') {
    const atRef = gitPath(raw.path as string);
    return atRef
      ? { name, transport: 'snapshot', path: raw.path as string, git: atRef, allowSideEffects: false }
      : { name, transport: 'snapshot', path: at(raw.path as string), allowSideEffects: false };
  }
  const git = raw.git as { ref?: string; build?: string } | undefined;
  const source = git ? { git: { ref: git.ref ?? null, build: git.build ?? null } } : {};
  const fallback = raw.fallback === 'last-report' || raw.fallback === 'empty' ? { fallback: raw.fallback as 'last-report' | 'empty' } : {};
  if (transport === 'http' || transport === 'sse') {
    return {
      name,
      transport,
      url: raw.url as string,
      headers: (raw.headers as Record<string, string> | undefined) ?? {},
      launch: raw.command === undefined ? null : launch(),
      ...source,
      ...fallback,
      readyTimeoutMs: (raw.readyTimeoutMs as number | undefined) ?? DEFAULTS.readyTimeoutMs,
      unresolved,
      secrets,
      allowSideEffects: raw.allowSideEffects === true,
      safeTools: (raw.safeTools as string[] | undefined) ?? [],
    };
  }
  return {
    name,
    transport: 'stdio',
    ...launch(),
    ...source,
    ...fallback,
    secrets,
    unresolved,
    allowSideEffects: raw.allowSideEffects === true,
    safeTools: (raw.safeTools as string[] | undefined) ?? [],
  };
}

/** `git:REF:FILE`, a snapshot read from a git ref (FILE from the top of the clone); null for a plain path. */
export function gitPath(path: string): { ref: string; file: string } | null {
  const match = /^git:([^:\s]+):(.+)$/.exec(path);
  return match ? { ref: match[1]!, file: match[2]! } : null;
}
