import { referencedVariables } from '../references.js';
import { dotted, type Problem } from './problems.js';
import { DEFAULTS, type Profile } from './types.js';

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
    for (const key of ['args', 'cwd', 'env', 'readyTimeoutMs']) {
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
    url = new URL(template.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '1'));
  } catch {
    return 'is not a valid URL; expected e.g. http://127.0.0.1:8808/mcp';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http:// or https:// URL, not ${url.protocol}`;
  return null;
}

/** `${VAR}` references in a remote profile's url and headers that `env` does not set, with their lines. */
function unresolvedReferences(name: string, raw: RawProfile, env: NodeJS.ProcessEnv, lineOf: LineOf, file: string): Problem[] {
  const problems: Problem[] = [];
  const check = (segments: string[], value: string, what: string) => {
    const missing = referencedVariables(value).filter((v) => env[v] === undefined);
    if (!missing.length) return;
    problems.push({
      file,
      line: lineOf(segments),
      path: dotted(segments),
      message: `${what} of profile "${name}" refers to ${missing.map((v) => `\${${v}}`).join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not set in the environment; set ${missing.join(', ')} before running the gate`,
    });
  };
  if (typeof raw.url === 'string') check(['profiles', name, 'url'], raw.url, 'the url');
  for (const [header, value] of Object.entries((raw.headers ?? {}) as Record<string, string>)) {
    check(['profiles', name, 'headers', header], value, `header "${header}"`);
  }
  return problems;
}

/** One raw profile (already valid against the schema) as the typed profile the pipeline uses. */
export function normaliseProfile(
  name: string,
  raw: RawProfile,
  at: (path: string) => string,
  env: NodeJS.ProcessEnv,
  lineOf: LineOf,
  file: string,
): Profile {
  const transport = transportOf(raw);
  const launch = () => ({
    command: raw.command as string,
    args: (raw.args as string[] | undefined) ?? [],
    cwd: at((raw.cwd as string | undefined) ?? '.'),
    env: (raw.env as Record<string, string> | undefined) ?? {},
  });
  if (transport === 'snapshot') return { name, transport: 'snapshot', path: at(raw.path as string), allowSideEffects: false };
  if (transport === 'http' || transport === 'sse') {
    return {
      name,
      transport,
      url: raw.url as string,
      headers: (raw.headers as Record<string, string> | undefined) ?? {},
      launch: raw.command === undefined ? null : launch(),
      readyTimeoutMs: (raw.readyTimeoutMs as number | undefined) ?? DEFAULTS.readyTimeoutMs,
      unresolved: unresolvedReferences(name, raw, env, lineOf, file),
      allowSideEffects: raw.allowSideEffects === true,
    };
  }
  return { name, transport: 'stdio', ...launch(), allowSideEffects: raw.allowSideEffects === true };
}
