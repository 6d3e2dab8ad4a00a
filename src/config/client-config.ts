import { basename, dirname, relative, resolve } from 'node:path';
import { closest } from '../base/closest.js';
import { clientLines, readClientFile, type ClientFile } from './client-file.js';
import { dotted, type Problem } from '../base/problems.js';
import { isObject } from '../base/json-object.js';

/**
 * MCP client configs as the source of a profile: `from: .mcp.json#tickets` reads the server
 * `tickets` of a client config the project already keeps, instead of repeating its command, args
 * and env. Three shapes are read, each JSON with comments:
 *
 * - `mcpServers` (Claude Code's `.mcp.json`, Claude Desktop, `.cursor/mcp.json`);
 * - `servers` (VS Code's `.vscode/mcp.json`).
 *
 * Keys the profile sets win over the client's (`env` is merged, the profile's variables winning).
 * The clients' variable forms become the gate's: `${env:VAR}` and `${VAR}` read the environment
 * when the server starts, `${VAR:-default}` takes the default when VAR is unset, and
 * `${workspaceFolder}` is the project (the folder holding `.vscode/` or `.cursor/`, or the file).
 */

type LineOf = (path: (string | number)[]) => number | null;
type RawProfile = Record<string, unknown>;

/** Keys of a client entry the gate reads; any other key is named in a problem rather than dropped in silence. */
const READ_KEYS = new Set(['type', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'disabled', 'description', 'name']);

interface Reference {
  file: string;
  name: string;
}

function parseReference(value: string): Reference | null {
  const hash = value.lastIndexOf('#');
  if (hash <= 0 || hash === value.length - 1) return null;
  return { file: value.slice(0, hash), name: value.slice(hash + 1) };
}

/** The folder a client config belongs to: where its relative paths and `${workspaceFolder}` point. */
function projectOf(file: string): string {
  const folder = dirname(file);
  return ['.vscode', '.cursor'].includes(basename(folder)) ? dirname(folder) : folder;
}

/**
 * Where a profile's values came from when its `from` named a client config: the file, the entry,
 * and the keys the profile set itself (those, and its own env entries, are the gate config's).
 */
export interface ClientOrigin {
  /** The client config as shown to people (relative to the working directory). */
  display: string;
  /** The entry in it, e.g. ['mcpServers', 'memory']. */
  entry: string[];
  /** 1-based line of a path inside the entry, or of the entry itself. */
  lineOf(path: (string | number)[]): number | null;
  ownKeys: Set<string>;
  ownEnv: Set<string>;
}

/** A client's string with its variable forms turned into the gate's; the VS Code prompts it cannot answer are returned. */
function translate(value: string, project: string, env: NodeJS.ProcessEnv, unanswerable: Set<string>): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (inner === 'workspaceFolder' || inner === 'workspaceRoot') return project;
    if (inner === 'userHome') return '${HOME}';
    const envForm = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
    if (envForm) return `\${${envForm[1]}}`;
    const withDefault = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/.exec(inner);
    if (withDefault) return env[withDefault[1]!] === undefined ? withDefault[2]! : `\${${withDefault[1]}}`;
    if (inner.startsWith('input:') || inner.startsWith('command:')) unanswerable.add(whole);
    return whole;
  });
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const stringMap = (value: unknown): value is Record<string, string> =>
  isObject(value) && Object.values(value).every((v) => typeof v === 'string');

/**
 * The profile keys one client entry stands for, or the problems that stop it. `at` names where in
 * the client file a problem lies.
 */
function entryToProfile(
  entry: unknown,
  project: string,
  configDir: string,
  env: NodeJS.ProcessEnv,
  say: (message: string) => void,
): RawProfile | null {
  if (!isObject(entry)) {
    say('is not an object with "command" or "url"');
    return null;
  }
  const unknown = Object.keys(entry).filter((k) => !READ_KEYS.has(k));
  if (unknown.length) {
    say(`has ${unknown.map((k) => `"${k}"`).join(', ')}, which the gate does not read; set what it stands for on the profile instead`);
    return null;
  }
  const unanswerable = new Set<string>();
  const t = (value: string) => translate(value, project, env, unanswerable);
  const type = typeof entry.type === 'string' ? entry.type : typeof entry.transport === 'string' ? entry.transport : undefined;
  const profile: RawProfile = {};
  if (typeof entry.url === 'string') {
    if (type === 'sse') profile.transport = 'sse';
    else if (type === undefined || type === 'http' || type === 'streamable-http' || type === 'streamableHttp') profile.transport = 'http';
    else {
      say(`has type "${type}" with a url; the gate reaches http (streamable HTTP) and sse servers`);
      return null;
    }
    profile.url = t(entry.url);
    if (entry.headers !== undefined) {
      if (!stringMap(entry.headers)) return (say('has "headers" that are not all strings'), null);
      profile.headers = Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, t(v)]));
    }
  } else if (typeof entry.command === 'string' && entry.command) {
    if (type !== undefined && type !== 'stdio') {
      say(`has type "${type}" but no url`);
      return null;
    }
    profile.command = t(entry.command);
    if (entry.args !== undefined) {
      if (!strings(entry.args)) return (say('has "args" that are not all strings'), null);
      profile.args = entry.args.map(t);
    }
    if (entry.env !== undefined) {
      if (!stringMap(entry.env)) return (say('has "env" values that are not all strings'), null);
      profile.env = Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, t(v)]));
    }
    // A client starts the server in the project unless told otherwise; the profile's cwd is relative to the gate config.
    const cwd = typeof entry.cwd === 'string' ? resolve(project, t(entry.cwd)) : project;
    profile.cwd = relative(configDir, cwd) || '.';
  } else {
    say('has neither a "command" (stdio) nor a "url" (http, sse)');
    return null;
  }
  if (unanswerable.size) {
    say(
      `uses ${[...unanswerable].join(', ')}, which a client asks a person for; the gate cannot. Set that value on the profile (its env or args win over the client's)`,
    );
    return null;
  }
  return profile;
}

/**
 * Replaces every profile's `from` (in `profiles` and each server's `profiles`) with the keys of the
 * client config entry it names, the profile's own keys winning. Returns the problems (a profile
 * whose `from` cannot be read keeps its `from`, and the caller stops on them), and which client
 * config each profile came from: a baseline's is policy (config/policy-drift.ts).
 */
export function resolveClientProfiles(
  raw: Record<string, unknown>,
  configDir: string,
  env: NodeJS.ProcessEnv,
  lineOf: LineOf,
  display: string,
  cwd: string,
): { problems: Problem[]; sources: Map<string, string>; origins: Map<string, ClientOrigin> } {
  const problems: Problem[] = [];
  const origins = new Map<string, ClientOrigin>();
  /** `profiles.NAME` or `servers.S.profiles.NAME` -> the absolute path of the client config it came from. */
  const sources = new Map<string, string>();
  const reading: Reading = { files: new Map(), configDir, env, cwd };
  for (const { at, profiles } of profileGroups(raw)) {
    if (!isObject(profiles)) continue;
    for (const [name, profile] of Object.entries(profiles)) {
      if (!isObject(profile) || profile.from === undefined) continue;
      const path = [...at, name, 'from'];
      const problem = (message: string) => problems.push({ file: display, line: lineOf(path), path: dotted(path), message });
      const resolved = fromClient(profile, reading, problem);
      if (!resolved) continue;
      profiles[name] = resolved.profile;
      sources.set(dotted([...at, name]), resolved.file);
      origins.set(dotted([...at, name]), resolved.origin);
    }
  }
  return { problems, sources, origins };
}

/** The profiles of the config, and those of each server of a bundle, with where each group is. */
function profileGroups(raw: Record<string, unknown>): { at: (string | number)[]; profiles: unknown }[] {
  const groups: { at: (string | number)[]; profiles: unknown }[] = [{ at: ['profiles'], profiles: raw.profiles }];
  for (const [name, server] of Object.entries(isObject(raw.servers) ? raw.servers : {})) {
    if (isObject(server)) groups.push({ at: ['servers', name, 'profiles'], profiles: server.profiles });
  }
  return groups;
}

/** What resolving reads from: each client config file once, however many profiles name it. */
interface Reading {
  files: Map<string, ClientFile>;
  configDir: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** One profile's `from` resolved: the entry's keys under the profile's own, or null after telling `problem` why not. */
function fromClient(
  profile: Record<string, unknown>,
  { files, configDir, env, cwd }: Reading,
  problem: (message: string) => void,
): { profile: Record<string, unknown>; file: string; origin: ClientOrigin } | null {
  const reference = typeof profile.from === 'string' ? parseReference(profile.from) : null;
  if (!reference) {
    problem('must be FILE#SERVER, a server of an MCP client config, e.g. .mcp.json#tickets or .vscode/mcp.json#tickets');
    return null;
  }
  const file = resolve(configDir, reference.file);
  const shown = relative(cwd, file) || file;
  if (!files.has(file)) files.set(file, readClientFile(file));
  const client = files.get(file)!;
  if (!client.ok) {
    problem(`names ${shown}, which ${client.message}`);
    return null;
  }
  const entry = client.servers[reference.name];
  if (entry === undefined) {
    const known = Object.keys(client.servers);
    const near = closest(reference.name, known);
    problem(
      `names server "${reference.name}", which ${shown} does not have${near ? ` (did you mean "${near}"?)` : ''}; its ${client.key}: ${known.join(', ') || 'none'}`,
    );
    return null;
  }
  const mapped = entryToProfile(entry, projectOf(file), configDir, env, (message) =>
    problem(`names ${shown} ${client.key}.${reference.name}, which ${message}`),
  );
  if (!mapped) return null;
  const { from: _from, ...own } = profile;
  const mergedEnv = mapped.env || own.env ? { ...(mapped.env as object), ...(own.env as object) } : undefined;
  return {
    profile: { ...mapped, ...own, ...(mergedEnv ? { env: mergedEnv } : {}) },
    file,
    origin: {
      display: shown,
      entry: [client.key, reference.name],
      lineOf: clientLines(client.text, [client.key, reference.name]),
      ownKeys: new Set(Object.keys(own)),
      ownEnv: new Set(Object.keys(isObject(own.env) ? own.env : {})),
    },
  };
}
