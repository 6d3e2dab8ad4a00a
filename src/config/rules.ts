import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { closest } from '../base/closest.js';
import { isCode, isJudgedCode, JUDGED_CODES } from '../findings/codes.js';
import { RENAMED_KEYS } from './defaults.js';
import type { RawConfig, RawProfile, RawPromotion, RawServer } from './definition.js';
import { dotted, type Problem } from '../base/problems.js';
import { profileProblems } from './profiles.js';
import { isObject } from '../base/json-object.js';

/**
 * What a config must hold beyond its schema, each problem at its line: the pair names defined
 * profiles and a live candidate, a bundle's servers each make a pair, finding codes exist, the
 * datasets named exist, and a deprecated key is not set beside the key that replaced it. Also how
 * one server of a bundle reads as a pair, and how deprecated keys are read as their new names.
 */

/** One baseline/candidate pair, as read once the file is valid: the whole file, or one server of a bundle. */
export type PairConfig = Omit<RawConfig, 'version' | 'profiles' | 'baseline' | 'candidate'> & {
  profiles: Record<string, RawProfile>;
  baseline: string;
  candidate: string;
};

type LineOf = (path: (string | number)[]) => number | null;

export function semanticProblems(config: RawConfig, lineOf: LineOf, file: string): Problem[] {
  return [...pairProblems(config, lineOf, file), ...partProblems(config.profiles, config.promotion, lineOf, file)];
}

/** The baseline and candidate name defined profiles, and the candidate is live. */
function pairProblems(config: { profiles?: unknown; baseline?: unknown; candidate?: unknown }, lineOf: LineOf, file: string): Problem[] {
  if (!isObject(config.profiles)) return []; // missing or of the wrong type: the schema says so
  const profiles = config.profiles;
  const problems: Problem[] = [];
  const names = Object.keys(profiles);
  for (const side of ['baseline', 'candidate'] as const) {
    const name = config[side];
    if (typeof name === 'string' && !Object.hasOwn(profiles, name)) {
      const hint = closest(name, names);
      problems.push({
        file,
        line: lineOf([side]),
        path: side,
        message: `names profile "${name}", which is not defined${hint ? ` (did you mean "${hint}"?)` : ''}; defined profiles: ${names.join(', ')}`,
      });
    }
  }
  const candidate =
    typeof config.candidate === 'string' && Object.hasOwn(profiles, config.candidate) ? profiles[config.candidate] : undefined;
  if (isObject(candidate) && candidate.transport === 'snapshot') {
    problems.push({
      file,
      line: lineOf(['candidate']),
      path: 'candidate',
      message: 'the candidate must be a live server; a snapshot profile can only stand in for the baseline',
    });
  }
  return problems;
}

/** Profiles and promotion, wherever they are written (top level, or under a server of a bundle). */
function partProblems(profiles: unknown, promotion: unknown, lineOf: LineOf, file: string): Problem[] {
  const problems: Problem[] = [];
  for (const [name, profile] of Object.entries(isObject(profiles) ? profiles : {})) {
    if (isObject(profile)) problems.push(...profileProblems(name, profile, lineOf, file));
  }
  if (!isObject(promotion)) return problems;
  for (const code of Object.keys(isObject(promotion.rules) ? promotion.rules : {})) {
    if (!isJudgedCode(code))
      problems.push({
        file,
        line: lineOf(['promotion', 'rules', code]),
        path: `promotion.rules.${code}`,
        message: isCode(code) ? caseFailureNote(code) : `unknown finding code; known codes: ${JUDGED_CODES.join(', ')}`,
      });
  }
  (Array.isArray(promotion.exceptions) ? promotion.exceptions : []).forEach((e: unknown, i) => {
    if (!isObject(e)) return;
    const where = ['promotion', 'exceptions', i];
    if (typeof e.code === 'string' && !isJudgedCode(e.code))
      problems.push({
        file,
        line: lineOf([...where, 'code']),
        path: dotted([...where, 'code']),
        message: isCode(e.code) ? caseFailureNote(e.code) : `unknown finding code "${e.code}"`,
      });
    if (typeof e.expires === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(e.expires) && Number.isNaN(Date.parse(`${e.expires}T00:00:00Z`))) {
      problems.push({
        file,
        line: lineOf([...where, 'expires']),
        path: dotted([...where, 'expires']),
        message: `"${e.expires}" is not a real date (YYYY-MM-DD)`,
      });
    }
  });
  return problems;
}

/** Every `datasets` entry (top level, and each server's) whose file does not exist, at its line. */
export function missingDatasets(raw: Record<string, unknown>, base: string, lineOf: LineOf, file: string, cwd: string): Problem[] {
  const lists: { at: (string | number)[]; list: unknown }[] = [{ at: ['datasets'], list: raw.datasets }];
  for (const [name, server] of Object.entries(isObject(raw.servers) ? raw.servers : {})) {
    if (isObject(server)) lists.push({ at: ['servers', name, 'datasets'], list: server.datasets });
  }
  return lists.flatMap(({ at, list }) =>
    (Array.isArray(list) ? list : []).flatMap((entry: unknown, i) => {
      if (typeof entry !== 'string' || !entry || existsSync(resolve(base, entry))) return [];
      const shown = relative(cwd, resolve(base, entry)) || entry;
      return [{ file, line: lineOf([...at, i]), path: dotted([...at, i]), message: `names dataset ${shown}, which does not exist` }];
    }),
  );
}

/** A deprecated key beside the key that replaced it: which one is meant cannot be guessed. */
export function renamedKeyProblems(raw: Record<string, unknown>, lineOf: LineOf, file: string): Problem[] {
  return RENAMED_KEYS.flatMap(({ path, now }) => {
    const parent = valueAt(raw, path.slice(0, -1));
    if (!isObject(parent) || parent[path.at(-1)!] === undefined || parent[now] === undefined) return [];
    return [{ file, line: lineOf(path), path: dotted(path), message: `is the old name of ${now}, which is set too; keep only ${now}` }];
  });
}

/** Reads a deprecated key as the key that replaced it, and says so (a note, not a problem). */
export function applyRenamedKeys(raw: Record<string, unknown>, lineOf: LineOf, file: string): Problem[] {
  return RENAMED_KEYS.flatMap(({ path, now }) => {
    const parent = valueAt(raw, path.slice(0, -1));
    const old = path.at(-1)!;
    if (!isObject(parent) || parent[old] === undefined) return [];
    parent[now] = parent[old];
    delete parent[old];
    return [{ file, line: lineOf(path), path: dotted(path), message: `is deprecated and still read; rename it ${now}` }];
  });
}

function valueAt(root: unknown, path: string[]): unknown {
  return path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), root);
}

/** One server of a bundle as a single-pair config: its profiles over the shared ones, its promotion over the shared one. */
export function serverConfig(config: RawConfig, server: RawServer): PairConfig {
  const shared: RawPromotion = config.promotion ?? {};
  const own: RawPromotion = server.promotion ?? {};
  const { servers: _servers, bundle: _bundle, ...rest } = config;
  return {
    ...rest,
    profiles: { ...config.profiles, ...server.profiles },
    baseline: server.baseline,
    candidate: server.candidate,
    datasets: server.datasets ?? config.datasets,
    promotion: {
      ...shared,
      ...own,
      rules: { ...shared.rules, ...own.rules },
      exceptions: [...(shared.exceptions ?? []), ...(own.exceptions ?? [])],
    },
  };
}

/** The rules of a bundle: no top-level pair beside servers; shared parts checked once, each server's pair and own parts at their lines. */
export function bundleProblems(config: RawConfig, lineOf: LineOf, file: string): Problem[] {
  const problems: Problem[] = [];
  for (const side of ['baseline', 'candidate'] as const) {
    if (config[side] !== undefined)
      problems.push({
        file,
        line: lineOf([side]),
        path: side,
        message: `does not apply beside servers: set ${side} under each server (servers.<name>.${side}), or remove servers to gate one pair`,
      });
  }
  problems.push(...partProblems(config.profiles, config.promotion, lineOf, file));
  for (const [name, server] of Object.entries(isObject(config.servers) ? config.servers : {})) {
    if (!isObject(server)) continue;
    const scoped: LineOf = (path) => lineOf(['servers', name, ...path]);
    const prefixed = (p: Problem): Problem => ({ ...p, path: `servers.${name}.${p.path}` });
    problems.push(...pairProblems(serverConfig(config, server), scoped, file).map(prefixed));
    problems.push(...partProblems(server.profiles ?? {}, server.promotion, scoped, file).map(prefixed));
  }
  return problems;
}

/** A case failure code named where a judged code belongs: the case is judged, not why it failed. */
const caseFailureNote = (code: string): string =>
  `"${code}" is why a case fails, not a finding of its own: a case is judged as case-broken (or case-already-failing), so write the rule or exception for that code`;
