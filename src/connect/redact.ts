import { expandReferences, referencedVariables } from '../base/references.js';
import type { Profile, RemoteProfile } from '../config/types.js';
import {
  isSecretHeader,
  isSecretValue,
  looksSecret,
  mapStrings,
  maskIn,
  orderSecrets,
  REDACTED,
  registerSecret,
  secretReferences,
  urlSecretReferences,
} from '../base/secrets.js';

/**
 * The gate sends credentials (header values, secret `${VAR}` values in a url or a started server's
 * env and args) and must never print them: not in logs, error messages, stderr tails, case failures or reports.
 * A Redactor knows those values and scrubs them out of any text that came back from the server.
 */
const MASK = REDACTED;

/** `Bearer abc`, `Basic abc`: the scheme is not secret, the rest is. */
const AUTH_SCHEME = /^([A-Za-z][A-Za-z0-9-]*)\s+(\S.*)$/;

export class Redactor {
  private readonly secrets: string[];

  constructor(values: Iterable<string>) {
    this.secrets = orderSecrets(values);
    // Also for the process-wide redaction of everything the gate prints or saves (src/base/secrets.ts).
    for (const secret of this.secrets) registerSecret(secret);
  }

  get empty(): boolean {
    return this.secrets.length === 0;
  }

  scrub(text: string): string {
    return maskIn(text, this.secrets);
  }

  /** Every string inside a JSON-like value, scrubbed. Returns the value itself when nothing matched. */
  scrubDeep<T>(value: T): T {
    if (this.empty) return value;
    const text = JSON.stringify(value) ?? '';
    if (!this.secrets.some((s) => text.includes(JSON.stringify(s).slice(1, -1)))) return value;
    return mapStrings(value, (s) => this.scrub(s));
  }
}

/** The credentials a remote profile sends, once expanded from `env`: what a Redactor must scrub (see src/base/secrets.ts). */
export function profileSecrets(profile: RemoteProfile, expandedHeaders: Record<string, string>, env: NodeJS.ProcessEnv): string[] {
  const secrets: string[] = [...urlSecretReferences(profile.url, env, profile.secrets)];
  for (const [name, template] of Object.entries(profile.headers)) {
    secrets.push(...secretReferences(template, env, profile.secrets));
    if (!isSecretHeader(name, template)) continue;
    secrets.push(...referencedVariables(template).flatMap((v) => (env[v] === undefined ? [] : [env[v]])));
    const value = expandedHeaders[name] ?? '';
    secrets.push(value);
    const scheme = AUTH_SCHEME.exec(value);
    if (scheme) secrets.push(scheme[2]!);
  }
  for (const [key, template] of Object.entries(profile.launch?.env ?? {})) {
    secrets.push(...secretReferences(template, env, profile.secrets));
    const value = expandReferences(template, env).value;
    if (isSecretValue(key, value, profile.secrets)) secrets.push(value);
  }
  for (const text of [profile.launch?.command ?? '', ...(profile.launch?.args ?? [])])
    secrets.push(...secretReferences(text, env, profile.secrets));
  return secrets;
}

/** A header for people: the name, and at most the auth scheme of the value (`Authorization: Bearer ***`). */
export function describeHeader(name: string, template: string): string {
  const scheme = AUTH_SCHEME.exec(template);
  return scheme && /^(Bearer|Basic|Token|Digest|Negotiate|Bot)$/i.test(scheme[1]!) ? `${name}: ${scheme[1]} ${MASK}` : `${name}: ${MASK}`;
}

/**
 * A url for people: as written in the config (so `${VAR}` stays a reference), with a password in
 * the userinfo and the values of credential-looking query parameters masked.
 */
export function describeUrl(template: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(template);
  if (!match) return template;
  const [, scheme, authority, path, query = '', fragment = ''] = match;
  const host = authority!.replace(/^([^:@]*):[^@]*@/, `$1:${MASK}@`);
  const params = query
    ? `?${query
        .slice(1)
        .split('&')
        .map((pair) => {
          const at = pair.indexOf('=');
          return at > 0 && looksSecret(pair.slice(0, at)) && !/^\$\{[^}]+\}$/.test(pair.slice(at + 1))
            ? `${pair.slice(0, at)}=${MASK}`
            : pair;
        })
        .join('&')}`
    : '';
  return `${scheme}${host}${path}${params}${fragment}`;
}

/** A remote profile in one line for the progress log: transport, url, header names, the command it starts. */
function describeRemoteProfile(profile: RemoteProfile): string {
  const parts = [`${profile.transport} ${describeUrl(profile.url)}`];
  const headers = Object.entries(profile.headers).map(([name, value]) => describeHeader(name, value));
  if (headers.length) parts.push(`headers ${headers.join(', ')}`);
  if (profile.launch) parts.push(`started by ${[profile.launch.command, ...profile.launch.args].join(' ')}`);
  return parts.join(', ');
}

/** Any profile in one line for the progress log, with no secret in it. */
export function describeProfile(profile: Profile): string {
  if (profile.transport === 'snapshot') return `snapshot ${relativeToCwd(profile.path)}`;
  const line = profile.transport === 'stdio' ? [profile.command, ...profile.args].join(' ') : describeRemoteProfile(profile);
  return profile.git?.commit ? `${line}, from git ${profile.git.commit.slice(0, 12)}` : line;
}

/** A path below the working directory, relative to it; any other as it is. */
export function relativeToCwd(file: string): string {
  const cwd = process.cwd();
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}
