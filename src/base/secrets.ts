import { referencedVariables } from './references.js';

/**
 * Redaction of secrets the config hands to servers. A value is a secret when its name looks like
 * one (a variable or env key with token, secret, password, key, auth...), when it is shaped like a
 * token, when the profile declares it secret (`secrets:`), or when it is a header value drawn from
 * the environment or under a credential-named header. Other values, such as a folder a `${VAR}`
 * names, are shown: hiding them hides the part of an error that says what went wrong. Secrets are
 * registered as soon as the config is read, and every path out of the gate (stdout, stderr,
 * report files, snapshots) passes through `redact`, so a server that echoes its credentials, or
 * an error that quotes them, never carries them into a CI log or a saved report.
 *
 * This is process-wide state on purpose: an error thrown from deep inside a run is printed by
 * src/cli.ts, which knows nothing of the config, and must still be redacted.
 */
export const REDACTED = '***';

const SECRET_NAME = /token|secret|passw|key|auth|credential|cookie|session|signature|^sig$/i;

/** Whether a name (env key, header, query parameter) says its value is a credential. */
export const looksSecret = (name: string): boolean => SECRET_NAME.test(name);
/** Shorter values would redact ordinary words and digits all over the output. */
const MIN_SECRET_LENGTH = 6;

let ordered: string[] = [];

/** Secrets as they are masked: long enough to tell apart from words, without repeats, longest first (so a secret that contains another is replaced whole). */
export const orderSecrets = (values: Iterable<string>): string[] =>
  [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);

/** `text` with every one of `secrets` (as ordered by orderSecrets) replaced by the mask. */
export function maskIn(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

export function registerSecret(value: string): void {
  if (!ordered.includes(value)) ordered = orderSecrets([...ordered, value]);
}

/** Whether a header's value is a credential: under a credential-named header, or drawn from the environment. */
export const isSecretHeader = (name: string, template: string): boolean => looksSecret(name) || referencedVariables(template).length > 0;

/** Bits per character of a string's own letter frequencies: random tokens score high, words and paths low. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/**
 * Whether a value is shaped like a credential, whatever its name: a known token shape, or a value
 * with no spaces or path separators holding a long run of mixed letters and digits with a random
 * look (a hex or base64 key). A folder, a url, a host, a UUID or words joined by dashes are not:
 * declare those in `secrets` when they are.
 */
export function looksLikeToken(value: string): boolean {
  if (new RegExp(TOKEN_SHAPES.source).test(value)) return true;
  if (value.length < 20 || !/^[A-Za-z0-9_+=.-]+$/.test(value)) return false;
  // Words joined by dashes (eu-west-1-availability-zone) are not a key: a key has a long run that mixes letters and digits.
  const run = value.split(/[-_.+=]/).some((part) => part.length >= 16 && /[0-9]/.test(part) && /[A-Za-z]/.test(part));
  return run && entropy(value) >= 3.5;
}

/** Whether the value of a variable or env key is a secret: by its name, by the profile's `secrets`, or by its shape. */
export const isSecretValue = (name: string, value: string, declared: readonly string[]): boolean =>
  declared.includes(name) || looksSecret(name) || looksLikeToken(value);

/** The values of the `${VAR}` references in `template` that are secrets (see isSecretValue). */
export const secretReferences = (template: string, env: NodeJS.ProcessEnv, declared: readonly string[]): string[] =>
  referencedVariables(template).flatMap((name) => {
    const value = env[name];
    return value !== undefined && isSecretValue(name, value, declared) ? [value] : [];
  });

/**
 * The values of the `${VAR}` references in a url that are secrets: those isSecretValue names, and
 * any that stands in a password or in a credential-named query parameter (`?api_key=${KEY}`).
 */
export function urlSecretReferences(template: string, env: NodeJS.ProcessEnv, declared: readonly string[]): string[] {
  const inCredential = [
    ...(/^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(template)?.slice(1) ?? []),
    ...[...template.matchAll(/[?&]([^=&#]+)=([^&#]*)/g)].filter((m) => looksSecret(m[1]!)).map((m) => m[2]!),
  ];
  const values = inCredential.flatMap((part) => referencedVariables(part).flatMap((name) => (env[name] ? [env[name]] : [])));
  return [...values, ...secretReferences(template, env, declared)];
}

/**
 * Credentials recognised by their shape, wherever they appear, registered or not: GitHub tokens
 * (classic, fine-grained, app, OAuth, refresh), Slack tokens, AWS access key ids, npm and GitLab
 * tokens, and secret keys in the `sk-` form. A candidate that reads the runner's environment and
 * echoes a token it was never given is caught here.
 */
const TOKEN_SHAPES =
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|npm_[A-Za-z0-9]{30,}|glpat-[A-Za-z0-9_-]{20,}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,})/g;

export const redact = (text: string): string => maskIn(text, ordered).replace(TOKEN_SHAPES, REDACTED);

/** A copy of `value` with every string redacted (keys included). */
export function redactDeep<T>(value: T): T {
  return ordered.length ? mapStrings(value, redact) : value;
}

/**
 * Every string redacted, token shapes included, whether or not a secret is registered: for a
 * rendering that cuts text (a markdown cell), which must see whole tokens before it cuts them.
 */
export const redactAll = <T>(value: T): T => mapStrings(value, redact);

/**
 * Token shapes alone, over text already serialised (a report file): one scan, where walking every
 * string of a large report would cost more. Every other way out passes through `redact`.
 */
export const redactShapes = (text: string): string => text.replace(TOKEN_SHAPES, REDACTED);

/** A copy of a JSON-like value with `change` applied to every string, keys included. */
export function mapStrings<T>(value: T, change: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return change(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [change(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}
