import { referencedVariables } from './config/references.js';

/**
 * Redaction of secrets the config hands to servers. A value is a secret when it is drawn from the
 * gate's environment (`${VAR}` in a profile's `env` or `headers`), or when its key looks like one
 * (token, secret, password, api key, authorization...). Such values are registered as soon as the
 * config is read, and every path out of the gate (stdout, stderr, report files, snapshots) passes
 * through `redact`, so a server that echoes its credentials, or an error that quotes them, never
 * carries them into a CI log or a saved report.
 *
 * This is process-wide state on purpose: an error thrown from deep inside a run is printed by
 * cli.ts, which knows nothing of the config, and must still be redacted.
 */
export const REDACTED = '***';

const SECRET_KEY = /token|secret|passw(?:or)?d|api[-_]?key|auth|credential|private[-_]?key|cookie|session/i;
/** Shorter values would redact ordinary words and digits all over the output. */
const MIN_SECRET_LENGTH = 6;

const secrets = new Set<string>();
let ordered: string[] = [];

export function registerSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  secrets.add(value);
  // Longest first, so a secret that contains another is replaced whole.
  ordered = [...secrets].sort((a, b) => b.length - a.length);
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear();
  ordered = [];
}

/** Whether a `key: template` pair of a profile's env or headers carries a secret. */
export const isSecretEntry = (key: string, template: string): boolean => SECRET_KEY.test(key) || referencedVariables(template).length > 0;

export function redact(text: string): string {
  if (!ordered.length) return text;
  let out = text;
  for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** A copy of `value` with every string redacted (keys included). */
export function redactDeep<T>(value: T): T {
  return ordered.length ? mapStrings(value, redact) : value;
}

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
