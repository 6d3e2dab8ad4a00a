import { InputError } from '../base/problems.js';
import { expandReferences } from '../base/references.js';
import type { RemoteProfile } from '../config/types.js';
import type { NotReady } from './http-launch.js';
import { Redactor, describeUrl, profileSecrets } from './redact.js';

/**
 * A remote profile's url and headers with `${VAR}` expanded, and the Redactor that keeps those
 * values out of everything printed. An unset variable is a config problem (exit 3), whichever side
 * it is on: it says nothing about the server.
 */
export function resolveRemote(
  profile: RemoteProfile,
  env: NodeJS.ProcessEnv,
): { url: URL; headers: Record<string, string>; redactor: Redactor } {
  if (profile.unresolved.length) throw new InputError(profile.unresolved);
  const headers = Object.fromEntries(Object.entries(profile.headers).map(([name, value]) => [name, expandReferences(value, env).value]));
  const redactor = new Redactor(profileSecrets(profile, headers, env));
  const expanded = expandReferences(profile.url, env).value;
  let url: URL;
  try {
    url = new URL(expanded);
  } catch {
    throw new InputError([
      {
        file: 'environment',
        line: null,
        path: `profiles.${profile.name}.url`,
        message: `${describeUrl(profile.url)} is not a valid URL once its variables are expanded`,
      },
    ]);
  }
  return { url, headers, redactor };
}

/** Why a started server never answered, naming the profile, the url and what was tried. */
export function notReadyMessage(profile: RemoteProfile, command: string, notReady: NotReady): string {
  const url = describeUrl(profile.url);
  if (notReady.kind === 'exited') {
    const { code, signal } = notReady.exit;
    return `profile "${profile.name}": the server started by ${command} exited ${signal ? `on ${signal}` : `with code ${code}`} before ${url} answered`;
  }
  const last = notReady.lastError ? ` (last attempt: ${notReady.lastError})` : '';
  return `profile "${profile.name}": ${url} did not answer within readyTimeoutMs (${profile.readyTimeoutMs} ms) after starting ${command}${last}; raise profiles.${profile.name}.readyTimeoutMs or check that the server listens on that address`;
}
