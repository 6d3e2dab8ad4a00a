import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { resolveClientProfiles, type ClientOrigin } from './client-config.js';
import type { Action } from '../findings/codes.js';
import { applyOverride, envOverrides, type Override } from './env.js';
import { InputError, dotted, type Problem } from '../base/problems.js';
import { explainProfileProblem, normaliseProfile, type Locate } from './profiles.js';
import { readSource } from '../input/source.js';
import type { RawConfig } from './definition.js';
import {
  applyRenamedKeys,
  bundleProblems,
  missingDatasets,
  renamedKeyProblems,
  semanticProblems,
  serverConfig,
  type PairConfig,
} from './rules.js';
import { DEFAULTS, type Exception, type GateConfig, type Profile } from './types.js';
import { validateAgainst } from '../input/validate.js';
import { expandReferences, referencedVariables } from '../base/references.js';
import { isSecretHeader, isSecretValue, registerSecret, secretReferences, urlSecretReferences } from '../base/secrets.js';
import { isObject } from '../base/json-object.js';

/** Flags that override the file and the environment. */
export interface ConfigFlags {
  baseline?: string;
  candidate?: string;
  datasets?: string[];
  reportDir?: string;
}

/**
 * The config pipeline: parse (keeping lines), apply env overrides, apply flags, validate against
 * schemas/gate.config.schema.json, check cross-field rules, normalise. Every problem is collected
 * and thrown together as an InputError.
 */
export function loadConfig(file: string, env: NodeJS.ProcessEnv, flags: ConfigFlags = {}, cwd = process.cwd()): GateConfig {
  const absolute = resolve(cwd, file);
  const display = relative(cwd, absolute) || file;
  const { source, raw, overrides } = readRaw(absolute, display, env, flags, cwd);
  const blame = blamer(overrides, flags);
  // A profile's `from` becomes the keys of the client config entry it names, before anything reads profiles.
  const client = resolveClientProfiles(raw, dirname(absolute), env, source.lineOf, display, cwd);
  if (client.problems.length) throw new InputError(client.problems);
  registerProfileSecrets(raw.profiles, env); // before validation: even a message about a bad file is redacted
  for (const server of Object.values(isObject(raw.servers) ? raw.servers : {}))
    registerProfileSecrets(isObject(server) ? server.profiles : null, env);
  const profiles = (isObject(raw.profiles) ? raw.profiles : {}) as Record<string, Record<string, unknown>>;
  // Schema errors and cross-field errors (a baseline naming no profile) are reported together;
  // the cross-field rules look only at values of the right type, so a wrong type is said once.
  const schema = validateAgainst('gate.config.schema.json', { ...source, value: raw }).map((p) => explainProfileProblem(p, profiles));
  const config = raw as RawConfig;
  const rules =
    config.servers !== undefined ? bundleProblems(config, source.lineOf, display) : semanticProblems(config, source.lineOf, display);
  // Datasets named in the file are looked for now, so a missing one is told at its config line.
  const missing = flags.datasets?.length ? [] : missingDatasets(raw, dirname(absolute), source.lineOf, display, cwd);
  const problems = [...schema, ...rules, ...renamedKeyProblems(raw, source.lineOf, display), ...missing].map(blame);
  if (problems.length) throw new InputError(problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity)));
  const notes = applyRenamedKeys(raw, source.lineOf, display).map(blame);
  return normaliseAll(config, notes, { absolute, display, env, lineOf: source.lineOf, client });
}

/** A first run has no config yet: say what writes one. */
const NO_CONFIG = 'file not found; `mcp-gate init` writes one for the server of this project (or -c FILE names another config)';

/** The file parsed (keeping lines), with the env overrides and then the flags applied to a copy of it. */
function readRaw(absolute: string, display: string, env: NodeJS.ProcessEnv, flags: ConfigFlags, cwd: string) {
  const parsed = readSource(absolute, display);
  if (!parsed.ok) throw new InputError(parsed.problems.map((p) => (p.message === 'file not found' ? { ...p, message: NO_CONFIG } : p)));
  const source = parsed.source;
  if (source.value === null || typeof source.value !== 'object' || Array.isArray(source.value)) {
    throw new InputError([
      { file: display, line: 1, path: '', message: 'must be a YAML mapping with version, profiles, baseline and candidate' },
    ]);
  }
  const raw = structuredClone(source.value) as Record<string, unknown>;
  const overrides = envOverrides(env, raw);
  for (const o of overrides) applyOverride(raw, o.path, o.value);
  if (raw.servers !== undefined && (flags.baseline || flags.candidate || flags.datasets?.length)) {
    throw new InputError([
      {
        file: display,
        line: source.lineOf(['servers']),
        path: 'servers',
        message:
          '--baseline, --candidate and --dataset apply to a config with one baseline/candidate pair; this one declares servers. Gate one of them with --server NAME, or set its pair under servers.',
      },
    ]);
  }
  if (flags.baseline) raw.baseline = flags.baseline;
  if (flags.candidate) raw.candidate = flags.candidate;
  if (flags.datasets?.length) raw.datasets = flags.datasets.map((d) => resolve(cwd, d));
  if (flags.reportDir) raw.reports = { ...(raw.reports as object), dir: resolve(cwd, flags.reportDir) };
  return { source, raw, overrides };
}

/** The checked config normalised, with its notes: one pair, or a bundle whose every server is a pair of its own. */
function normaliseAll(
  config: RawConfig,
  notes: Problem[],
  {
    absolute,
    display,
    env,
    lineOf,
    client,
  }: { absolute: string; display: string; env: NodeJS.ProcessEnv; lineOf: LineOf; client: ReturnType<typeof resolveClientProfiles> },
): GateConfig {
  // A bundle's server may declare a profile of its own; any other profile it uses is a top-level one.
  const scopeOf = (server: string | undefined, name: string): string[] => {
    const own = server === undefined ? undefined : (config.servers?.[server]?.profiles ?? {});
    return own && Object.hasOwn(own, name) ? ['servers', server!, 'profiles', name] : ['profiles', name];
  };
  const origin = (server?: string): Origin => ({
    env,
    locate: (name) => {
      const at = scopeOf(server, name);
      return locator(at, lineOf, display, client.origins.get(dotted(at)));
    },
  });
  const withSources = (loaded: GateConfig, server?: string): GateConfig => {
    for (const [name, profile] of Object.entries(loaded.profiles)) {
      const from = (server && client.sources.get(`servers.${server}.profiles.${name}`)) || client.sources.get(`profiles.${name}`);
      if (from && profile.transport !== 'snapshot') profile.from = from;
    }
    return loaded;
  };
  if (!config.servers) return { ...withSources(normalise(config as PairConfig, absolute, {}, origin())), notes };
  const servers = Object.entries(config.servers).map(([name, server]) => ({
    name,
    config: withSources(normalise(serverConfig(config, server), absolute, {}, origin(name)), name),
  }));
  const shared = normalise({ ...config, profiles: config.profiles ?? {}, baseline: '', candidate: '' }, absolute, {}, origin());
  return { ...shared, notes, bundle: { concurrency: config.bundle?.concurrency ?? DEFAULTS.bundle.concurrency, servers } };
}

/**
 * Registers, for redaction, every secret value the profiles hand to servers (see src/base/secrets.ts):
 * a `${VAR}` anywhere in a profile whose name or value looks secret or that `secrets` declares, an
 * `env` entry likewise, a `${VAR}` in a url's password or credential-named query parameter, and
 * the whole value of a header that names a credential or is drawn from the environment. A folder
 * or a port is not registered: an error that names it stays readable.
 */
function registerProfileSecrets(profiles: unknown, env: NodeJS.ProcessEnv): void {
  if (!isObject(profiles)) return;
  for (const profile of Object.values(profiles)) {
    if (!isObject(profile)) continue;
    const declared = Array.isArray(profile.secrets) ? profile.secrets.filter((s): s is string => typeof s === 'string') : [];
    const references = (value: unknown): void => {
      if (typeof value === 'string') secretReferences(value, env, declared).forEach(registerSecret);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(references);
    };
    references(profile);
    if (typeof profile.url === 'string') urlSecretReferences(profile.url, env, declared).forEach(registerSecret);
    if (isObject(profile.env)) {
      for (const [key, template] of Object.entries(profile.env)) {
        if (typeof template !== 'string') continue;
        const value = expandReferences(template, env).value;
        if (isSecretValue(key, value, declared)) registerSecret(value);
      }
    }
    if (isObject(profile.headers)) {
      for (const [key, template] of Object.entries(profile.headers)) {
        if (typeof template !== 'string' || !isSecretHeader(key, template)) continue;
        registerSecret(expandReferences(template, env).value);
        // A header like "Bearer ${TOKEN}": the token alone is a secret too, wherever it shows up.
        for (const name of referencedVariables(template)) if (env[name]) registerSecret(env[name]);
      }
    }
  }
}

/** The flags that replace a value of the file, and the path of what each replaces. */
const FLAG_PATHS: [keyof ConfigFlags, string, string[]][] = [
  ['baseline', '--baseline', ['baseline']],
  ['candidate', '--candidate', ['candidate']],
  ['datasets', '--dataset', ['datasets']],
  ['reportDir', '--report-dir', ['reports', 'dir']],
];

/**
 * A problem in a value that came from the command line names the flag, and one from the
 * environment the variable, not the file's line: the person fixes it where they typed it.
 */
function blamer(overrides: Override[], flags: ConfigFlags): (problem: Problem) => Problem {
  const within = (problem: Problem, path: string[]) => {
    const at = dotted(path);
    return problem.path === at || problem.path.startsWith(`${at}.`) || problem.path.startsWith(`${at}[`);
  };
  const given = FLAG_PATHS.filter(([key]) => (key === 'datasets' ? flags.datasets?.length : flags[key]));
  return (problem) => {
    const flag = given.find(([, , path]) => within(problem, path));
    if (flag) return { ...problem, file: 'command line', line: null, path: flag[1] };
    const from = overrides.find((o) => within(problem, o.path));
    return from ? { ...problem, file: `environment ${from.variable}`, line: null } : problem;
  };
}

type LineOf = (path: (string | number)[]) => number | null;

/** Where the config came from, for problems found while normalising (unset `${VAR}` references). */
interface Origin {
  env: NodeJS.ProcessEnv;
  /** Where the fields of the profile NAME were written. */
  locate: (name: string) => Locate;
}

/**
 * A profile's fields at their lines: in the gate config, or, for what a `from` brought in (keys the
 * profile does not set itself, env entries it does not override), in the client config.
 */
function locator(at: string[], lineOf: LineOf, display: string, client: ClientOrigin | undefined): Locate {
  return (field) => {
    const [key, inner] = field;
    const fromClient = client && typeof key === 'string' && (key === 'env' ? !client.ownEnv.has(String(inner)) : !client.ownKeys.has(key));
    if (!fromClient) return { file: display, line: lineOf([...at, ...field]), path: dotted([...at, ...field]) };
    return { file: client.display, line: client.lineOf(field), path: dotted([...client.entry, ...field]) };
  };
}

function normalise(
  config: PairConfig,
  file: string,
  given: Record<string, Profile> = {},
  origin: Origin = { env: {}, locate: () => (field) => ({ file, line: null, path: dotted(field) }) },
): GateConfig {
  const base = dirname(file);
  const at = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const profiles: Record<string, Profile> = { ...given };
  for (const [name, p] of Object.entries(config.profiles)) {
    profiles[name] = normaliseProfile(name, p, at, origin.env, origin.locate(name));
  }
  return {
    file,
    notes: [],
    bundle: null,
    profiles,
    baseline: config.baseline,
    candidate: config.candidate,
    datasets: (config.datasets ?? []).map(at),
    reports: { dir: at(config.reports?.dir ?? DEFAULTS.reports.dir) },
    timeouts: { ...DEFAULTS.timeouts, ...config.timeouts },
    limits: { ...DEFAULTS.limits, ...config.limits },
    cases: { ...DEFAULTS.cases, ...config.cases },
    audit: { ...DEFAULTS.audit, ...config.audit },
    promotion: {
      rules: (config.promotion?.rules ?? {}) as Record<string, Action>,
      maxNewDestructiveTools: config.promotion?.maxNewDestructiveTools ?? DEFAULTS.promotion.maxNewDestructiveTools,
      maxBrokenCases: config.promotion?.maxBrokenCases ?? DEFAULTS.promotion.maxBrokenCases,
      destructiveToolsOutsideRoles: config.promotion?.destructiveToolsOutsideRoles ?? DEFAULTS.promotion.destructiveToolsOutsideRoles,
      unannotatedServers: config.promotion?.unannotatedServers ?? DEFAULTS.promotion.unannotatedServers,
      exceptions: (config.promotion?.exceptions ?? []) as Exception[],
      release: config.promotion?.release ?? DEFAULTS.promotion.release,
      deprecationWindowDays: config.promotion?.deprecationWindowDays ?? DEFAULTS.promotion.deprecationWindowDays,
    },
  };
}

/** A config built in code (e.g. for `diff` of two snapshot files): defaults everywhere. */
export function defaultConfig(profiles: Record<string, Profile>, baseline: string, candidate: string, cwd: string): GateConfig {
  return normalise({ profiles: {}, baseline, candidate }, resolve(cwd, 'gate.config.yaml'), profiles);
}
